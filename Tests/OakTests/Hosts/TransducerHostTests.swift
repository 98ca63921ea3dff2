import Clocks
import Oak
import Testing

/// A storage that reports every state the run writes.
final class RecordingStorage<Value: Sendable>: Storage {
    let written = Recorder<Value>()
    let writes = HostSignal()

    var value: Value {
        didSet {
            written.append(value)
            writes.fire()
        }
    }

    init(_ value: Value) {
        self.value = value
    }
}

/// A transducer actor around ``HostProbe``, as a server session would be.
actor ProbeSession: TransducerHost {
    typealias Hosted = HostProbe

    let storage = RecordingStorage(HostProbe.State())
    nonisolated let proxy = HostProbe.Proxy()
    nonisolated let writes: HostSignal

    init() {
        writes = storage.writes
    }

    var counts: [Int] { storage.written.values.map(\.count) }
}

/// A transducer actor around the pure ``HostTally``.
actor TallySession: TransducerHost {
    typealias Hosted = HostTally

    let storage = RecordingStorage(HostTally.State())
    nonisolated let proxy = HostTally.Proxy()

    var counts: [Int] { storage.written.values.map(\.count) }
}

@Suite("TransducerHost", .timeLimit(.minutes(1)))
struct TransducerHostTests {
    @Test func runsAgainstTheStateTheActorOwns() async throws {
        let session = TallySession()
        let run = Task { try await session.run() }

        try session.send(.add(2))
        try session.send(.add(5))
        try session.send(.stop)

        #expect(try await run.value == 7)
        #expect(await session.state.count == 7)
        #expect(await session.counts == [2, 7, 7])
    }

    @Test func outputsAreDeliveredToTheSubject() async throws {
        let session = TallySession()
        let outputs = Recorder<Int>()
        try session.send(.add(1))
        try session.send(.add(1))
        try session.send(.stop)

        let last = try await session.run(output: Callback { outputs.append($0) })

        #expect(last == 2)
        #expect(outputs.values == [1, 2, 2])
    }

    @Test func cancelEndsTheRunAndCancelsEveryOperation() async throws {
        let session = ProbeSession()
        let env = HostProbe.env()
        let run = Task { try await session.run(env: env) }
        try session.send(.startWork)
        await env.effects.waitUntilStarted()

        session.cancel()
        session.cancel()

        await #expect(throws: TransducerError.cancelled) { try await run.value }
        #expect(env.effects.all == [.started, .cancelled])
        session.cancel()
    }

    @Test func cancellingTheAwaitingTaskEndsTheRunWithCancellationError() async throws {
        let session = ProbeSession()
        let env = HostProbe.env()
        let run = Task { try await session.run(env: env) }
        try session.send(.startWork)
        await env.effects.waitUntilStarted()

        run.cancel()

        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(env.effects.all == [.started, .cancelled])
    }

    @Test func effectsReportBackAndTheActorSeesEveryState() async throws {
        let clock = TestClock()
        let env = HostProbe.env(clock: clock)
        let session = ProbeSession()
        let run = Task { try await session.run(env: env) }
        try session.send(.increment)
        try session.send(.startWork)
        await env.effects.waitUntilStarted()

        await clock.advance(by: .seconds(10))
        await session.writes.wait(untilFired: 3)
        try session.send(.finish)

        #expect(try await run.value == 11)
        #expect(await session.counts == [1, 1, 11, 11])
    }

    @Test func completionIsCalledOnceForEachEnding() async throws {
        // Terminal state.
        let finished = ProbeSession()
        try finished.send(.increment)
        try finished.send(.finish)
        let success = CompletionBox()
        await finished.run(env: HostProbe.env()) { success.record($0) }
        #expect(success.calls == 1)
        #expect(try success.result?.get() == 1)

        // Cancellation.
        let cancelled = ProbeSession()
        cancelled.cancel()
        let cancellation = CompletionBox()
        await cancelled.run(env: HostProbe.env()) { cancellation.record($0) }
        #expect(cancellation.calls == 1)
        #expect(cancellation.error as? TransducerError == .cancelled)

        // Failure.
        let failing = ProbeSession()
        try failing.send(.fail)
        let failure = CompletionBox()
        await failing.run(env: HostProbe.env()) { failure.record($0) }
        #expect(failure.calls == 1)
        #expect(failure.error is HostBoom)

        // A pure transducer.
        let tally = TallySession()
        try tally.send(.add(4))
        try tally.send(.stop)
        let pure = CompletionBox()
        await tally.run { pure.record($0) }
        #expect(try pure.result?.get() == 4)
    }

    @Test func sendingToAFinishedHostThrowsTerminated() async throws {
        let session = TallySession()
        try session.send(.stop)
        try await session.run()

        #expect(throws: TransducerError.terminated) { try session.send(.add(1)) }
        #expect(throws: TransducerError.terminated) { try session.input.send(.add(1)) }
        session.cancel()
    }

    @Test func runningTwiceThrowsProxyAlreadyInUse() async throws {
        let session = TallySession()
        try session.send(.stop)
        try await session.run()

        await #expect(throws: TransducerError.proxyAlreadyInUse) { try await session.run() }
    }
}

/// Records the calls of a completion callback made on an actor.
final class CompletionBox: Sendable {
    private let results = Recorder<Result<Int, any Error>>()

    func record(_ result: Result<Int, any Error>) {
        results.append(result)
    }

    var calls: Int { results.values.count }
    var result: Result<Int, any Error>? { results.values.first }
    var error: (any Error)? {
        if case .failure(let error) = results.values.first { return error }
        return nil
    }
}
