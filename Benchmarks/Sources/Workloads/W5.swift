// W5: N idle transducers, each `run` in its own task waiting for events.
// Measured per instance: resident memory (and heap in use) while all wait,
// the time until all wait, then the time until all have processed one event
// each and finished. Floor: N tasks each waiting on a minimal pthread-mutex
// queue. Targets: memory ≤ 1.2 × floor; start and finish ≤ 1.5 × floor.
//
// "All wait" is observed as: every run has processed the event it was
// created with (`.started`, which counts down) — the park that follows is
// the same few instructions for Oak and the floor. Resident memory is the
// RSS delta after `malloc_trim`, heap is glibc's in-use bytes (under
// package-benchmark both include the malloc interposer's 16-byte header per
// allocation).

import BenchSupport
import Oak

enum Idle: Transducer {
    typealias State = CounterState
    typealias Output = Int
    enum Event: Sendable {
        case started(Countdown)
        case finish
    }

    static func update(_ state: inout State, event: Event) -> Int {
        let count = counterUpdate(&state, .increment)
        if case .started(let countdown) = event {
            countdown.arrive()
        }
        return count
    }
}

/// W5: many idle runs, and their floor.
public enum W5Workload {
    /// What one side measured in one run of `n` instances.
    public struct Sample: Sendable {
        var rss0 = 0
        var heap0 = 0
        var mallocs0 = 0
        var t0: UInt64 = 0
        var rss1 = 0
        var heap1 = 0
        var t1: UInt64 = 0
        var t2: UInt64 = 0
        var mallocs = 0

        mutating func before() {
            Memory.trim()
            rss0 = Memory.residentBytes()
            heap0 = Memory.heapInUse()
            mallocs0 = MallocCounter.count() ?? 0
            t0 = monotonicNanos()
        }

        mutating func allWaiting() {
            t1 = monotonicNanos()
            rss1 = Memory.residentBytes()
            heap1 = Memory.heapInUse()
        }

        mutating func allFinished() {
            t2 = monotonicNanos()
            mallocs = (MallocCounter.count() ?? 0) - mallocs0
        }

        /// The names of ``values(n:)``.
        public static let quantities = ["StartNs", "FinishNs", "ResidentBytes", "HeapBytes", "Mallocs"]

        /// Per instance: nanoseconds until all wait, nanoseconds until all
        /// finished, resident and heap bytes while all wait; malloc calls in
        /// all.
        public func values(n: Int) -> [Int] {
            [Int(t1 - t0) / n, Int(t2 - t1) / n, (rss1 - rss0) / n, (heap1 - heap0) / n, mallocs]
        }
    }

    /// Starts `n` idle runs, waits until all wait, calls `holding`, then
    /// sends one event to each and waits until all have finished.
    public static func oak(n: Int, holding: (@Sendable () async -> Void)? = nil) async throws -> Sample {
        var proxies: [Idle.Proxy] = []
        var tasks: [Task<Void, any Error>] = []
        proxies.reserveCapacity(n)
        tasks.reserveCapacity(n)
        let started = Countdown(n)
        var sample = Sample()
        sample.before()
        for _ in 0..<n {
            let proxy = Idle.Proxy(initialEvent: .started(started))
            proxies.append(proxy)
            tasks.append(Task { try await Idle.run(initialState: CounterState(limit: 2), proxy: proxy) })
        }
        await started.wait()
        sample.allWaiting()
        await holding?()
        for proxy in proxies {
            try proxy.send(.finish)
        }
        for task in tasks {
            try await task.value
        }
        sample.allFinished()
        return sample
    }

    /// The same with `n` tasks, each draining its own minimal queue.
    public static func floor(n: Int, holding: (@Sendable () async -> Void)? = nil) async throws -> Sample {
        var queues: [FloorQueue<Idle.Event>] = []
        var tasks: [Task<Int, Never>] = []
        queues.reserveCapacity(n)
        tasks.reserveCapacity(n)
        let started = Countdown(n)
        var sample = Sample()
        sample.before()
        for _ in 0..<n {
            let queue = FloorQueue<Idle.Event>(capacity: Idle.Proxy.defaultBufferSize)
            try queue.send(.started(started))
            queues.append(queue)
            tasks.append(
                Task {
                    var state = CounterState(limit: 2)
                    var last = 0
                    while !state.isTerminal {
                        if let event = queue.poll() {
                            last = Idle.update(&state, event: event)
                        } else {
                            await queue.wait()
                        }
                    }
                    return last
                })
        }
        await started.wait()
        sample.allWaiting()
        await holding?()
        for queue in queues {
            try queue.send(.finish)
        }
        for task in tasks {
            _ = await task.value
        }
        sample.allFinished()
        return sample
    }
}
