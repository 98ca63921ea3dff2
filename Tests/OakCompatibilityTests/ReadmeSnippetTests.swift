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
