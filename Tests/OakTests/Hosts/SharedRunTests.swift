// `SharedRun`: one run that many watch. Each watcher gets the current state
// first, then the latest state it has not seen (coalesced), until the run
// ends; a watcher that does not read holds nothing; equal states wake no
// one; the end reaches every watcher; a shared run runs once. The property
// test joins, reads, leaves, tracks (as a view) and ends at random, with
// every core busy beside it for half the sequences.

import Dispatch
import Observation
import PropertyBased
import Synchronization
import Testing

@testable import Oak

/// A tally whose `send` waits until the event has been processed, so that a
/// test knows which state the run has published, and whose state is
/// `Equatable`. ``HostTally`` is the same tally with a buffered proxy and a
/// state that is not `Equatable` (every write is published).
enum SharedTally: Transducer {
    typealias Proxy = SyncSuspendingProxy<Event>
    struct State: Terminable, Equatable, Sendable {
        var count = 0
        var isStopped = false
        var isTerminal: Bool { isStopped }
    }
    enum Event: Sendable { case add(Int), stop }
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> Int {
        switch event {
        case .add(let amount): state.count += amount
        case .stop: state.isStopped = true
        }
        return state.count
    }
}

/// An effect transducer with an environment: `start` reads a number from
/// the environment in an async action.
enum SharedFetch: EffectTransducer {
    struct Env: Sendable { var number: @Sendable () async -> Int }
    struct State: Terminable, Equatable, Sendable {
        var value: Int?
        var isTerminal: Bool { value != nil }
    }
    enum Event: Sendable { case start, got(Int) }
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
        switch event {
        case .start:
            return (Self.Effect(action: { env in .got(await env.number()) }), 0)
        case .got(let value):
            state.value = value
            return (nil, value)
        }
    }
}

extension SharedRun {
    /// How many watchers wait for the next state now.
    var waitingCount: Int { broadcast.core.withLock { $0.waiting.count } }
    /// The watchers alive (iterators made and not yet gone).
    var watcherCount: Int { broadcast.core.withLock { $0.watchers } }
    /// How many states have been published (the initial state is 1).
    var version: UInt64 { broadcast.core.withLock { $0.version } }
}

/// Yields until `condition` holds: for a state another task reaches without
/// a signal of its own (a watcher that has begun to wait). The suite's time
/// limit bounds it.
func yieldUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

@Suite("SharedRun: one run that many watch", .timeLimit(.minutes(1)))
struct SharedRunTests {
    @Test func aWatcherGetsTheCurrentStateFirstThenEachNewStateUntilTheEnd() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        var states = shared.states.makeAsyncIterator()
        #expect(await states.next()?.count == 0)
        #expect(!shared.hasStarted)

        let run = Task { try await shared.run() }
        await shared.proxy.send(.add(2))
        #expect(await states.next()?.count == 2)
        await shared.proxy.send(.add(3))
        #expect(await states.next()?.count == 5)
        await shared.proxy.send(.stop)
        #expect(await states.next() == SharedTally.State(count: 5, isStopped: true))
        #expect(await states.next() == nil)
        #expect(await states.next() == nil)

