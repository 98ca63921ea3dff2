// `ObservableTransducer` as Oak code creates it: the transducer as the generic
// argument (no `of:`), `proxy: nil`, `completion:` as a `Completion` value
// (`Completion { … }`, `.init { … }`) or as a closure, the member
// typealiases, and what releasing the host does.

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

    static func update(_ state: inout State, event: Event) -> Effect? {
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
    @Test func theReadmeWritesOfAndAClosure() async throws {
        let outputs = Collector<Int>()
        let counter = ObservableTransducer(
            of: SimpleCounter.self,
            initialState: SimpleCounter.State(),
            output: Callback { output in
                if case .value(let count) = output { await outputs.append(count) }
            },
            completion: { _ in }
        )
        try counter.proxy.send(.increment)
        try counter.proxy.send(.increment)
        #expect(await outputs.wait(for: 2) == [1, 2])
        #expect(counter.state.count == 2)
        counter.cancel()
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
