// The code samples of Sources/Oak/Oak.docc/GettingStarted.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippets as written, plus checks. Keep the two in
// step: change a sample here, change it in the article.

import Clocks
import Foundation
import Oak
import Synchronization
import Testing

enum DocGettingStarted {
    enum Counter: Transducer {
        enum State: Terminable {
            case counting(Int)
            case finished(Int)

            var isTerminal: Bool {
                if case .finished = self { true } else { false }
            }
        }

        enum Event {
            case increment
            case decrement
            case stop
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> Int {
            switch (state, event) {
            case (.counting(let count), .increment):
                state = .counting(count + 1)
                return count + 1
            case (.counting(let count), .decrement):
                state = .counting(count - 1)
                return count - 1
            case (.counting(let count), .stop):
                state = .finished(count)
                return count
            case (.finished(let count), _):
                return count
            }
        }
    }

    enum Greeter: EffectTransducer {
        enum State: Terminable {
            case idle
            case loading(userID: Int)
            case greeted(String)

            var isTerminal: Bool {
                if case .greeted = self { true } else { false }
            }
        }

        enum Event {
            case start(userID: Int)
            case didLoadName(String)
        }

        struct Env: Sendable {
            var loadName: @Sendable (_ userID: Int) async throws -> String
        }

        typealias Output = String

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch (state, event) {
            case (.idle, .start(let userID)):
                state = .loading(userID: userID)
                let effect = Effect(id: "loadName") { env, input in
                    let name = try await env.loadName(userID)
                    try input.send(.didLoadName(name))
                }
                return (effect, "Loading user \(userID)…")
            case (.loading, .didLoadName(let name)):
                let greeting = "Hello, \(name)!"
                state = .greeted(greeting)
                return (nil, greeting)
            default:
                return (nil, "")
            }
        }
    }

    @Suite("Documentation: Getting started")
    struct GettingStartedDocumentationTests {
        @Test func updateIsAPureFunction() {
            var state = Counter.State.counting(0)
            let output = Counter.update(&state, event: .increment)
            // output == 1, state == .counting(1)
            #expect(output == 1)
            guard case .counting(1) = state else {
                Issue.record("unexpected state \(state)")
                return
            }
        }

        @Test func runWithAProxy() async throws {
            let proxy = Counter.Proxy()

            let run = Task {
                try await Counter.run(initialState: .counting(0), proxy: proxy, output: NoCallback())
            }

            try proxy.send(.increment)
            try proxy.send(.increment)
            try proxy.send(.stop)

            let finalCount = try await run.value  // 2
            #expect(finalCount == 2)
        }

        @Test func readOutputsWithACallback() async throws {
            let (counts, continuation) = AsyncStream.makeStream(of: Int.self)
            let proxy = Counter.Proxy()

            Task {
                defer { continuation.finish() }
                try await Counter.run(
                    initialState: .counting(0),
                    proxy: proxy,
                    output: Callback { count in continuation.yield(count) }
                )
            }

            try proxy.send(.increment)
            try proxy.send(.increment)
            try proxy.send(.decrement)
            try proxy.send(.stop)

            var seen: [Int] = []
            for await count in counts {
                seen.append(count)
            }
            // seen == [1, 2, 1, 1]
            #expect(seen == [1, 2, 1, 1])
        }

        @Test func runAnEffectTransducer() async throws {
            let env = Greeter.Env(loadName: { userID in "User \(userID)" })
            let proxy = Greeter.Proxy(initialEvent: .start(userID: 42))

            let greeting = try await Greeter.run(initialState: .idle, proxy: proxy, env: env)
            // greeting == "Hello, User 42!"
            #expect(greeting == "Hello, User 42!")
        }

        @Test func greeterOutputsEveryStep() async throws {
            let outputs = Recorder<String>()
            let env = Greeter.Env(loadName: { _ in "Ada" })
            let proxy = Greeter.Proxy(initialEvent: .start(userID: 1))

            try await Greeter.run(
                initialState: .idle,
                proxy: proxy,
                env: env,
                output: Callback { outputs.append($0) }
            )
            #expect(outputs.values == ["Loading user 1…", "Hello, Ada!"])
        }
    }
}