        #expect(try await run.value == 5)
        #expect(try shared.ending?.get() == 5)
        #expect(shared.state.isStopped)
    }

    @Test func aWatcherThatFallsBehindGetsOnlyTheLatestState() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        var states = shared.states.makeAsyncIterator()
        #expect(await states.next()?.count == 0)

        for _ in 0..<100 { await shared.proxy.send(.add(1)) }
        #expect(await states.next()?.count == 100)
        // Nothing was queued for it: the next state is the next one.
        await shared.proxy.send(.add(1))
        #expect(await states.next()?.count == 101)

        await shared.proxy.send(.stop)
        _ = try await run.value
    }

    @Test func aWatcherThatDoesNotReadHoldsNothing() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        let idle = (0..<1_000).map { _ in shared.states.makeAsyncIterator() }
        for _ in 0..<50 { await shared.proxy.send(.add(1)) }
        #expect(shared.waitingCount == 0)
        await shared.proxy.send(.stop)
        _ = try await run.value
        // Each idle watcher still gets the final state, then the end.
        for var states in idle.prefix(3) {
            #expect(await states.next()?.count == 50)
            #expect(await states.next() == nil)
        }
    }

    @Test func theWatchersRestOnlyWhileEachWaitsForANewerState() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        #expect(shared.watchersAreWaiting, "nobody watches")
        let (told, tell) = AsyncStream<Int?>.makeStream()
        let (asked, ask) = AsyncStream<Void>.makeStream()
        let watcher = Task {
            var states = shared.states.makeAsyncIterator()
            var asks = asked.makeAsyncIterator()
            // Asks when the test says so, and tells what it got.
            while await asks.next() != nil { tell.yield(await states.next()?.count) }
        }
        var answers = told.makeAsyncIterator()
        await yieldUntil { shared.watcherCount == 1 }
        #expect(!shared.watchersAreWaiting, "a watcher that has not asked yet")
        ask.yield()
        #expect(await answers.next() == 0)
        #expect(!shared.watchersAreWaiting, "a watcher busy with the state it got")
        ask.yield()
        await yieldUntil { shared.waitingCount == 1 }
        #expect(shared.watchersAreWaiting, "a watcher that waits for a newer state")
        await shared.proxy.send(.add(1))
        #expect(await answers.next() == 1)
        #expect(!shared.watchersAreWaiting, "woken with a state, and not asking again")
        await shared.proxy.send(.stop)
        _ = try await run.value
        #expect(shared.watchersAreWaiting, "the run has ended")
        ask.finish()
        await watcher.value
        #expect(shared.watcherCount == 0, "the watcher is gone with its task")
    }

    @Test func aWatcherGoneIsNoLongerWaitedFor() async {
        let shared = SharedRun<SharedTally>(initialState: .init())
        do {
            var states = shared.states.makeAsyncIterator()
            _ = await states.next()
            #expect(!shared.watchersAreWaiting)
        }
        #expect(shared.watcherCount == 0 && shared.watchersAreWaiting)
    }

    @Test func anUpdateThatLeavesAnEquatableStateAsItWasWakesNoOne() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        await shared.proxy.send(.add(1))
        let before = shared.version
        for _ in 0..<10 { await shared.proxy.send(.add(0)) }
        #expect(shared.version == before)

        let watcher = Task {
            var states = shared.states.makeAsyncIterator()
            _ = await states.next()
            return await states.next()?.count
        }
        await yieldUntil { shared.waitingCount == 1 }
        await shared.proxy.send(.add(0))
        #expect(shared.waitingCount == 1)
        await shared.proxy.send(.add(4))
        #expect(await watcher.value == 5)

        await shared.proxy.send(.stop)
        _ = try await run.value
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aViewThatReadTheStateIsToldOfEachNewStateAndOfNothingElse() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        let told = Locked(0)
        func observe() -> Int {
            withObservationTracking {
                shared.state.count
            } onChange: {
                told.withLock { $0 += 1 }
            }
        }
        #expect(observe() == 0)
        // An update that leaves the state as it was is not a change.
        await shared.proxy.send(.add(0))
        #expect(told.withLock { $0 } == 0)
        await shared.proxy.send(.add(2))
        #expect(told.withLock { $0 } == 1)
        // A tracking is told once; the view tracks again as it renders.
        await shared.proxy.send(.add(1))
        #expect(told.withLock { $0 } == 1)
        #expect(observe() == 3)
        await shared.proxy.send(.add(1))
        #expect(told.withLock { $0 } == 2)

        await shared.proxy.send(.stop)
        _ = try await run.value
        #expect(shared.state.count == 4)
    }

    /// A shared run publishes on its own isolation: a publication can
    /// come after a view read the state and before its tracking was
    /// installed, which `withObservationTracking` alone does not report.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aPublicationBetweenTheReadAndTheTrackingIsNotMissed() {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let told = Locked(0)
        let read = withStateTracking {
            let count = shared.state.count
            // As if the run published now, on its own thread.
            shared.broadcast.publish(SharedTally.State(count: 9))
            return count
        } onChange: {
            told.withLock { $0 += 1 }
        }
        #expect(read == 0)
        #expect(told.withLock { $0 } == 1, "the view is told, and renders the new state")
        #expect(shared.state.count == 9)
    }

    /// The first read of a view and the first publication, on two
    /// threads at once, many times: the view reads the new state or is
    /// told of it — never the old state untold (which a check of "is it
    /// observed" and a store under two locks allowed: the page of the
    /// first session to show a shared list stayed on "loading").
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aFirstReadRacingTheFirstPublicationReadsTheNewStateOrIsTold() {
        var missed = 0
        for _ in 0..<5_000 {
            let shared = SharedRun<SharedTally>(initialState: .init())
            let told = Locked(false)
            let read = Locked(-1)
            let ready = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                // Both threads start together.
                ready.add(1, ordering: .sequentiallyConsistent)
                while ready.load(ordering: .sequentiallyConsistent) < 2 {}
                if thread == 0 {
                    shared.broadcast.publish(SharedTally.State(count: 1))
                } else {
                    let count = withStateTracking {
                        shared.state.count
                    } onChange: {
                        told.withLock { $0 = true }
                    }
                    read.withLock { $0 = count }
                }
            }
            if read.withLock({ $0 }) == 0, !told.withLock({ $0 }) { missed += 1 }
        }
        #expect(missed == 0, "\(missed) first reads kept the old state untold")
    }

    @Test func aStateThatIsNotEquatableIsPublishedAtEveryUpdate() async throws {
        let shared = SharedRun<HostTally>(initialState: .init())
        let run = Task { try await shared.run() }
        var states = shared.states.makeAsyncIterator()
        #expect(await states.next()?.count == 0)
        try shared.proxy.send(.add(0))
        // The state did not change, and the watcher is woken all the same.
        #expect(await states.next()?.count == 0)
        try shared.proxy.send(.stop)
        #expect(await states.next()?.isStopped == true)
        #expect(await states.next() == nil)
        _ = try await run.value
    }

    @Test func theEndReachesEveryWatcherWithTheFinalStateFirst() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        let watchers = (0..<200).map { _ in
            Task {
                var last: SharedTally.State?
                for await state in shared.states { last = state }
                return last
            }
        }
        await yieldUntil { shared.waitingCount == 200 }
        await shared.proxy.send(.add(7))
        await shared.proxy.send(.stop)
        for watcher in watchers {
            #expect(await watcher.value == SharedTally.State(count: 7, isStopped: true))
        }
        #expect(try await run.value == 7)
        #expect(shared.waitingCount == 0)
    }

    @Test func aRunThatFailsEndsEveryWatcherAndItsErrorIsTheEnding() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        let watcher = Task {
            var count = 0
            for await _ in shared.states { count += 1 }
            return count
        }
        await yieldUntil { shared.waitingCount == 1 }
        await shared.proxy.send(.add(1))
        shared.proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await run.value }
        #expect(await watcher.value >= 1)
        #expect(throws: TransducerError.cancelled) { try shared.ending?.get() }
    }

    @Test func aWatcherLeavesByCancellingItsTaskAndTheOthersGoOn() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        let leaving = Task {
            var seen: [Int] = []
            for await state in shared.states { seen.append(state.count) }
            return seen
        }
        let staying = Task {
            var seen: [Int] = []
            for await state in shared.states { seen.append(state.count) }
            return seen
        }
        await yieldUntil { shared.waitingCount == 2 }
        leaving.cancel()
        #expect(await leaving.value == [0])
        #expect(shared.waitingCount == 1)

        await shared.proxy.send(.add(3))
        await shared.proxy.send(.stop)
        let seen = await staying.value
        #expect(seen.first == 0 && seen.last == 3)
        _ = try await run.value
    }

    @Test func theSequenceOfACancelledWatcherEndsAtOnce() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let watcher = Task {
            var states = shared.states.makeAsyncIterator()
            let first = await states.next()?.count
            withUnsafeCurrentTask { $0?.cancel() }
            return (first, await states.next()?.count)
        }
        let (first, second) = await watcher.value
        #expect(first == 0)
        #expect(second == nil)
        #expect(shared.waitingCount == 0)

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var states = shared.states.makeAsyncIterator()
            return await states.next()
        }
        #expect(await cancelledFirst.value == nil)
    }

    @Test func aWatcherThatJoinsAfterTheEndGetsTheFinalStateThenTheEnd() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        await shared.proxy.send(.add(9))
        await shared.proxy.send(.stop)
        _ = try await run.value
        var states = shared.states.makeAsyncIterator()
        #expect(await states.next() == SharedTally.State(count: 9, isStopped: true))
        #expect(await states.next() == nil)
    }

    @Test func aSharedRunRunsOnceASecondRunIsRefusedAndChangesNothing() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await shared.run() }
        await shared.proxy.send(.add(1))
        await #expect(throws: TransducerError.proxyAlreadyInUse) { try await shared.run() }
        #expect(shared.ending == nil)
        await shared.proxy.send(.stop)
        #expect(try await run.value == 1)
        await #expect(throws: TransducerError.proxyAlreadyInUse) { try await shared.run() }
        #expect(try shared.ending?.get() == 1)
    }

    @Test func aSharedRunIsEqualToItselfOnlyWhateverItsState() async throws {
        struct Parent: Hashable { var shared: SharedRun<SharedTally> }
        let one = SharedRun<SharedTally>(initialState: .init())
        let other = SharedRun<SharedTally>(initialState: .init())
        #expect(Parent(shared: one) == Parent(shared: one))
        #expect(Parent(shared: one) != Parent(shared: other))
        #expect(Set([one, one, other]).count == 2)
        let run = Task { try await one.run() }
        await one.proxy.send(.add(2))
        #expect(Parent(shared: one) == Parent(shared: one))
        await one.proxy.send(.stop)
        _ = try await run.value
    }

    @Test func anEffectTransducerRunsWithItsEnvironmentAndOutput() async throws {
        let shared = SharedRun<SharedFetch>(initialState: .init())
        let outputs = Mutex<[Int]>([])
        try shared.proxy.send(.start)
        let final = try await shared.run(
            env: .init(number: { 42 }), output: Callback { value in outputs.withLock { $0.append(value) } })
        #expect(final == 42)
        #expect(outputs.withLock { $0 } == [0, 42])
        #expect(shared.state.value == 42)
    }

    @Test func theRunRunsOnTheCallersActor() async throws {
        actor Owner {
            var updates = 0
            func run(_ shared: SharedRun<SharedTally>) async throws -> Int {
                try await shared.run(
                    output: Callback { _ in
                        self.assertIsolated()
                        self.updates += 1
                    })
            }
        }
        let owner = Owner()
        let shared = SharedRun<SharedTally>(initialState: .init())
        let run = Task { try await owner.run(shared) }
        await shared.proxy.send(.add(1))
        await shared.proxy.send(.stop)
        #expect(try await run.value == 1)
        #expect(await owner.updates == 2)
    }
}

