import Foundation
import Oak

/// The suspended waiters of a ``RunLog``, kept apart from the log's generic
/// type so that the task enforcing a waiter's deadline captures nothing
/// generic.
///
/// Safety (`@unchecked Sendable`): every field is guarded by `lock`, which
/// the log also uses for its entries.
class WaiterBook: @unchecked Sendable {
    let lock = NSLock()
    /// Suspended waiters by id.
    var continuations: [Int: CheckedContinuation<Bool, Never>] = [:]
    /// Waiters made and not yet resumed, with their deadlines.
    var pending: [Int: ContinuousClock.Instant] = [:]
    /// Waiters whose time ran out before they were registered.
    var expired: Set<Int> = []
    var nextWaiter = 0
    /// The task that ends waits whose deadline has passed; one per log,
    /// made when the first wait needs it, so that a wait that is satisfied
    /// at once costs no task.
    private var monitor: Task<Void, Never>?

    /// How often the monitor looks for waits past their deadline: deadlines
    /// are kept to within this.
    static let tick: Duration = .milliseconds(10)

    /// Registers a new waiter with a deadline; returns its id.
    func makeWaiter(timeout: Duration) -> Int {
        nextWaiter += 1
        pending[nextWaiter] = ContinuousClock.now + timeout
        if monitor == nil {
            monitor = Task { [weak self] in
                while !Task.isCancelled {
                    // A deadline check, not a wait for a condition: a
                    // condition resumes its waiter as soon as an entry
                    // satisfies it.
                    try? await Task.sleep(for: Self.tick)
                    guard let self, self.expireOverdue() else { return }
                }
            }
        }
        return nextWaiter
    }

    /// Ends the waits past their deadline; returns whether the monitor is
    /// still needed.
    private func expireOverdue() -> Bool {
        let now = ContinuousClock.now
        let overdue = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            var overdue: [CheckedContinuation<Bool, Never>] = []
            for (id, deadline) in pending where deadline <= now {
                pending[id] = nil
                if let continuation = continuations.removeValue(forKey: id) {
                    overdue.append(continuation)
                } else {
                    // Not registered yet: it gives up when it registers.
                    expired.insert(id)
                }
            }
            return overdue
        }
        for continuation in overdue { continuation.resume(returning: false) }
        return true
    }

    /// Stops the deadline monitor (the tester has finished).
    func stopMonitor() {
        lock.withLock { monitor }?.cancel()
    }

    deinit {
        monitor?.cancel()
    }
}

/// Everything a run under test reported, in order, recorded by an inspector
/// installed for that run; the tester reads it and waits on it.
///
/// Safety (`@unchecked Sendable`): every field is guarded by `lock`. The
/// records of the event path (events, states, outputs) carry values of the
/// transducer's types, which need not be `Sendable`: they are appended on the
/// run's isolation, which is the isolation where the tester was made (the
/// tester starts the run there), and read by the tester on that isolation. The records that come from
/// operations' tasks carry only `EffectInfo`, which is `Sendable`.
final class RunLog<T: BaseTransducer>: WaiterBook, TransducerInspector, @unchecked Sendable {
    /// One record of the run.
    enum Entry {
        case event(T.Event)
        case state(T.State)
        case output(T.Output)
        case operationStarted(EffectInfo)
        case operationEnded(EffectInfo, OperationEnding)
        case eventRefused(EffectInfo)
        case waiting
        case ended((any Error)?)
    }

    /// How an operation ended.
    enum OperationEnding: CustomStringConvertible {
        case finished
        case cancelled
        case failed(any Error)

        var description: String {
            switch self {
            case .finished: "finished"
            case .cancelled: "cancelled"
            case .failed(let error): "failed: \(error)"
            }
        }
    }

    private var entries: [Entry] = []
    /// The condition of each suspended waiter.
    private var conditions: [Int: Condition] = [:]

    /// What a tester waits for.
    enum Condition: Sendable {
        /// The run has processed everything it had: it waits for events, or
        /// has ended.
        case settled
        /// An event recorded at or after `entry` has been processed, and the
        /// run has settled.
        case processedEvent(after: Int)
        /// Each of these operations has ended (recorded at or after `entry`).
        case operationsEnded(Set<UInt64>, after: Int)
        /// Something happened since: more than `entries` entries, or more
        /// than `pokes` calls of ``poke()`` (a change outside the run's own
        /// records, such as a child's state).
        case changed(entries: Int, pokes: Int)
    }

