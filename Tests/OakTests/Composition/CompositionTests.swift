import Oak
import Testing

/// Upstream: turns each number it receives into its square, and ends on 0.
private enum Squarer: Transducer {
    struct State: Terminable {
        var isTerminal = false
    }
    static func update(_ state: inout State, event: Int) -> Int {
        if event == 0 { state.isTerminal = true }
        return event * event
    }
}

/// Downstream, buffered: sums what it receives; ends when it receives 0.
private enum Summer: Transducer {
    struct State: Terminable {
        var sum = 0
        var isTerminal = false
    }
    static func update(_ state: inout State, event: Int) -> Int {
        state.sum += event
        if event == 0 { state.isTerminal = true }
        return state.sum
    }
}

/// Downstream with back pressure.
private enum SlowSummer: Transducer {
    typealias Proxy = SyncSuspendingProxy<Int>
    struct State: Terminable {
        var sum = 0
        var isTerminal = false
    }
    static func update(_ state: inout State, event: Int) -> Int {
        state.sum += event
        if event == 0 { state.isTerminal = true }
        return state.sum
    }
}

@Suite("Composition: one transducer's outputs are another's events")
struct CompositionTests {
    @Test("a Proxy's input is a Subject: outputs are piped in order")
    func pipeIntoABufferedProxy() async throws {
        let summer = Summer.Proxy()
        let downstream = Task { try await Summer.run(initialState: .init(), proxy: summer, output: NoCallback()) }
        let squarer = Squarer.Proxy()
        for value in [1, 2, 3, 0] { try squarer.send(value) }
        let last = try await Squarer.run(initialState: .init(), proxy: squarer, output: summer.input)
        #expect(last == 0)
        #expect(try await downstream.value == 14)
    }

    @Test("a SyncSuspendingProxy's input is a Subject with back pressure")
    func pipeWithBackPressure() async throws {
        let sink = SlowSummer.Proxy(bufferSize: 1)
        let downstream = Task { try await SlowSummer.run(initialState: .init(), proxy: sink, output: NoCallback()) }
        let squarer = Squarer.Proxy()
        for value in [4, 5, 0] { try squarer.send(value) }
        // With a buffer of one and a suspending send, no output can be rejected:
        // each delivery waits until the previous one was processed.
        _ = try await Squarer.run(initialState: .init(), proxy: squarer, output: sink.input)
        #expect(try await downstream.value == 41)
    }

    @Test("an upstream run fails with terminated when the downstream run has ended")
    func downstreamEnded() async throws {
        let summer = Summer.Proxy()
        try summer.send(0)
        _ = try await Summer.run(initialState: .init(), proxy: summer)
        let squarer = Squarer.Proxy()
        try squarer.send(3)
        await #expect(throws: TransducerError.terminated) {
            try await Squarer.run(initialState: .init(), proxy: squarer, output: summer.input)
        }
    }
}