// MARK: Random joins, reads, leaves and ends

/// What one watcher of a generated sequence does.
enum WatcherPlan: Sendable, CustomStringConvertible {
    /// Reads every state until the end.
    case readsAll
    /// Reads this many states, then its task is cancelled.
    case leavesAfter(Int)
    /// Never reads; asked once after the end.
    case neverReads
    /// Joins after the run has processed this many events, then reads all.
    case joinsLate(Int)
    /// A view: reads the state where it is tracked (``StateTracker``), and
    /// again each time it is told of a change, until the run has ended.
    case tracks
    /// A run told of each change by a subscription (``SharedRun/notify(_:with:)``),
    /// which reads the state when told; it cancels the subscription after
    /// this many notices, when set.
    case subscribes(cancelAfter: Int?)

    var description: String {
        switch self {
        case .readsAll: "reads all"
        case .leavesAfter(let n): "leaves after \(n)"
        case .neverReads: "never reads"
        case .joinsLate(let n): "joins after \(n)"
        case .tracks: "tracks"
        case .subscribes(let n): n.map { "subscribes, cancels after \($0)" } ?? "subscribes"
        }
    }
}

/// A generated sequence: the amounts added (each at least 1, so the count
/// rises at every event), the watchers, and how the run ends.
struct SharedRunSequence: Sendable, CustomStringConvertible {
    var amounts: [Int]
    var watchers: [WatcherPlan]
    var endsByCancel: Bool
    var loaded: Bool

