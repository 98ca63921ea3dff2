// The pure state machine of one run's event channel: its lifecycle, its
// bounded event buffer, the senders waiting for room, the parked run loop and
// the registry of running operations. It takes every decision and performs
// none: no lock, no continuation resumed, no task cancelled. Its storage is
// `_EventChannel` (`EventChannel.swift`), which holds it behind a lock, calls
// one mutating method per thing that happens and does what the method returns
// after releasing the lock. The methods that are events are named for what
// happened (`send`, `finishInput`, `stop`, `taskCancelled`, …); those that are
// the run loop's or an operation's commands are named for what they ask
// (`refill`, `park`, `identify`, `markCancelled`). Read `Lifecycle` first.
//
// Where the state lives. `Lifecycle` says where the run is and what its input
// accepts; every transition is a match on it. The other stored properties
// (buffer, overflow, parked loop, operations and their ids, the proxy's id,
// the run's ticket) are fields beside it, not payloads of its cases, because
// each outlives more than one case (events are buffered before a run attaches
// and while it runs; operations are awaited after a stop) and because a Deque
// or Dictionary inside an enum payload cannot be mutated in place without
// moving it out of the case and back, on every send. The one count that is
// not here at all is how many events the loop has taken into its batch and
// not started: the loop lowers it on every event without the lock, so it is
// an atomic word of the storage (`_EventChannel.shared`), and each method
// that needs it receives it as `taken:`.

import DequeModule

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

/// Why a run must end before reaching a terminal state.
@usableFromInline
enum RunStop {
    /// `proxy.cancel()`.
    case cancelled
    /// `proxy.cancel(with:)` or a failed operation.
    case failed(any Error)
    /// The task that awaits `run` was cancelled.
    case taskCancelled

    /// The error `run` throws.
    @usableFromInline
    var error: any Error {
        switch self {
        case .cancelled: TransducerError.cancelled
        case .failed(let error): error
        case .taskCancelled: CancellationError()
        }
    }
}

/// The state of one run's event channel, as a value.
///
/// Generic over the handles it keeps but never uses: the parked run loop
/// (`Waiter`), the acknowledgement of a sender that waits until its event
/// has been processed (`Ack`) and an operation's task (`Task`). The runtime
/// instantiates it with continuations and tasks; its tests with plain values.
///
/// Invariants (checked after every transition when the module is built with
/// `OAK_INTERNAL_CHECKS`, which debug builds define):
/// - buffered + taken ≤ capacity, where *taken* counts the events the run
///   loop has moved into its batch but not started yet;
/// - the loop is parked only while attached, with nothing buffered or waiting
///   for room, and with an input that is open or closed (a draining or
///   stopping input wakes it);
/// - every operation id names a registered operation that was not cancelled;
/// - operations are registered only while a run is attached;
/// - a finished channel holds no event, no sender, no loop and no operation.
@usableFromInline
struct EventChannelStateMachine<Event, Waiter, Ack, Task> {
    /// Where the run is. A channel goes from `unattached` to `attached` (when
    /// `run` starts) to `finished` (when `run` returns), never back.
    @usableFromInline
    enum Lifecycle {
        /// No run has attached yet. Events sent now wait in the buffer;
        /// `finish()` and `cancel()` are kept for the run to come.
        case unattached(Input)
        /// A run is attached and processes events.
        case attached(Input)
        /// The run has ended: nothing is accepted, nothing is processed.
        case finished
    }

    /// What the input accepts, and how the run is to end.
    @usableFromInline
    enum Input {
        /// Accepts events.
        case open
        /// `finish()` was called: no more events are accepted; the run ends
        /// once the buffered events have been processed.
        case draining
        /// A stop was requested (`cancel`, a failed operation, task
        /// cancellation): no more events are accepted; the run ends before
        /// it processes another event.
        case stopping(RunStop)
        /// The state became terminal: no more events are accepted; the run
        /// executes its last effect and ends.
        case closed
    }

    /// A buffered event, who sent it and, for a sender that waits until its
    /// event has been processed, its acknowledgement.
    @usableFromInline
    struct Element {
        /// The sender: `0` for the proxy, else the low 32 bits of an
        /// operation's number (see ``tag(_:)``). The events of an operation
        /// that is cancelled are taken out of the buffer: they never reach
        /// `update`. First and 32 bits wide so that an element with a small
        /// event stays 16 bytes: a million buffered events are 16 MB, not 24.
        @usableFromInline var origin: UInt32
        @usableFromInline var event: Event
        @usableFromInline var ack: Ack?

