// This target is compiled as a new Xcode 26 app target is: default isolation
// `MainActor`, isolated conformances inferred, nonisolated async functions run
// on the caller's actor (see Package.swift). Every type declared here is
// main-actor isolated, and so is its conformance to `EffectTransducer`: the
// runtime must run such transducers without using the conformance off the
// main actor.

import Oak
import Observation
import Testing

/// A feature as an app module declares it: nothing marked, so everything is
/// on the main actor.
enum Downloader: EffectTransducer {
    enum State: Terminable, Equatable {
        case idle
        case loading
        case loaded(String)
        case closed

        var isTerminal: Bool {
            if case .closed = self { true } else { false }
        }
    }

    enum Event {
        case load
        case didLoad(String)
        case close
    }

    struct Env {
        var fetch: @Sendable () async throws -> String
    }

    typealias Output = String?

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch (state, event) {
        case (.idle, .load):
            state = .loading
            return (load(), nil)
        case (.loading, .didLoad(let text)):
            state = .loaded(text)
            return (nil, text)
        case (_, .close):
            state = .closed
            return (nil, nil)
        default:
            return (nil, nil)
        }
    }

    static func load() -> Effect {
        Effect(id: "load") { env, input in
            let text = try await env.fetch()
            try input.send(.didLoad(text))
        }
    }
}

/// A class environment, which the module's default isolation puts on the
/// main actor.
enum Tally: EffectTransducer {
    final class Env {
        var total = 0
    }

    struct State: NonTerminal {
        var count = 0
    }

    enum Event {
        case add(Int)
        case added(Int)
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .add(let amount):
            // The environment is a main-actor class here, and so `Sendable`:
            // an action on the main actor may use it.
            return Effect(action: { @MainActor env in
                env.total += amount
                return .added(env.total)
            })
        case .added(let total):
            state.count = total
            return nil
        }
    }
}

@Suite("A module whose default isolation is the main actor")
struct MainActorDefaultTests {
    @Test func anOperationOfAMainActorTransducerReportsBack() async throws {
        let proxy = Downloader.Proxy()
        var outputs: [String] = []
        try proxy.send(.load)
        let task = Task {
            try await Downloader.run(
                initialState: .idle, proxy: proxy, env: Downloader.Env(fetch: { "page" }),
                output: Callback { output in
                    guard let output else { return }
                    outputs.append(output)
                    try? proxy.send(.close)
                })
        }
        let last = try await task.value
        #expect(last == nil)
        #expect(outputs == ["page"])
    }

    @Test func mainActorActionsUseAClassEnvironment() async throws {
        let proxy = Tally.Proxy()
        let env = Tally.Env()
        try proxy.send(.add(2))
        try proxy.send(.add(3))
        proxy.finish()
        // `finish()` ends the run once the buffer has drained; an
        // `Effect?`-only transducer returns normally then.
        try await Tally.run(initialState: Tally.State(), proxy: proxy, env: env)
        #expect(env.total == 5)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anObservableHostRunsAMainActorTransducer() async throws {
        let host = ObservableTransducer<Downloader>(
            initialState: .idle, env: Downloader.Env(fetch: { "hosted" }))
        try await stateChanges(of: host, until: { if case .loaded = $0 { true } else { false } }) {
            try host.proxy.send(.load)
        }
        #expect(host.state == .loaded("hosted"))
        host.cancel()
    }
}

/// Runs `action`, then returns once `host.state` satisfies `condition`, as an
/// app observes it (Observation); no polling.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
func stateChanges<T>(
    of host: ObservableTransducer<T>, until condition: (T.State) -> Bool, after action: () throws -> Void
) async throws {
    try action()
    while !condition(host.state) {
        await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = host.state
            } onChange: {
                continuation.resume()
            }
        }
    }
}
