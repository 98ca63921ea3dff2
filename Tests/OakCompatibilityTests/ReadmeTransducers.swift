// swift-format-ignore-file
// The transducers of the Oak README, copied unchanged: they must compile
// against our module exactly as written there. The README also uses
// `MyTransducer` and `CounterTransducer` without defining them; they are
// defined at the end as its snippets need them. This one file serves the
// tests and, through symbolic links, Tools/SwiftUICheck's snippet targets.
import Oak

// Simple, non-terminating counter state machine with
// async effects
enum EffectCounter: EffectTransducer {
    // State holds counter value and tracks operation
    // progress
    struct State: NonTerminal {
        enum Pending {
            case none
            case increment
            case decrement
        }

        var value: Int = 0
        var pending: Pending = .none
        var isPending: Bool { pending != .none }
    }

    static var initialState: State { State() }

    // Dependencies needed by effects
    struct Env: Sendable {
        init() {
            self.serviceIncrement = {
                try await Task.sleep(for: .seconds(1))
            }
            self.serviceDecrement = {
                try await Task.sleep(for: .seconds(1))
            }
        }
        var serviceIncrement: @Sendable () async throws -> Void
        var serviceDecrement: @Sendable () async throws -> Void
    }

    // Events that trigger state transitions
    enum Event {
        case increment
        case decrement
        case reset
        case incrementReady
        case decrementReady
    }

    // Effect for increment: creates an operation effect
    static func incrementEffect() -> Self.Effect {
        Effect { env, input in
            try await env.serviceIncrement()
            try input.send(.incrementReady)
        }
    }

    // Effect for decrement: creates an operation effect
    static func decrementEffect() -> Self.Effect {
        Effect(id: "decrement") { env, input in
            try await env.serviceDecrement()
            try input.send(.decrementReady)
        }
    }

    // Core state transition logic: a pure function that
    // handles events and returns effects
    static func update(
        _ state: inout State,
        event: Event
    ) -> Self.Effect? {

        switch (state.pending, event) {
        case (.none, .increment):
            state.pending = .increment
            return incrementEffect()
        case (.none, .decrement):
            state.pending = .decrement
            return decrementEffect()
        case (.none, .reset):
            state = State(value: 0, pending: .none)
            return nil
        case (.increment, .incrementReady):
            state.value += 1
            state.pending = .none
            return nil
        case (.decrement, .decrementReady):
            state.value -= 1
            state.pending = .none
            return nil
            // Ignore increment/decrement events during
            // pending operation
        case (_, .increment), (_, .decrement):
            return nil
        case (_, .reset):
            state = State(value: 0, pending: .none)
            return nil
        default:
            return nil
        }
    }
}

// A basic counter transducer that outputs the current count.
enum SimpleCounter: Transducer {

    struct State: NonTerminal {
        var count: Int = 0
    }

    static var initialState: State { State() }

    enum Event {
        case increment
        case decrement
    }

    enum Output {
        case none
        case value(Int)
    }

    static func update(_ state: inout State, event: Event) -> Output {
        switch event {
        case .increment:
            state.count += 1
            return .value(state.count)
        case .decrement:
            state.count -= 1
            return .value(state.count)
        }
    }
}

/// The README's "Core Concepts" snippets, inside a transducer so they have
/// their context.
enum CoreConceptsTransducer: EffectTransducer {
    struct State: Terminable {
        var value: Int = 0
        var isTerminal: Bool { value > 10 }
    }
    enum Event {
        case userTapped
        case incrementReady
        case ready
        case delegate(MyDelegate)
    }
    struct Param {}
    final class MyDelegate: Sendable {
        init(param: Param) {}
    }
    typealias Output = Int

    // `update` comes before the helpers: as in Oak, a bare `Effect` in a
    // member declared before `update` does not yet name `Self.Effect`.
    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        state.value += 1
        return (nil, state.value)
    }

    static func createDelegate(param: Param) -> Effect {
        let delegate = MyDelegate(param: param)
        return .event(.delegate(delegate))
    }

    static func incrementEffect() -> Effect {
        Effect(isolatedOperation: { _, input, _ in
            try await Task.sleep(nanoseconds: 1_000_000_000)
            try input.send(.incrementReady)
        })
    }

    static func globalActorIncrementEffect() -> Effect {
        Effect(operation: { @MyGlobalActor _, input in
            try await Task.sleep(nanoseconds: 1_000_000_000)
            try input.send(.incrementReady)
        })
    }

    static func readyEffect() -> Effect {
        Effect(isolatedOperation: { _, input, _ in
            try await Task.sleep(nanoseconds: 1_000_000_000)
            try input.send(.ready)
        })
    }
}

@globalActor actor MyGlobalActor {
    static let shared = MyGlobalActor()
}

// Used by the "Completion Callbacks" snippet: `MyTransducer.State()`.
enum MyTransducer: Transducer {
    struct State: Terminable {
        var steps = 0
        var isTerminal: Bool { steps >= 3 }
    }
    enum Event { case step }
    typealias Output = Int
    static func update(_ state: inout State, event: Event) -> Int {
        state.steps += 1
        return state.steps
    }
}

// Used by the "Direct Usage in SwiftUI" snippet of ObservableTransducer:
// `CounterTransducer.State()` with `count`, `CounterTransducer.Env()`, and
// the events `.increment` and `.decrement`.
enum CounterTransducer: EffectTransducer {
    struct State: NonTerminal {
        var count = 0
    }
    struct Env: Sendable {}
    enum Event { case increment, decrement }
    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        }
        return nil
    }
}