        @inlinable
        init(event: Event, ack: Ack?, origin: UInt64 = 0) {
            self.origin = EventChannelStateMachine.tag(origin)
            self.event = event
            self.ack = ack
        }

        /// Whether operation `number` sent this event.
        @inlinable
        func isFrom(_ number: UInt64) -> Bool {
            origin != 0 && origin == EventChannelStateMachine.tag(number)
        }
    }

    /// The tag an element keeps of operation number `origin`: its low 32
    /// bits, never `0` for an operation. Two operations share a tag only if
    /// 2³² operations start while an event of the first waits in the buffer.
    @inlinable
    static func tag(_ origin: UInt64) -> UInt32 {
        let low = UInt32(truncatingIfNeeded: origin)
        return origin != 0 && low == 0 ? 1 : low
    }

    /// An operation was cancelled (`.cancelTask`, or replaced by one with
    /// the same id).
    @usableFromInline
    struct Cancellation {
        /// The operation's number.
        @usableFromInline var number: UInt64
        /// The id it was started with.
        @usableFromInline var id: EffectID
        /// Its task, when it has one: cancel it.
        @usableFromInline var task: Task?
        /// The events it had sent that were still buffered or waiting for
        /// room, now removed: fail their acknowledgements and count them as
        /// refused. Events the loop has already taken are removed by the
        /// loop (``Element/origin``).
        @usableFromInline var purged: [Element]

        @inlinable
        init(number: UInt64, id: EffectID, task: Task?, purged: [Element]) {
            self.number = number
            self.id = id
            self.task = task
            self.purged = purged
        }
    }

    /// A registered operation. Small on purpose (a task reference): it is
    /// looked up for every event an operation sends.
    @usableFromInline
    enum Operation {
        /// Registered; its task is being created (its first part may
        /// already run).
        case starting
        /// Running in `task`.
        case running(Task)
        /// Cancelled by `.cancelTask` or replaced by an operation with the
        /// same `id`, and not returned yet: its events are refused, and the
        /// end of the run still awaits its task.
        case cancelled(Task?, id: EffectID)
    }

    /// Identifies the sender of an event: `0` for the proxy, its inputs and
    /// actions; an operation's sequence number (from 1) for the input that
    /// operation received.
    @usableFromInline
    typealias Origin = UInt64

    /// How many events may wait at most (the proxy's buffer size). Not
    /// positive means the proxy was created with an invalid size: every send
    /// and `run` report it.
    @usableFromInline let capacity: Int
    @usableFromInline private(set) var lifecycle: Lifecycle = .unattached(.open)
    /// Events waiting to be taken by the run loop, in FIFO order.
    @usableFromInline private(set) var buffer: Deque<Element> = []
    /// Senders that wait for room (`SyncSuspendingProxy.send`), in the order
    /// they came; admitted into the buffer as the loop takes events.
    @usableFromInline private(set) var overflow: Deque<Element> = []
    /// The run loop, parked while there is nothing to do.
    @usableFromInline private(set) var waiter: Waiter?
    /// Registered operations by sequence number.
    @usableFromInline private(set) var operations: [UInt64: Operation] = [:]
    /// The sequence number of the live operation with a given id.
    @usableFromInline private(set) var operationIDs: [EffectID: UInt64] = [:]
    /// The proxy's identifier, made on first use.
    @usableFromInline private(set) var proxyID: UUID?
    /// The ticket of the attached run (``attach(run:taskIsCancelled:)``):
    /// only that run's task cancellation stops it. Not part of `Lifecycle`
    /// so that the loop's matches on it stay small; `0` before a run
    /// attaches.
    @usableFromInline private(set) var run: UInt64 = 0

    @inlinable
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many events the run loop takes per refill at most. Small enough
    /// that a stop request is noticed promptly, large enough that the lock is
    /// taken once for many events.
    @inlinable
    static var batchSize: Int { 64 }

    // MARK: - Senders

    /// What a sender does after `send`.
    @usableFromInline
    enum SendAction {
        /// The event was buffered (or, for a sender that waits for room,
        /// queued); resume the parked loop, if any.
        case enqueued(resume: Waiter?)
        /// The event was refused for this reason; nothing was enqueued.
        case refused(TransducerError)
    }