    init(seed: UInt64, endsByCancel: Bool, loaded: Bool) {
        var random = SplitMix64(seed: seed)
        amounts = (0..<Int(random.next() % 40)).map { _ in 1 + Int(random.next() % 5) }
        watchers = (0..<(1 + Int(random.next() % 24))).map { _ in
            switch random.next() % 7 {
            case 0: .readsAll
            case 1: .leavesAfter(Int(random.next() % 6))
            case 2: .neverReads
            case 3: .tracks
            case 4: .subscribes(cancelAfter: nil)
            case 5: .subscribes(cancelAfter: Int(random.next() % 4))
            default: .joinsLate(Int(random.next() % 40))
            }
        }
        self.endsByCancel = endsByCancel
        self.loaded = loaded
    }

    var description: String {
        "amounts \(amounts), watchers \(watchers), \(endsByCancel ? "cancelled" : "stopped")"
            + (loaded ? ", under load" : "")
    }
}

extension HostTally.State {
    /// Rises at every update of a sequence: the count (whose amounts are at
    /// least 1), then the stop.
    var rank: Int { count * 2 + (isStopped ? 1 : 0) }
}

/// How many events the sender has sent, for watchers that join late.
final class ProcessedCount: Sendable {
    let value = Atomic<Int>(0)
}

