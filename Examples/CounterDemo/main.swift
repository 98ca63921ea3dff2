// A small terminal counter: the main program until the Comics app exists.
//
// Reads commands from standard input, one per line:
//   +  increment        -  decrement        0  reset
//   d  increment after one second (an operation effect with an id)
//   c  cancel the delayed increment          q  quit (a terminal state)
// End of input quits as well.

import Oak

enum Counter: EffectTransducer {
    enum State: Terminable {
        case counting(Int)
        case finished(Int)

        var isTerminal: Bool {
            if case .finished = self { true } else { false }
        }

        var count: Int {
            switch self {
            case .counting(let count), .finished(let count): count
            }
        }
    }

    enum Event: Sendable {
        case increment, decrement, reset
        case incrementLater, cancelLater
        case quit
    }

    struct Env: Sendable {
        var delay: Duration = .seconds(1)
    }

    typealias Output = String

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        guard case .counting(let count) = state else { return (nil, "finished") }
        switch event {
        case .increment:
            state = .counting(count + 1)
        case .decrement:
            state = .counting(count - 1)
        case .reset:
            state = .counting(0)
        case .incrementLater:
            return (
                Effect(id: "later") { env, input in
                    try await Task.sleep(for: env.delay)
                    try input.send(.increment)
                },
                "count: \(count) (increment in one second)"
            )
        case .cancelLater:
            return (.cancelTask("later"), "count: \(count) (delayed increment cancelled)")
        case .quit:
            state = .finished(count)
            return (nil, "final count: \(count)")
        }
        return (nil, "count: \(state.count)")
    }
}

/// Maps a line of input to an event; `nil` for an unknown command.
func event(for line: String) -> Counter.Event? {
    switch line.filter({ !$0.isWhitespace }) {
    case "+": .increment
    case "-": .decrement
    case "0": .reset
    case "d": .incrementLater
    case "c": .cancelLater
    case "q": .quit
    default: nil
    }
}

let proxy = Counter.Proxy()
let input = proxy.input

print("Oak counter. Commands: + - 0 (reset) d (increment in 1 s) c (cancel it) q (quit)")

// readLine blocks, so read on a thread of its own and send events to the run.
Task.detached {
    while let line = readLine() {
        guard let event = event(for: line) else {
            print("unknown command: \(line.prefix(20).filter { $0.isASCII && !$0.isNewline })")
            continue
        }
        do { try input.send(event) } catch { break }
        if case .quit = event { return }
    }
    try? input.send(.quit)
}

do {
    let last = try await Counter.run(
        initialState: .counting(0),
        proxy: proxy,
        env: Counter.Env(),
        output: Callback { print($0) }
    )
    _ = last
} catch {
    print("The counter stopped: \(error)")
}