    /// A sender offers `element`.
    ///
    /// - Parameters:
    ///   - origin: Who sends: the proxy (`0`) or an operation. An operation
    ///     that was cancelled or replaced is refused
    ///     (``TransducerError/operationCancelled``).
    ///   - taken: How many events the loop has taken and not started; they
    ///     count against the capacity.
    ///   - waitingForRoom: `true` for a sender that waits for room when the
    ///     buffer is full instead of being refused.
    /// - Complexity: amortised O(1); one dictionary lookup for an operation.
    @inlinable
    mutating func send(_ element: Element, from origin: Origin, taken: Int, waitingForRoom: Bool) -> SendAction {
        defer { checkInvariants(taken: taken) }
        switch lifecycle {
        case .unattached(.open), .attached(.open):
            break
        default:
            return .refused(.terminated)
        }
        if origin != 0, case .cancelled? = operations[origin] {
            return .refused(.operationCancelled)
        }
        if capacity <= 0 { return .refused(.invalidBufferSize(capacity)) }
        var element = element
        element.origin = Self.tag(origin)
        if buffer.count + taken < capacity, overflow.isEmpty {
            buffer.append(element)
        } else if waitingForRoom {
            overflow.append(element)
        } else {
            return .refused(.bufferFull)
        }
        let waiter = self.waiter
        self.waiter = nil
        return .enqueued(resume: waiter)
    }

    /// An event that must come before every event already buffered, sent
    /// before the run attaches (the event a restored state starts with).
    /// Accepted while no run is attached and no stop is pending, also after
    /// `finish()`; refused when the buffer is full.
    @inlinable
    mutating func prepend(_ element: Element) -> TransducerError? {
        defer { checkInvariants() }
        switch lifecycle {
        case .unattached(.open), .unattached(.draining):
            break
        default:
            return .terminated
        }
        if capacity <= 0 { return .invalidBufferSize(capacity) }
        guard buffer.count < capacity else { return .bufferFull }
        buffer.prepend(element)
        return nil
    }

    /// `finish()`: the input closes and the run ends once the buffer has
    /// drained. Returns the parked loop to resume. Nothing happens once the
    /// input is no longer open.
    @inlinable
    mutating func finishInput() -> Waiter? {
        defer { checkInvariants() }
        switch lifecycle {
        case .unattached(.open):
            lifecycle = .unattached(.draining)
            return nil
        case .attached(.open):
            lifecycle = .attached(.draining)
            let waiter = self.waiter
            self.waiter = nil
            return waiter
        default:
            return nil
        }
    }

    /// What the storage does after a stop request.
    @usableFromInline
    enum StopAction {
        /// The request came too late (a stop is already pending, the state
        /// is terminal, or the run has ended): nothing to do.
        case ignored
        /// The run is to stop: raise the stop flag the loop reads without the
        /// lock, and resume the parked loop, if any.
        case stopping(resume: Waiter?)
    }

    /// A stop was requested: `cancel`, a failed operation or task
    /// cancellation. The first request wins.
    @inlinable
    mutating func stop(_ reason: RunStop) -> StopAction {
        defer { checkInvariants() }
        switch lifecycle {
        case .unattached(.open), .unattached(.draining):
            lifecycle = .unattached(.stopping(reason))
            return .stopping(resume: nil)
        case .attached(.open), .attached(.draining):
            lifecycle = .attached(.stopping(reason))
            let waiter = self.waiter
            self.waiter = nil
            return .stopping(resume: waiter)
        default:
            return .ignored
        }
    }

    /// Whether a send would find room in the buffer now (`taken`: the
    /// events the loop has taken and not started).
    @inlinable
    func hasRoom(taken: Int) -> Bool {
        buffer.count + taken < capacity && overflow.isEmpty
    }

    /// How many events wait in the buffer or for room.
    @inlinable
    var waitingEvents: Int { buffer.count + overflow.count }

    /// Whether no run processes events now: the loop is parked, or no run
    /// is attached (or it has ended).
    var isIdle: Bool {
        if case .attached = lifecycle { return waiter != nil }
        return true
    }

    /// The proxy's identifier, made with `make` on first use.
    @inlinable
    mutating func identify(_ make: () -> UUID) -> UUID {
        if let proxyID { return proxyID }
        let id = make()
        proxyID = id
        return id
    }

    // MARK: - Run loop