@Suite("SharedRun: random joins, reads, leaves and ends", .timeLimit(.minutes(3)))
struct SharedRunPropertyTests {
    @Test func everyWatcherSeesRisingStatesAndTheEndAndNoneIsLeftWaiting() async {
        await propertyCheck(
            count: 1_500, input: Gen.int(in: 0...Int(Int32.max)), Gen.bool, Gen.bool
        ) { seed, endsByCancel, loaded in
            await Self.check(SharedRunSequence(seed: UInt64(seed), endsByCancel: endsByCancel, loaded: loaded))
        }
    }

    static func check(_ sequence: SharedRunSequence) async {
        await withBusyLoad(sequence.loaded) {
            let shared = SharedRun<HostTally>(initialState: .init(), proxy: .init(bufferSize: 64))
            let run = Task { try await shared.run() }
            let processed = ProcessedCount()
            var watchers: [Task<[Int], Never>] = []
            for plan in sequence.watchers {
                watchers.append(
                    Task {
                        var seen: [Int] = []
                        switch plan {
                        case .readsAll:
                            for await state in shared.states { seen.append(state.rank) }
                        case .leavesAfter(let n):
                            var states = shared.states.makeAsyncIterator()
                            for _ in 0..<n {
                                guard let state = await states.next() else { break }
                                seen.append(state.rank)
                            }
                            withUnsafeCurrentTask { $0?.cancel() }
                            #expect(await states.next() == nil, "a cancelled watcher's sequence ends")
                        case .neverReads:
                            let states = shared.states.makeAsyncIterator()
                            _ = await run.result
                            var after = states
                            if let state = await after.next() { seen.append(state.rank) }
                        case .joinsLate(let n):
                            while processed.value.load(ordering: .acquiring) < n, shared.ending == nil {
                                await Task.yield()
                            }
                            for await state in shared.states { seen.append(state.rank) }
                        case .tracks:
                            // Reads again only when told: once the run has
                            // ended, what it read last untold must be the
                            // final state (a publication tells its views
                            // before the run ends).
                            let tracker = StateTracker()
                            let (told, tell) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                            let wasTold = Atomic(false)
                            while true {
                                wasTold.store(false, ordering: .sequentiallyConsistent)
                                let rank = tracker.track {
                                    shared.state.rank
                                } onChange: {
                                    wasTold.store(true, ordering: .sequentiallyConsistent)
                                    tell.yield()
                                }
                                if seen.last != rank { seen.append(rank) }
                                await withTaskGroup(of: Void.self) { group in
                                    group.addTask { for await _ in told { return } }
                                    group.addTask { _ = await run.result }
                                    await group.next()
                                    group.cancelAll()
                                }
                                if shared.ending != nil, !wasTold.load(ordering: .sequentiallyConsistent) { break }
                            }
                            tracker.cancel()
                        case .subscribes(let cancelAfter):
                            let follower = SharedRun<RankFollower>(initialState: .init(cancelAfter: cancelAfter))
                            let following = Task { try await follower.run(env: .init(shared: shared)) }
                            try? follower.proxy.send(.start)
                            // Told of the end once more: the last rank it
                            // reads is the final one (unless it cancelled).
                            _ = await run.result
                            let final = shared.state.rank
                            let last = await withinDeadline("a subscriber's last notice") {
                                await follower.firstState { $0.isCancelled || $0.seen.last == final }
                            }
                            following.cancel()
                            for rank in last??.seen ?? [] where seen.last != rank { seen.append(rank) }
                        }
                        return seen
                    })
            }
            var total = 0
            for amount in sequence.amounts {
                try? shared.proxy.send(.add(amount))
                total += amount
                processed.value.add(1, ordering: .releasing)
                await Task.yield()
            }
            if sequence.endsByCancel { shared.proxy.cancel() } else { try? shared.proxy.send(.stop) }
            processed.value.store(Int.max, ordering: .releasing)
            guard let result = await withinDeadline("the end of the run", { await run.result }) else { return }
            let final = shared.state.rank
            switch result {
            case .success(let output):
                #expect(!sequence.endsByCancel, "\(sequence)")
                #expect(output == total && shared.state.count == total, "\(sequence)")
            case .failure(let error):
                #expect(sequence.endsByCancel, "\(sequence): \(error)")
            }
            for (plan, watcher) in zip(sequence.watchers, watchers) {
                guard let seen = await withinDeadline("watcher \(plan)", { await watcher.value }) else { return }
                #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "\(sequence): \(plan) saw \(seen)")
                switch plan {
                case .readsAll, .joinsLate, .neverReads, .tracks, .subscribes(cancelAfter: nil):
                    #expect(seen.last == final, "\(sequence): \(plan) saw \(seen), final \(final)")
                case .leavesAfter, .subscribes:
                    break
                }
            }
            #expect(shared.waitingCount == 0, "\(sequence)")
            // Every watcher's iterator is gone with its task: none is
            // counted as busy any more.
            #expect(shared.watcherCount == 0 && shared.watchersAreWaiting, "\(sequence)")
            #expect(shared.ending != nil, "\(sequence)")
            // The end ended every subscription.
            #expect(shared.subscriptionCount == 0, "\(sequence)")
        }
    }
}

