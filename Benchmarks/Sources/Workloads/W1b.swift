// W1b: W1 with the default buffer (`Proxy.defaultBufferSize`, 8 events as
// in Oak), the sender and `run` interleaved on one actor: the sender fills
// the buffer, yields when it is full, the run drains it and parks. Floor:
// the same with a minimal pthread-mutex queue of the same capacity. Target:
// Oak ≤ 3 × floor.

import BenchSupport
import Oak

/// W1b: sender and run interleaved on one actor, and its floor.
public actor W1bWorkload {
    /// A fresh actor.
    public init() {}

    /// `n` events through the default buffer; the sender yields when full.
    public func oak(n: Int) async throws {
        let proxy = CounterTransducer.Proxy()
        let run = Task { try await self.run(proxy, n: n) }
        var sent = 0
        while sent < n {
            do {
                try proxy.send(.increment)
                sent += 1
            } catch .bufferFull {
                await Task.yield()
            }
        }
        return try await run.value
    }

    private func run(_ proxy: CounterTransducer.Proxy, n: Int) async throws {
        try await CounterTransducer.run(initialState: CounterState(limit: n), proxy: proxy)
    }

    /// The same through a minimal queue of the same capacity.
    public func floor(n: Int) async -> Int {
        let queue = FloorQueue<CounterEvent>(capacity: CounterTransducer.Proxy.defaultBufferSize)
        let consumer = Task { await self.consume(queue, n: n) }
        var sent = 0
        while sent < n {
            do {
                try queue.send(.increment)
                sent += 1
            } catch {
                await Task.yield()
            }
        }
        return await consumer.value
    }

    private func consume(_ queue: FloorQueue<CounterEvent>, n: Int) async -> Int {
        var state = CounterState(limit: n)
        var last = 0
        while !state.isTerminal {
            if let event = queue.poll() {
                last = counterUpdate(&state, event)
            } else {
                await queue.wait()
            }
        }
        return last
    }
}
