// Transducers declared in the spellings Oak code uses. They live in their own
// file, apart from the tests that use them, because Swift infers a
// conformance's associated types differently when the type is first used from
// another file.

import Oak

/// `Self.Effect?` in `update`'s signature and a bare `Effect` in a member
/// declared after `update` (as in Oak, a bare `Effect` is the transducer's
/// effect type there).
enum BareEffect: EffectTransducer {
    enum State: Terminable {
        case idle
        case loading
        case loaded(Int)

        var isTerminal: Bool {
            if case .loaded = self { true } else { false }
        }
    }

    enum Event {
        case load
        case loaded(Int)
    }

    struct Env: Sendable {
        var value: Int
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch (state, event) {
        case (.idle, .load):
            state = .loading
            return loadEffect()
        case (.loading, .loaded(let value)):
            state = .loaded(value)
            return nil
        default:
            return nil
        }
    }

    static func loadEffect() -> Effect {
        Effect(id: "load") { env, input in
            try input.send(.loaded(env.value))
        }
    }
}

/// `Self.Effect` in a tuple with an output.
enum SelfEffect: EffectTransducer {
    enum State: Terminable {
        case counting(Int)
        case done(Int)

        var isTerminal: Bool {
            if case .done = self { true } else { false }
        }
    }

    enum Event {
        case add(Int)
        case addTwiceThenStop(Int)
        case stop
    }

    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
        switch (state, event) {
        case (.counting(let count), .add(let amount)):
            state = .counting(count + amount)
            return (nil, count + amount)
        case (.counting(let count), .addTwiceThenStop(let amount)):
            return (.sequence(.event(.add(amount)), .event(.add(amount)), .event(.stop)), count)
        case (.counting(let count), .stop):
            state = .done(count)
            return (nil, count)
        case (.done(let count), _):
            return (nil, count)
        }
    }
}

/// Declares `typealias Effect = Oak.Effect<Self>`, as much Oak code does.
enum DeclaredEffect: EffectTransducer {
    enum State: Terminable {
        case start
        case finished

        var isTerminal: Bool { self == .finished }
    }

    enum Event {
        case start
        case finish
    }

    struct Env {}

    typealias Effect = Oak.Effect<Self>
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Effect?, Int) {
        switch (event, state) {
        case (.start, .start):
            return (effect(), 0)
        case (.finish, .start):
            state = .finished
            return (nil, 1)
        default:
            return (nil, -1)
        }
    }

    static func effect() -> Effect {
        Effect(isolatedAction: { env, isolated in
            isolated.assertIsolated()
            return .finish
        })
    }
}

/// `Oak.Effect<Self>` written in signatures.
enum QualifiedEffect: EffectTransducer {
    struct State: NonTerminal {
        var log: [String] = []
    }

    enum Event {
        case ping
        case pong
    }

    static func update(_ state: inout State, event: Event) -> Oak.Effect<Self>? {
        switch event {
        case .ping:
            state.log.append("ping")
            return pong()
        case .pong:
            state.log.append("pong")
            return nil
        }
    }

    static func pong() -> Oak.Effect<QualifiedEffect> {
        .event(.pong)
    }
}

/// A Moore machine: it has an output before the first event.
enum Thermostat: Transducer {
    struct State: Terminable {
        var target: Int
        var isOff = false
        var isTerminal: Bool { isOff }
    }

    enum Event {
        case set(Int)
        case off
    }

    typealias Output = Int

    static func initialOutput(initialState: State) -> Int? {
        initialState.target
    }

    static func update(_ state: inout State, event: Event) -> Int {
        switch event {
        case .set(let target):
            state.target = target
        case .off:
            state.isOff = true
        }
        return state.target
    }
}

/// A pure transducer with a `Void` output.
enum Toggle: Transducer {
    struct State: Terminable {
        var isOn = false
        var isTerminal = false
    }

    enum Event {
        case toggle
        case stop
    }

    static func update(_ state: inout State, event: Event) {
        switch event {
        case .toggle: state.isOn.toggle()
        case .stop: state.isTerminal = true
        }
    }
}

/// Names Oak's generic `Effect<T>` directly, as Oak's own tests do.
enum GenericEffect: EffectTransducer {
    enum State: Terminable {
        case running(Int)
        case done(Int)

        var isTerminal: Bool {
            if case .done = self { true } else { false }
        }
    }

    enum Event {
        case ping
        case stop
    }

    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Effect<Self>?, Output) {
        switch (state, event) {
        case (.running(let count), .ping):
            state = .running(count + 1)
            return (count == 0 ? .pingAgain : nil, count + 1)
        case (.running(let count), .stop):
            state = .done(count)
            return (nil, count)
        case (.done(let count), _):
            return (nil, count)
        }
    }
}

/// Named effects of a transducer, as an extension of Oak's generic type.
extension Effect where T == GenericEffect {
    static var pingAgain: Self { .event(.ping) }
}

/// A free function that returns an effect of a given transducer.
func stopEffect() -> Effect<GenericEffect> {
    .event(.stop)
}
