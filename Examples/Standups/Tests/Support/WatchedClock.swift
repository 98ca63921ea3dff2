// A test clock that says when something starts sleeping on it: a test
// awaits the meeting's timer's first sleep (which reads `now`) before it
// advances the clock, so that no advance can come before the timer and
// be missed. No polling: the sleeper resumes the waiting test.
//
// The clock keeps its sleepers itself, rather than wrapping swift-clocks'
// `TestClock`: a sleep is counted under the same lock as it is registered,
// so a test that saw the sleep can never advance before the sleeper is
// there to be woken. (Counted before `TestClock` registered it, a sleep
// whose deadline an advance had already reached waited for the next one:
// the meeting's timer missed a tick, now and then, on a busy machine.)

import Synchronization

/// A manual clock whose sleeps are counted and awaited.
public struct WatchedClock: Clock {
    /// A moment on the clock: how long after its start.
    public struct Instant: InstantProtocol {
        /// The time since the clock's start.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let timeline = Timeline()

    /// A clock at its start.
    public init() {}

    /// Now: moves only when the test advances the clock.
    public var now: Instant { timeline.now }
    /// As fine as `Duration` is.
    public var minimumResolution: Duration { .zero }

    /// Sleeps until the clock reaches `deadline` (returns at once when it
    /// has), or until the sleeping task is cancelled (throws
    /// `CancellationError`). The sleep is counted when it is registered.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await timeline.sleep(until: deadline)
    }

    /// Advances the time once something sleeps that had not slept at the
    /// last advance, waking the sleepers due. A timer that sleeps again
    /// after each tick has then registered its next deadline: an advance
    /// can never end at a deadline registered after it.
    public func advance(by duration: Duration) async {
        await timeline.waitForNewSleep()
        timeline.move(by: duration)
    }

    /// Moves the time forward at once, waking the sleepers due, without
    /// waiting for a sleep: after ``waitForSleeps(_:)``, to check what
    /// happens just before and at a deadline.
    public func moveForward(by duration: Duration) {
        timeline.move(by: duration)
    }

    /// Returns once `count` sleeps have started on this clock in all.
    public func waitForSleeps(_ count: Int = 1) async {
        await timeline.wait(for: count)
    }
}

/// The clock's time, its sleepers and the tests waiting for sleeps, under
/// one lock.
final class Timeline: Sendable {
    private struct Sleeper {
        var id: Int
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Duration.zero
        var sleepers: [Sleeper] = []
        /// Sleeps whose task was cancelled before they were registered.
        var cancelled: Set<Int> = []
        var nextID = 0
        /// Sleeps started in all, and how many the last advance had seen.
        var sleeps = 0
        var seen = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var now: WatchedClock.Instant { WatchedClock.Instant(offset: state.withLock { $0.now }) }

    func sleep(until deadline: WatchedClock.Instant) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, ready) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    state.sleeps += 1
                    let ready = Self.takeWaiters(from: &state)
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), ready) }
                    if deadline.offset <= state.now { return (.success(()), ready) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline.offset, continuation: continuation))
                    return (nil, ready)
                }
                for waiter in ready { waiter.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleep cancelled after it ended leaves no mark behind.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Moves the time forward and wakes the sleepers due, earliest first.
    func move(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until more sleeps have started than at the last call.
    func waitForNewSleep() async {
        let target = state.withLock { $0.seen } + 1
        await wait(for: target)
        state.withLock { $0.seen = $0.sleeps }
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { continuation in
            let isReady = state.withLock { state in
                if state.sleeps >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    private static func takeWaiters(from state: inout State) -> [CheckedContinuation<Void, Never>] {
        let sleeps = state.sleeps
        let ready = state.waiters.filter { $0.count <= sleeps }.map(\.continuation)
        state.waiters.removeAll { $0.count <= sleeps }
        return ready
    }
}