    /// What the storage does after `attach`.
    @usableFromInline
    enum AttachAction: Equatable {
        /// The run is attached and processes events.
        case attached
        /// The run is attached and must end at once: a stop is pending (a
        /// stop requested before the run, or its task cancelled before it
        /// started): raise the stop flag.
        case attachedStopping
        /// The run cannot start: a proxy serves one run only, and its buffer
        /// size must be positive.
        case refused(TransducerError)
    }

    /// The run with ticket `run` starts with this channel; `taskIsCancelled`
    /// says whether its task had been cancelled by then.
    ///
    /// The run's cancellation handler is installed before it attaches, so
    /// that every cancellation of its task after this moment is a
    /// ``taskCancelled(run:)`` ordered with the other stop requests. A
    /// cancellation before it cannot be ordered: nothing of the run ran on
    /// the task yet to see when it happened. Such a run ends with the task's
    /// cancellation, also when a stop was requested before it started, as
    /// any Swift API called in a cancelled task throws `CancellationError`.
    @inlinable
    mutating func attach(run: UInt64, taskIsCancelled: Bool) -> AttachAction {
        defer { checkInvariants() }
        if capacity <= 0 { return .refused(.invalidBufferSize(capacity)) }
        guard case .unattached(let input) = lifecycle else { return .refused(.proxyAlreadyInUse) }
        self.run = run
        if taskIsCancelled {
            lifecycle = .attached(.stopping(.taskCancelled))
            return .attachedStopping
        }
        lifecycle = .attached(input)
        if case .stopping = input { return .attachedStopping }
        return .attached
    }

    /// The task of the run with ticket `run` was cancelled (its cancellation
    /// handler ran). A stop request like the others, when that run is the
    /// attached one; ignored before it attached (``attach(run:taskIsCancelled:)``
    /// reads the cancellation then) and for another run's ticket (a second
    /// run refused with `proxyAlreadyInUse`).
    @inlinable
    mutating func taskCancelled(run: UInt64) -> StopAction {
        guard case .attached = lifecycle, self.run == run else { return .ignored }
        return stop(.taskCancelled)
    }

    /// The stop requested, while one is pending and the run has not ended.
    @inlinable
    var pendingStop: RunStop? {
        switch lifecycle {
        case .unattached(.stopping(let stop)), .attached(.stopping(let stop)): stop
        default: nil
        }
    }

    /// What the loop does after `refill`.
    @usableFromInline
    enum RefillAction {
        /// Events were moved into the batch.
        case filled
        /// A stop is pending: end the run with its error. It wins over
        /// buffered events.
        case stop(RunStop)
        /// Nothing to take: park.
        case empty
        /// The input was finished and every event has been taken: end.
        case drained
        /// A notice of a shared run the loop follows
        /// (``SharedRun/notify(_:with:)``): process its event, outside the
        /// batch and the capacity. Given by the channel, never by the
        /// machine, which knows nothing of notices.
        case notice(Element)
    }

    /// The loop, its batch empty, takes the next events (at most
    /// ``batchSize``) into `batch`; senders waiting for room are admitted
    /// into the buffer first.
    ///
    /// - Complexity: O(1) when all waiting events fit in one batch (the two
    ///   deques are swapped), else O(``batchSize``).
    @inlinable
    mutating func refill(into batch: inout Deque<Element>) -> RefillAction {
        defer { checkInvariants(taken: batch.count) }
        switch lifecycle {
        case .attached(.stopping(let stop)):
            return .stop(stop)
        case .attached(.open), .attached(.draining):
            break
        case .attached(.closed), .unattached, .finished:
            // The loop refills only while attached and not yet closed.
            internalCheck(false, "refill outside a running run")
            return .drained
        }
        if !overflow.isEmpty { admitWaitingSenders() }
        if buffer.isEmpty {
            if case .attached(.draining) = lifecycle { return .drained }
            return .empty
        }
        if buffer.count <= Self.batchSize {
            swap(&batch, &buffer)
        } else {
            for _ in 0..<Self.batchSize {
                guard let element = buffer.popFirst() else { break }
                batch.append(element)
            }
        }
        return .filled
    }

    /// Moves senders waiting for room into the buffer while it has room.
    /// Called when the loop's batch is empty.
    @usableFromInline
    mutating func admitWaitingSenders() {
        while buffer.count < capacity, let element = overflow.popFirst() {
            buffer.append(element)
        }
    }

