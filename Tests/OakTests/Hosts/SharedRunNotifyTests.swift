// `SharedRun.notify`: a run told of a shared run's changes without a task.
// Each change after the subscription is told; notices are coalesced (at most
// one waits per subscription, outside the buffer and its capacity); a
// projection tells only its own changes; cancelling, dropping the
// subscription, the told run's end and the shared run's end each end it;
// the shared run's end is told once more. The property test of
// `SharedRunTests` runs subscribers among its watchers.

import Testing

@testable import Oak

/// A run that follows a shared tally by a subscription: it records the
/// tally's count each time it is told.
enum TallyFollower: EffectTransducer {
    struct Env: Sendable {
        let tally: SharedRun<SharedTally>
        /// Subscribes only to changes of `count >= threshold`, when set.
        var threshold: Int?
    }
    struct State: NonTerminal, Equatable, Sendable {
        var tally: SharedRun<SharedTally>?
        var subscription: SharedRun<SharedTally>.Subscription?
        /// The counts read when told, in order.
        var seen: [Int] = []
        var notices = 0
        var cancelled = false
        var drops = 0
        /// How many `drop` events it had processed when first told.
        var dropsAtFirstNotice: Int?
    }
    enum Event: Sendable {
        case start
        case subscribed(SharedRun<SharedTally>, SharedRun<SharedTally>.Subscription)
        case changed
        case cancel
        case drop
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .start:
            return Effect { env, input in
                let subscription =
                    if let threshold = env.threshold {
                        env.tally.notify(input, with: .changed) { $0.count >= threshold }
                    } else {
                        env.tally.notify(input, with: .changed)
                    }
                return .subscribed(env.tally, subscription)
            }
        case .subscribed(let tally, let subscription):
            state.tally = tally
            state.subscription = subscription
            state.seen.append(tally.state.count)
        case .changed:
            state.notices += 1
            if state.dropsAtFirstNotice == nil { state.dropsAtFirstNotice = state.drops }
            if let tally = state.tally { state.seen.append(tally.state.count) }
        case .cancel:
            state.subscription?.cancel()
            state.cancelled = true
        case .drop:
            state.subscription = nil
            state.drops += 1
        }
        return nil
    }
}

extension SharedRun {
    /// How many runs are told of this run's changes now.
    var subscriptionCount: Int { broadcast.core.withLock { $0.subscriptions.count } }
}

/// A shared tally, running.
func startTally() -> (SharedRun<SharedTally>, Task<Int, any Error>) {
    let tally = SharedRun<SharedTally>(initialState: .init())
    return (tally, Task { try await tally.run() })
}

/// A follower of `tally`, run as a shared run so that a test can await its
/// states; it has subscribed when this returns.
func startFollower(
    of tally: SharedRun<SharedTally>, threshold: Int? = nil
) async -> (SharedRun<TallyFollower>, Task<Void, any Error>) {
    let follower = SharedRun<TallyFollower>(initialState: .init())
    let run = Task { try await follower.run(env: .init(tally: tally, threshold: threshold)) }
    try? follower.proxy.send(.start)
    _ = await follower.firstState { $0.subscription != nil }
    return (follower, run)
}

extension SharedRun {
    /// The first state (the current one included) for which `condition`
    /// holds; the suite's time limit bounds the wait.
    func firstState(where condition: (Shared.State) -> Bool) async -> Shared.State? {
        for await state in states where condition(state) { return state }
        return nil
    }
}

@Suite("SharedRun.notify: a run told without a task", .timeLimit(.minutes(1)))
struct SharedRunNotifyTests {
    @Test func aRunIsToldOfEachChangeAndReadsTheLatestStateFromTheOneCopy() async throws {
        let (tally, tallyRun) = startTally()
        let (follower, run) = await startFollower(of: tally)

        await tally.proxy.send(.add(2))
        #expect(await follower.firstState { $0.seen.last == 2 } != nil)
        await tally.proxy.send(.add(3))
        #expect(await follower.firstState { $0.seen.last == 5 } != nil)
        #expect(follower.state.seen == [0, 2, 5])

        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
        // The end is told once more; then the subscription is over.
        let told = await follower.firstState { $0.notices == 3 }
        #expect(told?.seen == [0, 2, 5, 5])
        #expect(tally.subscriptionCount == 0)
        run.cancel()
    }

