import Clocks
import Oak
import Observation
import Testing

@Suite("ObservableTransducer host", .timeLimit(.minutes(1)))
@MainActor
struct ObservableTransducerHostTests {
    // MARK: Start

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func startsOnCreation() async throws {
        let host = ObservableTransducer(of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env())

        #expect(host.isRunning)
        try await stateChange(of: host) { try host.send(.increment) }
        #expect(host.state.count == 1)
        host.cancel()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func inputAndProxySendToTheSameRun() async throws {
        let host = ObservableTransducer(of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env())

        try await stateChange(of: host) { try host.input.send(.increment) }
        try await stateChange(of: host) { try host.proxy.send(.increment) }
        #expect(host.state.count == 2)
        host.cancel()
    }

    // MARK: Observation

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observationFiresOnEveryStateChange() async throws {
        let host = ObservableTransducer(of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env())
        var seen: [Int] = []

        for _ in 1...5 {
            try await stateChange(of: host) { try host.send(.increment) }
            seen.append(host.state.count)
        }
        #expect(seen == [1, 2, 3, 4, 5])
        host.cancel()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observationReportsTheEndOfTheRun() async throws {
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env(),
            completion: completions.callback)
        let ended = HostSignal()
        withObservationTracking {
            _ = host.isRunning
        } onChange: {
            ended.fire()
        }

        host.cancel()
        await ended.wait(untilFired: 1)
        _ = await completions.first()
        #expect(!host.isRunning)
    }

    // MARK: Stop: cancel

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancelStopsTheRunAndCancelsEveryOperation() async throws {
        let env = HostProbe.env()
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: env, completion: completions.callback)
        try host.send(.startWork)
        await env.effects.waitUntilStarted()

        host.cancel()

        let error = await completions.firstError()
        #expect(error as? TransducerError == .cancelled)
        #expect(env.effects.all == [.started, .cancelled])
        #expect(!host.isRunning)
        #expect(completions.results.count == 1)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancellingTwiceIsHarmless() async throws {
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env(),
            completion: completions.callback)

        host.cancel()
        host.cancel()
        let error = await completions.firstError()
        host.cancel()
        host.proxy.cancel()

        #expect(error as? TransducerError == .cancelled)
        #expect(completions.results.count == 1)
    }

    // MARK: Stop: terminal state

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func terminalStateStopsTheRunAndCancelsEveryOperation() async throws {
        let env = HostProbe.env()
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: env, completion: completions.callback)
        try host.send(.increment)
        try host.send(.startWork)
        await env.effects.waitUntilStarted()

        try host.send(.finish)

        let result = await completions.first()
        #expect(try result.get() == 1)
        #expect(env.effects.all == [.started, .cancelled])
        #expect(host.state.isTerminal)
        #expect(!host.isRunning)
        #expect(completions.results.count == 1)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func operationsReportBackThroughTheClock() async throws {
        let clock = TestClock()
        let env = HostProbe.env(clock: clock)
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: env, completion: completions.callback)
        try host.send(.startWork)
        await env.effects.waitUntilStarted()

        try await stateChange(of: host) {
            Task { await clock.advance(by: .seconds(10)) }
        }
        #expect(host.state.count == 10)
        try host.send(.finish)

        #expect(try await completions.first().get() == 10)
        #expect(env.effects.all == [.started])
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func terminalInitialStateEndsTheRunAtOnce() async throws {
        let terminal = CompletionLog<Int>()
        let ended = ObservableTransducer(
            of: HostTally.self, initialState: HostTally.State(count: 3, isStopped: true),
            completion: terminal.callback)

        // A terminal initial state produces no output: Output is Int here.
        #expect(await terminal.firstError() as? TransducerError == .noOutputProduced)
        #expect(!ended.isRunning)
        #expect(ended.state.count == 3)
    }

    // MARK: Stop: failure

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func failingOperationEndsTheRunWithItsError() async throws {
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env(),
            completion: completions.callback)

        try host.send(.fail)

        #expect(await completions.firstError() is HostBoom)
        #expect(!host.isRunning)
        #expect(completions.results.count == 1)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func proxyUsedByAnotherRunEndsTheRunWithProxyAlreadyInUse() async throws {
        let proxy = HostTally.Proxy()
        let first = CompletionLog<Int>()
        let firstHost = ObservableTransducer(
            of: HostTally.self, initialState: HostTally.State(), proxy: proxy, completion: first.callback)
        try firstHost.send(.stop)
        _ = await first.first()

        let second = CompletionLog<Int>()
        let secondHost = ObservableTransducer(
            of: HostTally.self, initialState: HostTally.State(), proxy: proxy, completion: second.callback)

        #expect(await second.firstError() as? TransducerError == .proxyAlreadyInUse)
        #expect(!secondHost.isRunning)
    }

    // MARK: Stop: release

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasingTheHostStopsTheRunAndCancelsEveryOperation() async throws {
        let env = HostProbe.env()
        let completions = CompletionLog<Int>()
        var host: ObservableTransducer<HostProbe>? = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: env, completion: completions.callback)
        weak let released = host
        try host?.send(.startWork)
        await env.effects.waitUntilStarted()

        host = nil

        #expect(released == nil)
        // Releasing cancels the run's task, as in Oak: CancellationError.
        let error = await completions.firstError()
        #expect(error is CancellationError)
        #expect(env.effects.all == [.started, .cancelled])
        #expect(completions.results.count == 1)
    }

    // MARK: Misuse

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func sendingToAFinishedHostThrowsTerminated() async throws {
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostProbe.self, initialState: HostProbe.State(), env: HostProbe.env(),
            completion: completions.callback)
        try host.send(.finish)
        _ = await completions.first()

        #expect(throws: TransducerError.terminated) { try host.send(.increment) }
        #expect(throws: TransducerError.terminated) { try host.proxy.send(.increment) }
        #expect(throws: TransducerError.terminated) { try host.input.send(.increment) }
        #expect(completions.results.count == 1)
    }

    // MARK: Kinds of transducers and proxies

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func pureTransducerDeliversOutputsOnTheMainActor() async throws {
        let outputs = Recorder<Int>()
        let completions = CompletionLog<Int>()
        let host = ObservableTransducer(
            of: HostTally.self, initialState: HostTally.State(),
            output: Callback { value in
                MainActor.assertIsolated()
                outputs.append(value)
            },
            completion: completions.callback)

        try host.send(.add(2))
        try host.send(.add(3))
        try host.send(.stop)

        #expect(try await completions.first().get() == 5)
        #expect(outputs.values == [2, 5, 5])
        #expect(host.state.count == 5)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func suspendingProxyReturnsOnceTheEventWasProcessed() async throws {
        let host = ObservableTransducer(
            of: HostLockstep.self, initialState: HostLockstep.State(), proxy: HostLockstep.Proxy())

        try await host.checkedSend(.value(1))
        #expect(host.state.values == [1])
        await host.send(.value(2))
        #expect(host.state.values == [1, 2])
        host.cancel()
    }
}
