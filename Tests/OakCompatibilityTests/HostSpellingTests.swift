// `ObservableTransducer` as Oak code creates it: the transducer as the generic
// argument (no `of:`), `proxy: nil`, `completion:` as a `Completion` value
// (`Completion { … }`, `.init { … }`), the member typealiases, and what
// releasing the host does. (The README's `completion: { _ in }` closure form,
// which Oak 0.34 itself does not accept, is in ReadmeSnippetTests.swift.)

import Oak
import Testing

/// A non-terminating effect transducer whose operation waits until it is
/// cancelled.
enum Waiter: EffectTransducer {
    struct State: NonTerminal {
        var started = false
    }

    enum Event {
        case start
    }

    struct Env: Sendable {
        var cancelled: Latch
        var started: Latch
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        state.started = true
        return Effect(id: "wait") { env, _ in
            await env.started.open()
            do {
                while true { try await Task.sleep(for: .seconds(3600)) }
            } catch {
                await env.cancelled.open()
                throw error
            }
        }
    }
}

@Suite("Oak spellings: ObservableTransducer")
@MainActor
struct HostSpellingTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theTransducerIsTheGenericArgument() async throws {
        typealias Host = ObservableTransducer<SelfEffect>
        #expect(Host.Output.self == Int.self)
        #expect(Host.Env.self == Void.self)
        #expect(Host.State.self == SelfEffect.State.self)
        #expect(Host.Event.self == SelfEffect.Event.self)
        #expect(Host.Proxy.self == SelfEffect.Proxy.self)
        #expect(Host.Input.self == SelfEffect.Input.self)

        let results = Collector<Int>()
        let host = ObservableTransducer<SelfEffect>(
            initialState: .counting(0),
            proxy: nil,
            env: Void(),
            output: NoCallback(),
            completion: .init { result in
                if case .success(let value) = result { Task { await results.append(value) } }
            })
        try host.proxy.send(.add(3))
        try host.proxy.send(.stop)
        #expect(await results.wait(for: 1) == [3])
        #expect(!host.isRunning)
        if case .done(let count) = host.state { #expect(count == 3) } else { Issue.record("\(host.state)") }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func completionIsANestedType() async throws {
        typealias Completion = ObservableTransducer<SimpleCounter>.Completion
        let ended = Latch()
        let completion = Completion { result in
            if case .failure(let error) = result, error as? TransducerError == .cancelled {
                Task { await ended.open() }
            }
        }
        let host = ObservableTransducer<SimpleCounter>(initialState: SimpleCounter.initialState, completion: completion)
        try host.proxy.send(.increment)
        host.cancel()
        await ended.wait()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasingTheHostCancelsItsTask() async throws {
        let env = Waiter.Env(cancelled: Latch(), started: Latch())
        let failures = Collector<String>()
        var host: ObservableTransducer<Waiter>? = ObservableTransducer<Waiter>(
            initialState: Waiter.State(), env: env,
            completion: Completion { result in
                if case .failure(let error) = result {
                    let name = error is CancellationError ? "CancellationError" : "\(error)"
                    Task { await failures.append(name) }
                }
            })
        try host?.proxy.send(.start)
        await env.started.wait()
        host = nil
        await env.cancelled.wait()
        #expect(await failures.wait(for: 1) == ["CancellationError"])
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
typealias Completion = ObservableTransducer<Waiter>.Completion
