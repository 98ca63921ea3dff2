// Synchronisation helpers for the contract tests: an awaitable trace, a gate,
// waiting for cancellation, a spin barrier, and deadlines that turn a hang of
// the runtime into a recorded test failure.
//
// None of these helpers sleeps to let something happen: tests await the
// event they need. The only clock a helper reads is the deadline watchdog,
// which a passing test never waits for; it exists so that a runtime bug that
// loses a wake-up fails one test instead of hanging the whole suite.

import Dispatch
import Foundation
import Synchronization
import Testing

/// A value behind a lock.
///
/// `Synchronization.Mutex` would be the natural choice, but on Linux it locks
/// with futexes inside the uninstrumented standard library, so
/// ThreadSanitizer cannot see it and reports every guarded access as a race.
/// `NSLock` is a pthread mutex, which ThreadSanitizer understands.
///
/// Safety (`@unchecked Sendable`): `value` is only reachable inside
/// `withLock`, which holds the lock for the whole closure.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// How long a test waits for something the runtime must do before it records
/// a failure. Generous, because ThreadSanitizer runs on two cores are slow and
/// other suites may keep the cooperative pool busy; a passing test never
/// comes near it.
let contractDeadline: Duration = .seconds(30)

/// The global actor of the contract tests: "another actor" for async actions
/// and subjects, and a serial executor on which tasks start in the order they
/// were created. Not the main actor, which other suites may keep busy for a
/// long time.
@globalActor
actor ContractActor {
    static let shared = ContractActor()
}

/// Thrown by ``value(of:sourceLocation:)`` when the run did not end before the
/// deadline.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let what: String
    var description: String { "\(what) did not happen within \(contractDeadline)" }
}