    /// The parked loop, taken out to be woken by something that is not an
    /// event of the buffer (a notice); `nil` when it is not parked.
    @inlinable
    mutating func unpark() -> Waiter? {
        defer { waiter = nil }
        return waiter
    }

    /// Whether the run is attached and its input open: the loop takes
    /// notices only then.
    @inlinable
    var isOpen: Bool {
        if case .attached(.open) = lifecycle { return true }
        return false
    }

    /// What the loop does after offering to park.
    @usableFromInline
    enum ParkAction {
        /// Something arrived meanwhile: resume at once.
        case resume(Waiter)
        /// Parked: a sender, `finish()` or a stop request resumes it.
        case parked
    }

    /// The loop found nothing to do and offers to park with `waiter`.
    @inlinable
    mutating func park(_ waiter: Waiter) -> ParkAction {
        defer { checkInvariants() }
        guard case .attached(.open) = lifecycle, buffer.isEmpty, overflow.isEmpty else {
            return .resume(waiter)
        }
        self.waiter = waiter
        return .parked
    }

    /// The state became terminal: the input closes; the run executes the
    /// last effect and ends.
    @inlinable
    mutating func close() {
        defer { checkInvariants() }
        if case .attached = lifecycle { lifecycle = .attached(.closed) }
    }

    /// What the end of a run leaves to clean up.
    @usableFromInline
    struct FinishAction {
        /// The tasks of the operations still registered: cancel them and
        /// await them.
        @usableFromInline var tasks: [Task]
        /// The events not processed (taken by the loop, buffered, or waiting
        /// for room): fail their senders' acknowledgements.
        @usableFromInline var unprocessed: [Element]

        @inlinable
        init(tasks: [Task], unprocessed: [Element]) {
            self.tasks = tasks
            self.unprocessed = unprocessed
        }
    }

    /// The run ended; `taken` are the events its loop had taken but not
    /// processed.
    @inlinable
    mutating func finish(taken: Deque<Element>) -> FinishAction {
        defer { checkInvariants() }
        lifecycle = .finished
        var tasks: [Task] = []
        if !operations.isEmpty {
            tasks.reserveCapacity(operations.count)
            for operation in operations.values {
                switch operation {
                case .starting, .cancelled(nil, _): break
                case .running(let task), .cancelled(let task?, _): tasks.append(task)
                }
            }
            operations = [:]
            operationIDs = [:]
        }
        // Copy only non-empty deques: copying an empty one writes the shared
        // empty-array singleton, which ThreadSanitizer reports when two runs
        // end at the same moment.
        var unprocessed: [Element] = []
        if !taken.isEmpty { unprocessed.append(contentsOf: taken) }
        if !buffer.isEmpty {
            unprocessed.append(contentsOf: buffer)
            buffer = []
        }
        if !overflow.isEmpty {
            unprocessed.append(contentsOf: overflow)
            overflow = []
        }
        waiter = nil
        return FinishAction(tasks: tasks, unprocessed: unprocessed)
    }

    /// Whether events are still accepted. An operation that fails once its
    /// run no longer accepts events is not a failure of the run.
    @inlinable
    var acceptsEvents: Bool {
        switch lifecycle {
        case .unattached(.open), .attached(.open): true
        default: false
        }
    }

    // MARK: - Operations

    /// Operation `number` is about to start. Returns the cancellation of the
    /// running operation with the same `id`, which it replaces.
    @inlinable
    mutating func reserveOperation(_ number: UInt64, id: EffectID?) -> Cancellation? {
        defer { checkInvariants() }
        guard case .attached = lifecycle else {
            internalCheck(false, "an operation started outside a run")
            return nil
        }
        operations[number] = .starting
        guard let id, let replaced = operationIDs.updateValue(number, forKey: id) else { return nil }
        return markCancelled(replaced, id: id)
    }

    /// The task of operation `number` exists. Returns it again when the
    /// operation was cancelled while its task was being created: cancel it.
    @inlinable
    mutating func activateOperation(_ number: UInt64, task: Task) -> Task? {
        defer { checkInvariants() }
        switch operations[number] {
        case .starting:
            operations[number] = .running(task)
            return nil
        case .cancelled(nil, let id):
            operations[number] = .cancelled(task, id: id)
            return task
        case .running, .cancelled(_?, _):
            internalCheck(false, "an operation activated twice")
            return nil
        case nil:
            // It already returned (it ran to its end before its task handle
            // was stored), or the run has ended.
            return nil
        }
    }

