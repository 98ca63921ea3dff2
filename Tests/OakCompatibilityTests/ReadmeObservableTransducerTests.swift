import Oak
import Testing

/// The README's "ObservableTransducer / Direct Usage in SwiftUI" example,
/// without SwiftUI: the host is created and driven with the README's own
/// lines. (The SwiftUI view around them is type-checked by
/// Tools/SwiftUICheck.)
@Suite("README ObservableTransducer host example", .timeLimit(.minutes(1)))
@MainActor
struct ReadmeObservableTransducerHostTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func runsAsWritten() async throws {
        let counter = ObservableTransducer(
            of: CounterTransducer.self,
            initialState: CounterTransducer.State(),
            env: CounterTransducer.Env()
        )
        #expect("Count: \(counter.state.count)" == "Count: 0")

        try await stateChange(of: counter) {
            try? counter.proxy.send(.increment)
        }
        #expect("Count: \(counter.state.count)" == "Count: 1")

        try await stateChange(of: counter) {
            try? counter.proxy.send(.increment)
        }
        try await stateChange(of: counter) {
            try? counter.proxy.send(.decrement)
        }
        #expect("Count: \(counter.state.count)" == "Count: 1")
        #expect(counter.isRunning)
        counter.cancel()
    }
}

/// The README's advanced example, `EffectCounter`, hosted the way its SwiftUI
/// sample hosts it, with instant services.
@Suite("README EffectCounter example", .timeLimit(.minutes(1)))
@MainActor
struct ReadmeEffectCounterTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func incrementsAndDecrementsThroughItsOperations() async throws {
        // The services wait for the test to let them answer, so that the
        // pending state is observed before the answer arrives.
        let incrementAnswers = Latch()
        let decrementAnswers = Latch()
        var env = EffectCounter.Env()
        env.serviceIncrement = { await incrementAnswers.wait() }
        env.serviceDecrement = { await decrementAnswers.wait() }
        let counter = ObservableTransducer(
            of: EffectCounter.self,
            initialState: EffectCounter.initialState,
            env: env
        )
        // `.increment` starts the operation; its `.incrementReady` updates.
        try await stateChange(of: counter) { try counter.proxy.send(.increment) }
        #expect(counter.state.isPending)
        try await stateChange(of: counter) { Task { await incrementAnswers.open() } }
        #expect(!counter.state.isPending)
        #expect(counter.state.value == 1)

        try await stateChange(of: counter) { try counter.proxy.send(.decrement) }
        #expect(counter.state.isPending)
        try await stateChange(of: counter) { Task { await decrementAnswers.open() } }
        #expect(!counter.state.isPending)
        #expect(counter.state.value == 0)

        try await stateChange(of: counter) { try counter.proxy.send(.reset) }
        #expect(counter.state.value == 0)
        counter.cancel()
    }
}
