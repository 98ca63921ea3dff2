// swift-format-ignore-file
// The transducers the README's SwiftUI snippets use. `SimpleCounter` is the
// README's "Define Your Transducer" code, verbatim; the README names
// `MyTransducer` and `CounterTransducer` without defining them, so they are
// defined here as the snippets need them. Symlinked into each snippet target.
import Oak

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
