// W3a: W3 (operations in sequence, each answering with one `input.send`)
// with `run` on an actor, as every host runs. The operation has no isolation
// of its own, so it runs off the actor and its answer hops back. Floor: per
// step, a `Task {}` resuming a continuation awaited on the same actor.
// Target: Oak ≤ 1.5 × floor.

import BenchSupport
import Oak

/// W3a: operations in sequence with `run` on an actor, and their floor.
public actor W3aWorkload {
    /// A fresh actor.
    public init() {}

    /// `n` operations, each started by the previous answer.
    public func oak(n: Int) async throws {
        try await Pinger.run(initialState: CounterState(limit: n), proxy: Pinger.Proxy(initialEvent: .start))
    }

    /// A `Task {}` per step resuming the continuation awaited on this actor.
    public func floor(n: Int) async -> Int {
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
