// The README's snippets, run as the README writes them. Three of its forms
// are a superset of what Oak 0.34 itself compiles (a `run` from a
// nonisolated task, an `EffectTransducer.run` without `env:` when `Env` is
// `Void`, and a closure as a host's `completion:`); we accept them so the
// README stays true. Every other file of this target also compiles against
// Oak 0.34 unchanged.

import Oak
import Testing

@Suite("README snippets run as written")
struct ReadmeSnippetTests {
    @Test func quickStartRunsAndSendsEvents() async throws {
        let proxy = SimpleCounter.Proxy()

        let task = Task {
            try await SimpleCounter.run(
                initialState: SimpleCounter.initialState,
                proxy: proxy
            )
        }

        // Send events
        try proxy.send(.increment)
        try proxy.send(.decrement)

        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await task.value }
    }

    @Test func subjectSnippetReceivesOutputs() async throws {
        let received = Collector<Int>()
        let output = Callback<Int> { value in
            await received.append(value)
        }
        let proxy = CoreConceptsTransducer.Proxy(bufferSize: 16)
        for _ in 0..<11 { try proxy.send(.userTapped) }
        let state = CoreConceptsTransducer.State()
        let last = try await CoreConceptsTransducer.run(
            initialState: state,
            proxy: proxy,
            output: output
        )
        #expect(last == 11)
        #expect(await received.values == Array(1...11))
    }
}

/// The README's host form: `of:` and a closure as `completion:`. Oak 0.34
/// declares `completion` as `Completion?` and rejects the closure; we accept
/// both, so the README compiles as written.
@Suite("README host snippet runs as written")
@MainActor
struct ReadmeHostSnippetTests {
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
}
