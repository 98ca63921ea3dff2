// Transducers declared in one file and used from another (Uses.swift). This
// target has exactly these two files so that, with two or more build jobs,
// each is type-checked in its own compiler job: the other file's
// conformances are then resolved lazily, as in any app with one transducer
// per file. A default of `Proxy` on `BaseTransducer` made the Swift 6.3
// compiler, asked for `Count.Proxy` first, take `Output`'s default (`Void`)
// too (decision 0018).

import Oak

/// A pure transducer whose output, `Int`, is inferred from `update`.
enum Count: Transducer {
    struct State: Terminable {
        var value = 0
        var isTerminal: Bool { value >= 2 }
    }

    enum Event { case step }

    static func update(_ state: inout State, event: Event) -> Int {
        state.value += 1
        return state.value
    }
}

/// An effect transducer with a declared output.
enum Label: EffectTransducer {
    struct State: Terminable {
        var done = false
        var isTerminal: Bool { done }
    }

    enum Event { case finish }

    typealias Output = String

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        state.done = true
        return (nil, "done")
    }
}

/// A pure transducer without output.
enum Flag: Transducer {
    struct State: NonTerminal {
        var isOn = false
    }

    enum Event { case toggle }

    static func update(_ state: inout State, event: Event) {
        state.isOn.toggle()
    }
}