/// Resumes a continuation exactly once, from whichever side comes first: the
/// awaited work or the deadline watchdog.
private final class FirstOf<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value?, Never>?
        var watchdog: Task<Void, Never>?
        var isDone = false
    }

    private let state = Locked(State())

    func install(_ continuation: CheckedContinuation<Value?, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func setWatchdog(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            if state.isDone { return true }
            state.watchdog = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Returns `true` if this call delivered the value.
    @discardableResult
    func finish(_ value: Value?) -> Bool {
        let (continuation, watchdog) = state.withLock {
            state -> (CheckedContinuation<Value?, Never>?, Task<Void, Never>?) in
            if state.isDone { return (nil, nil) }
            state.isDone = true
            defer {
                state.continuation = nil
                state.watchdog = nil
            }
            return (state.continuation, state.watchdog)
        }
        watchdog?.cancel()
        guard let continuation else { return false }
        continuation.resume(returning: value)
        return true
    }
}

/// Runs `work` and returns its result, or records an issue and returns `nil`
/// when it has not finished by the deadline (the work is then cancelled).
func withinDeadline<Value: Sendable>(
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    detail: @escaping @Sendable () -> String = { "" },
    _ work: @escaping @Sendable () async -> Value
) async -> Value? {
    let first = FirstOf<Value>()
    return await withCheckedContinuation { continuation in
        first.install(continuation)
        let worker = Task {
            first.finish(await work())
        }
        first.setWatchdog(
            Task {
                do {
                    try await Task.sleep(for: contractDeadline)
                } catch {
                    return  // the work finished first
                }
                if first.finish(nil) {
                    Issue.record(
                        "Deadline: \(what) did not happen within \(contractDeadline).\(detail())",
                        sourceLocation: sourceLocation)
                    worker.cancel()
                }
            })
    }
}

/// Awaits the value of a task that runs a transducer, failing the test (and
/// cancelling the task) instead of hanging when it does not end.
func value<Value: Sendable>(
    of task: Task<Value, any Error>,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Value {
    guard
        let result = await withinDeadline(
            "the end of the awaited task", sourceLocation: sourceLocation, { await task.result })
    else {
        task.cancel()
        throw DeadlineExceeded(what: "the end of the awaited task")
    }
    return try result.get()
}

/// An ordered, thread-safe record of what transducers, effects, callbacks and
/// inspectors did during one test; tests await entries instead of sleeping.
final class Trace: Sendable {
    private struct Waiter: Sendable {
        let predicate: @Sendable ([String]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var entries: [String] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    init() {}

    /// Appends `entry` and wakes the waiters it satisfies.
    func append(_ entry: String) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.entries.append(entry)
            var ready: [CheckedContinuation<Bool, Never>] = []
            for (id, waiter) in state.waiters where waiter.predicate(state.entries) {
                ready.append(waiter.continuation)
                state.waiters[id] = nil
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Everything appended so far, in order.
    var entries: [String] { state.withLock { $0.entries } }

    /// The entries that start with `prefix`, in order.
    func entries(withPrefix prefix: String) -> [String] {
        entries.filter { $0.hasPrefix(prefix) }
    }

    /// Whether `entry` was appended.
    func contains(_ entry: String) -> Bool { entries.contains(entry) }

    /// The position of the first `entry`, or `nil`.
    func index(of entry: String) -> Int? { entries.firstIndex(of: entry) }

    /// Whether `first` was appended, and before `second` (if that was appended at all, it came later).
    func isOrdered(_ first: String, before second: String) -> Bool {
        guard let a = index(of: first), let b = index(of: second) else { return false }
        return a < b
    }

    /// Suspends until `predicate` holds for the entries; records an issue and
    /// returns `false` when it does not hold by the deadline.
    @discardableResult
    func waitUntil(
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: @escaping @Sendable ([String]) -> Bool
    ) async -> Bool {
        await withinDeadline(what, sourceLocation: sourceLocation, detail: { " The trace: \(self.entries)" }) {
            await self.suspend(until: predicate)
        } ?? false
    }

    /// Suspends until `entry` has been appended; records an issue and returns
    /// `false` when it was not appended by the deadline.
    @discardableResult
    func waitFor(_ entry: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await waitUntil("trace entry \"\(entry)\"", sourceLocation: sourceLocation) { $0.contains(entry) }
    }

    private func suspend(until predicate: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let satisfied = state.withLock { state -> Bool in
                    if predicate(state.entries) { return true }
                    state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                    return false
                }
                if satisfied { continuation.resume(returning: true) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: false)
        }
    }
}

/// A one-shot gate: `wait()` suspends until `open()` is called (before or
/// after). Waiting ignores task cancellation on purpose, so an operation can
/// hold on after it has been cancelled.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    init() {}

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let openNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
    }
}

/// Suspends until the current task is cancelled, without polling or
/// sleeping. `started` runs once the cancellation handler is installed, so a
/// cancellation after it is guaranteed to be seen by `cancelled`, which runs
/// synchronously inside `Task.cancel()` (or at once if already cancelled).
func untilCancelled(
    started: @Sendable () -> Void = {},
    cancelled: @escaping @Sendable () -> Void = {}
) async {
    let gate = Gate()
    await withTaskCancellationHandler {
        started()
        await gate.wait()
    } onCancel: {
        cancelled()
        gate.open()
    }
}

/// Keeps an operation busy for a while after it has been cancelled, without
/// sleeping: a cooperative task that cleans up slowly.
func lingerAfterCancellation() async {
    for _ in 0..<200 {
        await Task.yield()
    }
}

/// A task executor with a thread of its own (a serial dispatch queue, outside
/// Swift's cooperative pool): tasks that prefer it may block or spin without
/// starving the tests that share the pool.
final class DedicatedThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

/// Releases a fixed number of threads at the same moment: every party spins
/// (never sleeps) until all have arrived. Spin only on threads of a
/// ``DedicatedThreadExecutor``, never on the cooperative pool.
final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait() {
        arrived.add(1, ordering: .sequentiallyConsistent)
        var spins = 0
        while arrived.load(ordering: .sequentiallyConsistent) < parties, spins < 500_000_000 {
            spins += 1
        }
    }
}

/// An error for operations, actions and callbacks to fail with.
struct Boom: Error, Equatable, CustomStringConvertible {
    var tag = "boom"
    var description: String { "Boom(\(tag))" }
}
