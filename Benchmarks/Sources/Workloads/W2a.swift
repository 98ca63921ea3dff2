// W2a: an EffectTransducer whose every update returns an async action
// (`Effect(action:)`, an `@isolated(any)` closure with no isolation of its
// own) producing the next event; N steps with `run` on an actor. Floor: a
// loop on the same actor that calls the update and awaits the same kind of
// closure, made per step as `update` makes it. Target: Oak ≤ 1.5 × floor.

import BenchSupport
import Oak

enum AsyncStepper: EffectTransducer {
    typealias State = CounterState
    enum Event: Sendable { case step }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        _ = counterUpdate(&state, .increment)
        return state.isTerminal ? nil : Effect(action: { _ in .step })
    }
}

typealias AsyncAction = @Sendable @isolated(any) () async throws -> AsyncStepper.Event

/// The floor's action, made per step as `update` makes Oak's, hidden from
/// the optimizer.
@inline(never)
func makeAsyncAction() -> AsyncAction {
    { .step }
}

/// W2a: the async action path with `run` on an actor, and its floor.
public actor W2aWorkload {
    /// A fresh actor.
    public init() {}

    /// `n` updates, each returning an async action that produces the next
    /// event.
    public func oak(n: Int) async throws {
        try await AsyncStepper.run(
            initialState: CounterState(limit: n), proxy: AsyncStepper.Proxy(initialEvent: .step))
    }

    /// `n` updates, each followed by an await of an `@isolated(any)` closure.
    public func floor(n: Int) async throws -> Int {
        var state = CounterState(limit: n)
        while true {
            _ = counterUpdate(&state, .increment)
            if state.isTerminal { break }
            let action = makeAsyncAction()
            _ = try await action()
        }
        return state.count
    }
}