    @Test func noticesAreCoalescedOneWaitsWhateverTheNumberOfChanges() async throws {
        let (tally, tallyRun) = startTally()
        // Not running yet: what it is told waits in its channel.
        let proxy = TallyFollower.Proxy(bufferSize: 1)
        let subscription = tally.notify(proxy.input, with: .changed)
        for _ in 0..<100 { await tally.proxy.send(.add(1)) }
        #expect(proxy._channel.pendingEvents == 1)
        // The buffer is full; the notice took none of it and is not refused.
        try proxy.send(.cancel)
        #expect(proxy._channel.pendingEvents == 2)

        let follower = SharedRun<TallyFollower>(initialState: .init(tally: tally), proxy: proxy)
        let run = Task { try await follower.run(env: .init(tally: tally)) }
        let told = await follower.firstState { $0.notices == 1 }
        #expect(told?.seen == [100])
        // Told again only after a new change.
        await tally.proxy.send(.add(1))
        #expect(await follower.firstState { $0.notices == 2 }?.seen == [100, 101])
        subscription.cancel()
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
        run.cancel()
    }

    @Test func aProjectionTellsOnlyItsOwnChanges() async throws {
        let (tally, tallyRun) = startTally()
        let (follower, run) = await startFollower(of: tally, threshold: 3)

        for _ in 0..<5 { await tally.proxy.send(.add(1)) }
        // `count >= 3` changed once (at 3): one notice, whatever it read.
        let told = await follower.firstState { $0.notices == 1 }
        #expect(told.map { $0.seen.count } == 2)
        #expect((told?.seen.last ?? 0) >= 3)
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
        // The end is not a change of the value: no notice, the
        // subscription is over.
        #expect(tally.subscriptionCount == 0)
        #expect(follower.state.notices == 1)
        run.cancel()
    }

    @Test func aCancelledOrDroppedSubscriptionTellsNothingMore() async throws {
        let (tally, tallyRun) = startTally()
        let (first, firstRun) = await startFollower(of: tally)
        let (second, secondRun) = await startFollower(of: tally)
        #expect(tally.subscriptionCount == 2)

        try first.proxy.send(.cancel)
        try second.proxy.send(.drop)
        _ = await first.firstState { $0.cancelled }
        _ = await second.firstState { $0.subscription == nil }
        // Dropped from the state, the last reference: it ended with it.
        #expect(tally.subscriptionCount == 0)

        await tally.proxy.send(.add(1))
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
        #expect(first.state.notices == 0 && second.state.notices == 0)
        firstRun.cancel()
        secondRun.cancel()
    }

    @Test func theSubscriptionOfARunThatEndedEndsAtTheNextChange() async throws {
        let (tally, tallyRun) = startTally()
        let proxy = TallyFollower.Proxy()
        let subscription = tally.notify(proxy.input, with: .changed)
        let run = Task { try await TallyFollower.run(initialState: .init(), proxy: proxy, env: .init(tally: tally)) }
        proxy.cancel()
        _ = await run.result
        #expect(tally.subscriptionCount == 1)
        await tally.proxy.send(.add(1))
        // Refused by the ended run: the shared run forgot it, although the
        // handle is still held here.
        #expect(tally.subscriptionCount == 0)
        withExtendedLifetime(subscription) {}
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
    }

    @Test func aRunThatSubscribesAfterTheEndIsToldAtOnce() async throws {
        let (tally, tallyRun) = startTally()
        await tally.proxy.send(.add(4))
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value

        let (follower, run) = await startFollower(of: tally)
        let told = await follower.firstState { $0.notices == 1 }
        #expect(told?.seen == [4, 4])
        #expect(tally.subscriptionCount == 0)
        run.cancel()
    }

    @Test func aNoticeTakesItsTurnAfterEachBatchOfEvents() async throws {
        // A run flooded with events still takes its notice: after the
        // batch in progress, not after the whole flood.
        let (tally, tallyRun) = startTally()
        let proxy = TallyFollower.Proxy(bufferSize: 10_000)
        let subscription = tally.notify(proxy.input, with: .changed)
        for _ in 0..<5_000 { try proxy.send(.drop) }
        await tally.proxy.send(.add(1))
        let follower = SharedRun<TallyFollower>(initialState: .init(tally: tally), proxy: proxy)
        let run = Task { try await follower.run(env: .init(tally: tally)) }
        let told = await follower.firstState { $0.notices == 1 }
        #expect(told?.dropsAtFirstNotice == 64, "the notice comes after the first batch")
        subscription.cancel()
        await tally.proxy.send(.stop)
        _ = try await tallyRun.value
        run.cancel()
    }
}