    /// How many times ``poke()`` was called.
    private var pokes = 0

    /// The number of entries and of pokes now, for a `.changed` condition.
    var mark: (entries: Int, pokes: Int) {
        lock.withLock { (entries.count, pokes) }
    }

    /// Wakes the waiters for `.changed`: something the run's records do not
    /// show has changed.
    func poke() {
        let ready = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            pokes += 1
            return readyWaiters()
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Whether `condition` holds now; called under the lock.
    private func holds(_ condition: Condition) -> Bool {
        if case .changed(let seen, let poked) = condition {
            return entries.count > seen || pokes > poked
        }
        return Self.holds(condition, in: entries)
    }

    /// Whether `condition` holds for `entries`.
    static func holds(_ condition: Condition, in entries: [Entry]) -> Bool {
        switch condition {
        case .changed(let seen, _):
            return entries.count > seen
        case .settled:
            return isSettled(entries)
        case .processedEvent(let start):
            guard start <= entries.count else { return false }
            return entries[start...].contains { if case .event = $0 { true } else { false } } && isSettled(entries)
        case .operationsEnded(let operations, let start):
            guard start <= entries.count else { return false }
            var ended = Set<UInt64>()
            for entry in entries[start...] {
                if case .operationEnded(let info, _) = entry { ended.insert(info.sequenceNumber) }
            }
            return operations.isSubset(of: ended)
        }
    }

    /// Whether the last record of the event path says that the run waits
    /// for events or has ended (records from operations' tasks do not count).
    static func isSettled(_ entries: [Entry]) -> Bool {
        for entry in entries.reversed() {
            switch entry {
            case .waiting, .ended: return true
            case .operationEnded, .eventRefused: continue
            case .event, .state, .output, .operationStarted: return false
            }
        }
        return false
    }
    /// The inspector that was installed when the tester was made; it sees
    /// every record too.
    private let forward: (any TransducerInspector)?

    init(forwardingTo forward: (any TransducerInspector)?) {
        self.forward = forward
    }

    func record<R: BaseTransducer>(_ record: InspectionRecord<R>, of run: RunID) {
        forward?.record(record, of: run)
        guard let record = record as? InspectionRecord<T> else {
            noteOther(record, of: run)
            return
        }
        let entry: Entry?
        switch record {
        case .event(let event): entry = .event(event)
        case .state(let state): entry = .state(state)
        case .output(let output): entry = .output(output)
        case .effectStarted(let info): entry = info.kind == .operation ? .operationStarted(info) : nil
        case .effectFinished(let info): entry = .operationEnded(info, .finished)
        case .effectCancelled(let info): entry = .operationEnded(info, .cancelled)
        case .effectFailed(let info, let error):
            entry = info.kind == .operation ? .operationEnded(info, .failed(error)) : nil
        case .eventRefused(let info): entry = .eventRefused(info)
        case .intentRefused: entry = nil
        case .waitingForEvents: entry = .waiting
        case .ended(let error): entry = .ended(error)
        }
        if let entry { append(entry) }
    }

    /// What is known of the other runs whose records came here: the runs of
    /// a root's children (they inherit the tester's inspector), by run.
    private var others: [RunID: OtherRun] = [:]

    /// Another run: whether its loop has parked (or ended), and its
    /// operations in flight.
    struct OtherRun {
        var isParked = false
        var operations: [UInt64: EffectInfo] = [:]
    }

    /// Notes a record of another run than the one under test.
    private func noteOther<R: BaseTransducer>(_ record: InspectionRecord<R>, of run: RunID) {
        lock.withLock {
            switch record {
            case .event, .state, .output, .eventRefused, .intentRefused:
                others[run, default: OtherRun()].isParked = false
            case .waitingForEvents:
                others[run, default: OtherRun()].isParked = true
            case .ended:
                others[run] = nil
            case .effectStarted(let info):
                if info.kind == .operation { others[run, default: OtherRun()].operations[info.sequenceNumber] = info }
            case .effectFinished(let info), .effectCancelled(let info), .effectFailed(let info, _):
                others[run]?.operations[info.sequenceNumber] = nil
            }
        }
    }

    /// Whether every other run seen (a root's children) has parked, and the
    /// operations they have in flight.
    var othersAtRest: (areParked: Bool, operations: [EffectInfo]) {
        lock.withLock {
            (
                others.values.allSatisfy(\.isParked),
                others.values.flatMap { $0.operations.values }.sorted { $0.sequenceNumber < $1.sequenceNumber }
            )
        }
    }

    /// The state of the last update, if there was one.
    var lastState: T.State? {
        lock.withLock {
            for entry in entries.reversed() {
                if case .state(let state) = entry { return state }
            }
            return nil
        }
    }

    /// Appends `entry` and resumes the waiters it satisfies.
    private func append(_ entry: Entry) {
        let ready = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            entries.append(entry)
            return readyWaiters()
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Removes and returns the waiters whose condition holds now; called
    /// under the lock.
    private func readyWaiters() -> [CheckedContinuation<Bool, Never>] {
        var ready: [CheckedContinuation<Bool, Never>] = []
        for (id, condition) in conditions {
            guard let continuation = continuations[id] else {
                conditions[id] = nil  // expired
                continue
            }
            guard holds(condition) else { continue }
            ready.append(continuation)
            continuations[id] = nil
            conditions[id] = nil
            pending[id] = nil
        }
        return ready
    }

    /// The entries from `index` on.
    func entries(from index: Int) -> ArraySlice<Entry> {
        lock.withLock { entries[min(index, entries.count)...] }
    }

    /// How many entries there are.
    var count: Int { lock.withLock { entries.count } }

    /// The operations that have started and not ended, in the order they
    /// started.
    var operationsInFlight: [EffectInfo] {
        lock.withLock {
            var started: [UInt64: EffectInfo] = [:]
            var order: [UInt64] = []
            for entry in entries {
                switch entry {
                case .operationStarted(let info):
                    started[info.sequenceNumber] = info
                    order.append(info.sequenceNumber)
                case .operationEnded(let info, _): started[info.sequenceNumber] = nil
                default: break
                }
            }
            return order.compactMap { started[$0] }
        }
    }

    /// Whether the run has ended.
    var hasEnded: Bool {
        lock.withLock {
            if case .ended = entries.last { true } else { false }
        }
    }

    /// Suspends until the run has settled with every event in its channel
    /// processed (`pendingEvents` says how many are left: an event an
    /// operation sent may not have woken the parked loop yet, and the log
    /// then still ends with `waiting`). Each wait lasts at most `timeout`;
    /// events that keep coming are waited for until `deadline`, if given.
    /// Returns whether the run settled.
    func settle(
        pendingEvents: () -> Int, timeout: Duration, until deadline: ContinuousClock.Instant? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        var settled = await wait(for: .settled, timeout: timeout)
        while settled {
            let mark = count
            guard !hasEnded, pendingEvents() > 0 else { break }
            if let deadline, ContinuousClock.now >= deadline { break }
            settled = await wait(for: .processedEvent(after: mark), timeout: timeout)
        }
        return settled
    }

    /// Suspends until `condition` holds, or `timeout` has passed on the
    /// continuous clock. Returns whether it holds.
    ///
    /// Runs on the caller's isolation (a tester's main actor), so that a
    /// wait costs no hop to another thread and back.
    func wait(
        for condition: Condition, timeout: Duration, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        let id = lock.withLock { () -> Int? in
            if holds(condition) { return nil }
            return makeWaiter(timeout: timeout)
        }
        guard let id else { return true }
        // Resumed exactly once: here, if the condition already holds or the
        // wait already expired; otherwise by whoever removes it from
        // `continuations` under the lock (an entry that satisfies it, or the
        // monitor at its deadline).
        return await withCheckedContinuation { continuation in
            let outcome = lock.withLock { () -> Bool? in
                if holds(condition) {
                    pending[id] = nil
                    return true
                }
                if expired.remove(id) != nil {
                    return false
                }
                continuations[id] = continuation
                conditions[id] = condition
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}

/// What can be told that something changed, without its generic type (a
/// `@Sendable` closure may not capture the metatype of a transducer that is
/// not `Sendable`).
protocol Pokable: Sendable {
    func poke()
}

extension RunLog: Pokable {}
