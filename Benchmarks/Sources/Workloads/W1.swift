// W1: a pure Transducer counter; N events enqueued through the proxy, then
// processed by `run` until terminal. Floors: (a) a plain loop calling the
// non-inlined update N times; (b) the same events in a minimal
// pthread-mutex queue drained by one consumer task. Target: Oak ≤ 3 × (b).
// W4 is W1 with an output `Callback` receiving every output: ≤ 1.2 × W1.

import BenchSupport
import Oak

/// W1 and W4: the counter through a pre-filled proxy, and its floors.
public enum W1Workload {
    /// Floor (a): a plain loop calling the non-inlined update `n` times.
    public static func floorA(n: Int) -> Int {
        var state = CounterState(limit: n)
        var last = 0
        for _ in 0..<n {
            last = counterUpdate(&state, .increment)
        }
        return last
    }

    /// Floor (b): `n` events in a minimal mutex queue, then drained by one
    /// consumer task.
    public static func floorB(n: Int) async throws -> Int {
        let queue = FloorQueue<CounterEvent>(capacity: n)
        for _ in 0..<n {
            try queue.send(.increment)
        }
        let consumer = Task {
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
        return await consumer.value
    }

    /// Oak: `n` events sent through the proxy, then processed by `run` in a
    /// task until terminal; with `callback`, every output goes to a
    /// `Callback` (W4).
    public static func oak(n: Int, callback: Bool = false) async throws {
        let proxy = CounterTransducer.Proxy(bufferSize: n)
        for _ in 0..<n {
            try proxy.send(.increment)
        }
        let run = Task {
            if callback {
                _ = try await CounterTransducer.run(
                    initialState: CounterState(limit: n), proxy: proxy, output: Callback { value in sink(value) })
            } else {
                try await CounterTransducer.run(initialState: CounterState(limit: n), proxy: proxy)
            }
        }
        return try await run.value
    }
}

/// Receives W4's outputs; never inlined, so the output cannot be optimised
/// away.
@inline(never)
func sink(_ value: Int) {
    if value == .min { print(value) }
}
