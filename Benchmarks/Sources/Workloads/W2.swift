// W2: an EffectTransducer whose every update returns an action effect that
// produces the next event; N steps on one actor. Floor: a loop on the same
// actor that calls the update and awaits a non-inlined async closure per
// step. Target: Oak ≤ 0.5 × floor (the action path pays no async call).

import BenchSupport
import Oak

enum Stepper: EffectTransducer {
    typealias State = CounterState
    enum Event: Sendable { case step }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        _ = counterUpdate(&state, .increment)
        return state.isTerminal ? nil : Effect { _, _ in .step }
    }
}

typealias Step = @Sendable (isolated (any Actor)?, Stepper.Event) async -> Stepper.Event

/// The floor's async closure, hidden from the optimizer.
@inline(never)
func makeStep() -> Step {
    { _, event in event }
}

/// W2: the action path, and its floor, on one actor.
public actor W2Workload {
    /// A fresh actor.
    public init() {}

    /// `n` updates, each returning an action that produces the next event.
    public func oak(n: Int) async throws {
        try await Stepper.run(initialState: CounterState(limit: n), proxy: Stepper.Proxy(initialEvent: .step))
    }

    /// `n` updates, each followed by an await of a non-inlined async closure.
    public func floor(n: Int) async -> Int {
        let step = makeStep()
        var state = CounterState(limit: n)
        var event = Stepper.Event.step
        while true {
            _ = counterUpdate(&state, .increment)
            if state.isTerminal { break }
            event = await step(self, event)
        }
        return state.count
    }
}
