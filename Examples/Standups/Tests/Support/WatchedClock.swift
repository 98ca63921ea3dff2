// A test clock that says when something starts sleeping on it: a test
// awaits the meeting's timer's first sleep (which reads `now`) before it
// advances the clock, so that no advance can come before the timer and
// be missed. No polling: the sleeper resumes the waiting test.

import Clocks
import Synchronization

/// A `TestClock` whose sleeps are counted and awaited.
public struct WatchedClock: Clock {
    /// The clock that keeps the time.
    public let base = TestClock<Duration>()
    private let watch = SleepWatch()

    /// A clock at its start.
    public init() {}

    /// Now.
    public var now: TestClock<Duration>.Instant { base.now }
    /// As the test clock's.
    public var minimumResolution: Duration { base.minimumResolution }

    /// Counts the sleep, then sleeps on the test clock: the sleep is
    /// registered before the thread lets anything else run.
    public func sleep(until deadline: TestClock<Duration>.Instant, tolerance: Duration? = nil) async throws {
        watch.record()
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// Advances the time once something sleeps that had not slept at the
    /// last advance, waking the sleepers due. A timer that sleeps again
    /// after each tick has then registered its next deadline: an advance
    /// can never end at a deadline registered after it (the test clock
    /// would keep such a sleeper waiting for the next advance).
    public func advance(by duration: Duration) async {
        await watch.waitForNewSleep()
        await base.advance(by: duration)
    }

    /// Returns once `count` sleeps have started on this clock in all.
    public func waitForSleeps(_ count: Int = 1) async {
        await watch.wait(for: count)
    }
}

final class SleepWatch: Sendable {
    private let state = Mutex<(sleeps: Int, waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)])>(
        (0, []))
    private let seen = Mutex(0)

    /// Waits until more sleeps have started than at the last call.
    func waitForNewSleep() async {
        let target = seen.withLock { $0 } + 1
        await wait(for: target)
        let sleeps = state.withLock { $0.sleeps }
        seen.withLock { $0 = sleeps }
    }

    func record() {
        let ready = state.withLock { state in
            state.sleeps += 1
            let sleeps = state.sleeps
            let ready = state.waiters.filter { $0.count <= sleeps }.map(\.continuation)
            state.waiters.removeAll { $0.count <= sleeps }
            return ready
        }
        for continuation in ready { continuation.resume() }
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
}