    /// Operation `number`, started with `id`, returned (or threw): forget
    /// it and free its id.
    @inlinable
    mutating func completeOperation(_ number: UInt64, id: EffectID?) {
        defer { checkInvariants() }
        guard operations.removeValue(forKey: number) != nil else { return }
        if let id, operationIDs[id] == number {
            operationIDs[id] = nil
        }
    }

    /// `.cancelTask(id)`. Returns the cancellation, if an operation with
    /// `id` runs. The operation stays registered until it returns, so that
    /// the end of the run still awaits it; its events are refused from now
    /// on, and those still buffered are removed.
    @inlinable
    mutating func cancelOperation(id: EffectID) -> Cancellation? {
        defer { checkInvariants() }
        guard let number = operationIDs.removeValue(forKey: id) else { return nil }
        return markCancelled(number, id: id)
    }

    /// Marks operation `number`, started with `id`, cancelled; returns its
    /// task, if it has one.
    @usableFromInline
    mutating func markCancelled(_ number: UInt64, id: EffectID) -> Cancellation? {
        let task: Task?
        switch operations[number] {
        case .starting:
            task = nil
        case .running(let running):
            task = running
        case .cancelled, nil:
            return nil
        }
        operations[number] = .cancelled(task, id: id)
        var purged: [Element] = []
        if !buffer.isEmpty { Self.remove(from: number, in: &buffer, into: &purged) }
        if !overflow.isEmpty { Self.remove(from: number, in: &overflow, into: &purged) }
        return Cancellation(number: number, id: id, task: task, purged: purged)
    }

    /// Moves the events of operation `origin` out of `events` into `removed`,
    /// keeping the order of the others.
    ///
    /// - Complexity: O(`events.count`); nothing is copied when `origin`
    ///   sent none of them.
    @inlinable
    static func remove(from origin: UInt64, in events: inout Deque<Element>, into removed: inout [Element]) {
        guard events.contains(where: { $0.isFrom(origin) }) else { return }
        var kept = Deque<Element>()
        kept.reserveCapacity(events.count)
        for element in events {
            if element.isFrom(origin) {
                removed.append(element)
            } else {
                kept.append(element)
            }
        }
        events = kept
    }

    /// The id of operation `number`, while it is registered as cancelled
    /// (the only operations whose events are refused).
    @inlinable
    func cancelledOperationID(_ number: UInt64) -> EffectID? {
        if case .cancelled(_, let id)? = operations[number] { return id }
        return nil
    }

    // MARK: - Invariants

    /// Checks the invariants listed on the type; `taken` is the number of
    /// events the loop holds, when the caller knows it.
    @inlinable
    func checkInvariants(taken: Int = 0) {
        #if OAK_INTERNAL_CHECKS
        if capacity <= 0 {
            internalCheck(buffer.isEmpty && overflow.isEmpty, "events buffered with an invalid capacity")
        } else {
            internalCheck(buffer.count + taken <= capacity, "buffered + taken exceeds the capacity")
        }
        switch lifecycle {
        case .unattached:
            internalCheck(waiter == nil, "a parked loop before the run attached")
            internalCheck(operations.isEmpty, "an operation before the run attached")
        case .attached(let input):
            if waiter != nil {
                internalCheck(buffer.isEmpty && overflow.isEmpty, "the loop parked with events waiting")
                switch input {
                case .open, .closed: break
                case .draining, .stopping: internalCheck(false, "the loop parked with an ending pending")
                }
            }
        case .finished:
            internalCheck(buffer.isEmpty && overflow.isEmpty, "events left after the end")
            internalCheck(waiter == nil, "a parked loop after the end")
            internalCheck(operations.isEmpty && operationIDs.isEmpty, "operations left after the end")
        }
        for (id, number) in operationIDs {
            guard let operation = operations[number] else {
                internalCheck(false, "id \(id) names no operation")
                continue
            }
            if case .cancelled = operation {
                internalCheck(false, "id \(id) names a cancelled operation")
            }
        }
        #endif
    }
}

/// Stops with a message when an internal invariant of the runtime is broken:
/// a bug of the runtime, never a consequence of input or misuse. Compiled only
/// with `OAK_INTERNAL_CHECKS` (debug builds of this package).
@inlinable
@inline(__always)
func internalCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    #if OAK_INTERNAL_CHECKS
    if !condition() {
        preconditionFailure("Oak internal invariant broken: \(message())", file: file, line: line)
    }
    #endif
}