/// A run that follows a ``HostTally`` by a subscription: it reads the
/// tally's rank each time it is told, and cancels the subscription after
/// `cancelAfter` notices, when set.
enum RankFollower: EffectTransducer {
    struct Env: Sendable { let shared: SharedRun<HostTally> }
    struct State: NonTerminal, Equatable, Sendable {
        var cancelAfter: Int?
        var shared: SharedRun<HostTally>?
        var subscription: SharedRun<HostTally>.Subscription?
        var seen: [Int] = []
        var notices = 0
        var isCancelled = false
    }
    enum Event: Sendable {
        case start
        case subscribed(SharedRun<HostTally>, SharedRun<HostTally>.Subscription)
        case changed
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .start:
            return Effect { env, input in .subscribed(env.shared, env.shared.notify(input, with: .changed)) }
        case .subscribed(let shared, let subscription):
            state.shared = shared
            state.subscription = subscription
            state.seen.append(shared.state.rank)
        case .changed:
            guard !state.isCancelled, let shared = state.shared else { return nil }
            state.notices += 1
            state.seen.append(shared.state.rank)
            if let cancelAfter = state.cancelAfter, state.notices >= cancelAfter {
                state.subscription?.cancel()
                state.isCancelled = true
            }
        }
        return nil
    }
}
