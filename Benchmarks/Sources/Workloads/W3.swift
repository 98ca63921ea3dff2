// W3: N operation effects in sequence: each is started by an event (the
// previous answer) and answers with one `input.send`. Floor: a `Task {}` per
// step resuming the awaiting continuation. Target: Oak ≤ 1.3 × floor.
//
// W3b: N operation effects started at once (one update returns them
// combined); the answers are processed as they arrive. Floor: N tasks
// answering through one minimal pthread-mutex queue drained by the consumer.
// Target: Oak ≤ 1.3 × floor.

import BenchSupport
import Oak

enum Pinger: EffectTransducer {
    typealias State = CounterState
    enum Event: Sendable {
        case start
        case answer
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        if case .answer = event {
            _ = counterUpdate(&state, .increment)
        }
        return state.isTerminal ? nil : Effect { _, input in try input.send(.answer) }
    }
}

enum Fanout: EffectTransducer {
    typealias State = CounterState
    enum Event: Sendable {
        case startAll
        case answer
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .startAll:
            return .combine((0..<state.limit).map { _ in Effect { _, input in try input.send(.answer) } })
        case .answer:
            _ = counterUpdate(&state, .increment)
            return nil
        }
    }
}

/// W3: operations in sequence, and their floor.
public enum W3Workload {
    /// `n` operations, each started by the previous answer.
    public static func oak(n: Int) async throws {
        try await Pinger.run(initialState: CounterState(limit: n), proxy: Pinger.Proxy(initialEvent: .start))
    }

    /// A `Task {}` per step resuming the awaiting continuation.
    public static func floor(n: Int) async -> Int {
        var state = CounterState(limit: n)
        while !state.isTerminal {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                Task { continuation.resume() }
            }
            _ = counterUpdate(&state, .increment)
        }
        return state.count
    }
}

/// W3b: operations started at once, and their floor.
public enum W3bWorkload {
    /// One update starts `n` operations; the answers are processed as they
    /// arrive.
    public static func oak(n: Int) async throws {
        let proxy = Fanout.Proxy(bufferSize: n + 1, initialEvent: .startAll)
        try await Fanout.run(initialState: CounterState(limit: n), proxy: proxy)
    }

    /// `n` tasks answering through one queue drained by the caller.
    public static func floor(n: Int) async -> Int {
        let queue = FloorQueue<Fanout.Event>(capacity: n + 1)
        for _ in 0..<n {
            Task { try? queue.send(.answer) }
        }
        var state = CounterState(limit: n)
        while !state.isTerminal {
            if queue.poll() != nil {
                _ = counterUpdate(&state, .increment)
            } else {
                await queue.wait()
            }
        }
        return state.count
    }
}
