// The storage of one run's event channel: its state machine
// (`EventChannelStateMachine.swift`) behind a lock, plus the one atomic word
// the run loop reads on every event without the lock. Each method asks the
// state machine what to do under the lock and does it (resumes a
// continuation, cancels a task, records a refused event) after releasing it.
// The proxy, its inputs, the run loop and the operation tasks of a run share
// one instance.

import Atomics
import DequeModule
import Logging

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

/// The storage of a run's ``EventChannelStateMachine``: the lock around it, and the
/// atomic word the run loop reads without the lock.
///
/// An implementation detail of the runtime; public only because proxies give
/// it to the run loop (`_ChannelProxy`).
///
/// Safety (`@unchecked Sendable`): the state machine is only touched under
/// its lock, and `shared` is atomic. Events are handed over with `sending`
/// semantics: a sender gives up its event, the run loop takes it.
public final class _EventChannel<Event>: @unchecked Sendable {
    /// Resumed once, when the parked loop is to go on.
    @usableFromInline
    typealias Waiter = UnsafeContinuation<Void, Never>

    /// Resumed once, when a waiting sender's event has been processed (or
    /// will not be).
    @usableFromInline
    typealias Ack = UnsafeContinuation<Void, any Error>

    @usableFromInline
    typealias Machine = EventChannelStateMachine<Event, Waiter, Ack, Task<Void, Never>>

    @usableFromInline
    typealias Element = Machine.Element

    /// The state machine and, set when a run attaches, its inspection (for
    /// the records of refused events).
    @usableFromInline
    struct Locked {
        @usableFromInline var machine: Machine
        @usableFromInline var inspection: RunInspection?
        /// The notices of shared runs the run follows, each queued once
        /// until the loop takes it (``_EventChannel/notify(_:)``): outside
        /// the buffer and its capacity, at most one per registration.
        @usableFromInline var notices: Deque<_ChannelNotice<Event>> = []
        /// Whether the loop's next refill takes a notice before the
        /// buffer's events: after each batch of events, so that neither
        /// starves the other.
        @usableFromInline var noticeTurn = false

        @inlinable
        init(machine: Machine) {
            self.machine = machine
        }
    }

    @usableFromInline
    let state: LockedState<Locked>

    /// What the run loop reads before every event without taking the lock,
    /// packed in one atomic word: the stop-request bit (raised when the state
    /// machine says a stop is pending) and, below it, how many events the
    /// loop has taken into its batch and not yet started. The state machine
    /// counts taken events against the capacity, so that at most `capacity`
    /// events wait at any time, exactly as if the loop took them one by one.
    /// The loop lowers the count without the lock (one relaxed decrement per
    /// event); senders read it under the lock.
    ///
    /// An `UnsafeAtomic` (freed in `deinit`) rather than a `ManagedAtomic`:
    /// `ManagedAtomic` is an open class whose storage address is a dynamically
    /// dispatched generic getter, an indirect call on every access.
    @usableFromInline
    let shared = UnsafeAtomic<Int>.create(0)

    /// The stop-request bit of `shared`.
    @inlinable
    static var stopBit: Int { 1 << 62 }

    /// Whether a stop has been requested (relaxed; confirmed under the lock
    /// by `refill`).
    @inlinable
    var isStopRequested: Bool { shared.load(ordering: .relaxed) & Self.stopBit != 0 }

    /// How many events were sent and not yet started by the loop: buffered,
    /// waiting for room, or taken into the loop's batch. For OakTesting,
    /// which waits until a run has processed everything it was sent.
    package var pendingEvents: Int {
        state.withLock { $0.machine.waitingEvents + $0.notices.count } + takenCount
    }

    /// Whether the run has nothing to do now: no event waits, and its loop
    /// is parked (or no run is attached). For OakTesting, which waits until
    /// a shared run rests.
    package var isIdle: Bool {
        pendingEvents == 0 && state.withLock { $0.machine.isIdle }
    }

    /// The number of events taken by the loop and not yet started.
    @inlinable
    var takenCount: Int { shared.load(ordering: .relaxed) & (Self.stopBit - 1) }

    /// Whether every event sent through this channel waits until it has
    /// been processed (a ``SyncSuspendingProxy``'s): then a child's output
    /// waits too, rather than being offered to the buffer.
    @usableFromInline
    let waitsUntilProcessed: Bool

    init(bufferSize: Int, waitsUntilProcessed: Bool) {
        state = LockedState(Locked(machine: Machine(capacity: bufferSize)))
        self.waitsUntilProcessed = waitsUntilProcessed
    }

    deinit {
        shared.destroy()
    }

    // MARK: Senders

    /// Enqueues `event` from `origin` (`0`: the proxy; else an operation),
    /// waking the run loop if it is parked.
    ///
    /// - Complexity: amortised O(1); one lock.
    @inlinable
    func send(_ event: sending Event, from origin: UInt64 = 0, ack: Ack?) throws(TransducerError) {
        let action = state.withLock { state in
            state.machine.send(
                Element(event: event, ack: ack), from: origin, taken: takenCount, waitingForRoom: false)
        }
        if let error = apply(action, from: origin) { throw error }
    }

    /// Does what the state machine said after a send, the lock released:
    /// wakes the parked loop, or, for a refused event of a cancelled
    /// operation, records the refusal. Returns why the event was refused.
    @inlinable
    func apply(_ action: Machine.SendAction, from origin: UInt64) -> TransducerError? {
        switch action {
        case .enqueued(let waiter):
            waiter?.resume()
            return nil
        case .refused(let error):
            if origin != 0, error == .operationCancelled { recordRefused(from: origin) }
            return error
        }
    }

    /// Enqueues `event` and suspends until the run loop has processed it.
    /// Throws ``TransducerError/bufferFull`` when the buffer is full, and
    /// ``TransducerError/terminated`` when the run ends first.
    func sendAndWait(_ event: sending Event, from origin: UInt64 = 0) async throws(TransducerError) {
        if let error = await enqueueAndWait(event, from: origin, waitingForRoom: false) { throw error }
    }

    /// Enqueues `event` with an acknowledgement and suspends until the run
    /// loop has processed it; with `waitingForRoom`, a full buffer makes it
    /// wait for room rather than refuse the event. Returns why the event was
    /// not processed, or `nil`. Runs on the caller's isolation.
    @inlinable
    func enqueueAndWait(
        _ event: sending Event, from origin: UInt64, waitingForRoom: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) async -> TransducerError? {
        // Safety: the closure below runs exactly once, synchronously, and is
        // the only user of `event`, which the caller gave up (`sending`).
        nonisolated(unsafe) let event = event
        do {
            // Resumed exactly once: at once when refused, else by the loop
            // when the event was processed, or by the end of the run.
            try await withUnsafeThrowingContinuation(isolation: isolation) { (ack: Ack) in
                let action = self.state.withLock { state in
                    state.machine.send(
                        Element(event: event, ack: ack), from: origin, taken: self.takenCount,
                        waitingForRoom: waitingForRoom)
                }
                if let error = self.apply(action, from: origin) { ack.resume(throwing: error) }
            }
            return nil
        } catch let error as TransducerError {
            return error
        } catch {
            return .terminated
        }
    }

    /// Enqueues `event` and suspends until the run loop has processed it,
    /// waiting for room when the buffer is full. When the event cannot be
    /// processed (the run has ended or ends first, or the sending operation
    /// was cancelled) it logs why and returns: the non-throwing `send` of
    /// ``SyncSuspendingProxy``.
    func sendAndWaitReportingNothing(_ event: sending Event, from origin: UInt64 = 0) async {
        if let error = await deliver(event, from: origin, untilProcessed: true) {
            logger.notice(
                "An event sent with SyncSuspendingProxy.send(_:) was not processed; use checkedSend(_:) to be told.",
                metadata: ["event": "\(Event.self)", "reason": "\(error)"])
        }
    }

    /// What ``offer(_:from:)`` did.
    @usableFromInline
    enum Offer: Equatable {
        /// The event was enqueued.
        case enqueued
        /// Nothing was done: the buffer is full.
        case wouldWait
        /// The event was refused for this reason.
        case refused(TransducerError)
    }

    /// Enqueues `event` when the buffer has room; else does nothing and
    /// returns `.wouldWait`.
    @inlinable
    func offer(_ event: Event, from origin: UInt64) -> Offer {
        let action = state.withLock { state -> Machine.SendAction? in
            guard state.machine.hasRoom(taken: takenCount) else { return nil }
            return state.machine.send(
                Element(event: event, ack: nil), from: origin, taken: takenCount, waitingForRoom: false)
        }
        guard let action else { return .wouldWait }
        return apply(action, from: origin).map(Offer.refused) ?? .enqueued
    }

    /// Enqueues `event`; with `untilProcessed`, or when the buffer is full,
    /// waits for room and suspends until the run loop has processed it.
    /// Returns why it was not delivered, or `nil`: the run ended or ends
    /// first (`terminated`), or the sending operation was cancelled
    /// (`operationCancelled`). Runs on the caller's isolation: no hop when
    /// it need not wait.
    @inlinable
    func deliver(
        _ event: sending Event, from origin: UInt64, untilProcessed: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) async -> TransducerError? {
        nonisolated(unsafe) let event = event
        if !untilProcessed {
            switch offer(event, from: origin) {
            case .enqueued: return nil
            case .wouldWait: break  // Full: wait below.
            case .refused(let error): return error
            }
        }
        return await enqueueAndWait(event, from: origin, waitingForRoom: true)
    }

    /// Puts `event` before every buffered event, before a run attaches.
    func prepend(_ event: sending Event) throws(TransducerError) {
        let error = state.withLock { $0.machine.prepend(Element(event: event, ack: nil)) }
        if let error { throw error }
    }

    /// Closes the input and lets the run end once the buffer has drained
    /// (`proxy.finish()`). Does nothing once the input is closed.
    func finishInput() {
        let waiter = state.withLock { $0.machine.finishInput() }
        waiter?.resume()
    }

    /// The proxy's identifier, made on first use.
    var id: UUID {
        state.withLock { $0.machine.identify { UUID() } }
    }

    /// Requests the end of the run (proxy cancellation, failed operation).
    /// The first request wins; requests after the end are ignored.
    @usableFromInline
    func stop(_ reason: RunStop) {
        requestStop { $0.stop(reason) }
    }

    /// The task of run `run` was cancelled: its cancellation handler calls
    /// this, inside `Task.cancel()`. A stop request ordered with the others
    /// under the lock (see ``EventChannelStateMachine/taskCancelled(run:)``).
    @usableFromInline
    func taskCancelled(run: UInt64) {
        requestStop { $0.taskCancelled(run: run) }
    }

    /// Applies a stop request to the state machine and, when it says a stop
    /// is now pending, raises the stop flag — under the lock, so that the
    /// loop that reads the flag and then refills sees the pending stop — and
    /// wakes the parked loop after releasing it.
    @inlinable
    func requestStop(_ request: (inout Machine) -> Machine.StopAction) {
        let action = state.withLock { state -> Machine.StopAction in
            let action = request(&state.machine)
            if case .stopping = action {
                _ = shared.loadThenBitwiseOr(with: Self.stopBit, ordering: .relaxed)
            }
            return action
        }
        if case .stopping(let waiter) = action { waiter?.resume() }
    }

    /// The loop failed with `error` (an output delivery or an effect threw).
    /// Returns what `run` throws: the stop requested first, when one was
    /// (rule 3.3: the ending that happened first decides; an async action
    /// that throws `CancellationError` after `proxy.cancel()` does not turn
    /// `TransducerError.cancelled` into it), else `error`.
    @usableFromInline
    func firstEnding(failingWith error: any Error) -> any Error {
        stop(.failed(error))
        return state.withLock { $0.machine.pendingStop }?.error ?? error
    }

    /// Records an event refused because the operation that sent it was
    /// cancelled (contract 2.7). Out of line: a refusal is rare.
    @usableFromInline
    func recordRefused(from origin: UInt64, id knownID: EffectID? = nil) {
        let (inspection, id) = state.withLock { ($0.inspection, knownID ?? $0.machine.cancelledOperationID(origin)) }
        logger.debug(
            "An event sent by a cancelled operation was refused.",
            metadata: ["event": "\(Event.self)", "operation": "\(origin)"])
        inspection?.recordRefusedEvent(EffectInfo(sequenceNumber: origin, id: id, kind: .operation))
    }

    /// Records an intent refused because the state had left its scope
    /// (``Intent``). Out of line: a refusal is rare.
    @usableFromInline
    func recordRefusedIntent(_ event: Event) {
        let inspection = state.withLock { $0.inspection }
        logger.debug("A stale intent was refused.", metadata: ["event": "\(Event.self)"])
        // Safety: the record hands the event to the inspector, which is
        // `Sendable` and receives records from any isolation; the event is
        // not used again.
        nonisolated(unsafe) let event = event
        inspection?.recordRefusedIntent(event)
    }

    // MARK: Run loop

    /// Claims the channel for run `run`, whose cancellation handler is
    /// already installed. Reads the task's cancellation under the lock:
    /// a task cancelled before now ends the run at once, one cancelled
    /// after finds the run attached (see
    /// ``EventChannelStateMachine/attach(run:taskIsCancelled:)``).
    @inlinable
    func attach(inspection: RunInspection?, run: UInt64) throws(TransducerError) {
        let action = state.withLock { state in
            let action = state.machine.attach(run: run, taskIsCancelled: Task.isCancelled)
            switch action {
            case .attached:
                state.inspection = inspection
            case .attachedStopping:
                state.inspection = inspection
                _ = shared.loadThenBitwiseOr(with: Self.stopBit, ordering: .relaxed)
            case .refused:
                break
            }
            return action
        }
        if case .refused(let error) = action { throw error }
    }

    /// Moves the next events into the run loop's empty `batch`, or reports
    /// the pending stop request (see ``EventChannelStateMachine/refill(into:)``).
    /// Events in `batch` count against the capacity until the loop starts
    /// them (see `shared`).
    ///
    /// A queued notice (``notify(_:)``) is taken when nothing is buffered,
    /// and after each batch of events: `.notice`, one at a time, outside
    /// the batch and its count.
    @inlinable
    func refill(_ batch: inout Deque<Element>) -> Machine.RefillAction {
        state.withLock { state in
            if state.noticeTurn, !state.notices.isEmpty, state.machine.isOpen {
                return Self.takeNotice(&state)
            }
            let action = state.machine.refill(into: &batch)
            switch action {
            case .filled:
                shared.wrappingIncrement(by: batch.count, ordering: .relaxed)
                state.noticeTurn = true
            case .empty where !state.notices.isEmpty:
                return Self.takeNotice(&state)
            case .drained, .stop:
                Self.dropNotices(&state)
            case .empty, .notice:
                break
            }
            return action
        }
    }

    /// The first queued notice, taken: it may be queued again from now on
    /// (a change after this point is told again). Under the lock.
    @usableFromInline
    static func takeNotice(_ state: inout Locked) -> Machine.RefillAction {
        state.noticeTurn = false
        let notice = state.notices.removeFirst()
        notice.isQueued = false
        return .notice(Element(event: notice.event, ack: nil))
    }

    /// Forgets the queued notices: the run ends. Under the lock.
    @usableFromInline
    static func dropNotices(_ state: inout Locked) {
        for notice in state.notices { notice.isQueued = false }
        state.notices.removeAll()
    }

    /// Queues `notice` for the loop, unless it is queued already, and wakes
    /// the loop if it is parked. Never refused for a full buffer: a notice
    /// takes no room (at most one waits per registration). Returns `false`
    /// once the input takes no more events (the run ended or is ending):
    /// the registration then ends.
    func notify(_ notice: _ChannelNotice<Event>) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, Waiter?) in
            guard state.machine.acceptsEvents else { return (false, nil) }
            guard !notice.isQueued else { return (true, nil) }
            notice.isQueued = true
            state.notices.append(notice)
            return (true, state.machine.unpark())
        }
        waiter?.resume()
        return accepted
    }

    /// Parks the run loop until an event or a stop request arrives. Task
    /// cancellation arrives as a stop request (``taskCancelled(run:)``),
    /// raised by the cancellation handler that `run` installs.
    @inlinable
    func waitForActivity(isolation: isolated (any Actor)? = #isolation) async {
        // Resumed exactly once: here when something is already waiting, else
        // by the sender, `finish()` or stop request that the state machine
        // hands it to.
        await withUnsafeContinuation(isolation: isolation) { (waiter: Waiter) in
            let action = state.withLock { state in
                state.notices.isEmpty ? state.machine.park(waiter) : .resume(waiter)
            }
            if case .resume(let waiter) = action {
                waiter.resume()
            }
        }
    }

    /// Closes the input (the state became terminal); later sends throw
    /// ``TransducerError/terminated``.
    @inlinable
    func close() {
        state.withLock { $0.machine.close() }
    }

    /// Ends the run: hands back every registered operation task and every
    /// event not processed, those the loop had `taken` and those still
    /// buffered or waiting for room.
    @inlinable
    func finish(taken: Deque<Element>) -> Machine.FinishAction {
        state.withLock { state in
            Self.dropNotices(&state)
            return state.machine.finish(taken: taken)
        }
    }

    /// Whether the input still accepts events: an operation that fails once
    /// it does not is not a failure of the run.
    var acceptsEvents: Bool { state.withLock { $0.machine.acceptsEvents } }

    // MARK: Operation registry

    /// Registers operation `number` before its task exists, and cancels the
    /// running operation with the same `id`, which it replaces. Returns the
    /// replaced operation (its number and id), if there was one, for the loop
    /// to remove the events of it that it has already taken.
    @inlinable
    func reserve(_ number: UInt64, id: EffectID?) -> CancelledOperation? {
        guard let replaced = state.withLock({ $0.machine.reserveOperation(number, id: id) }) else { return nil }
        return cancelled(replaced)
    }

    /// Refuses the events a cancelled operation had sent that were still
    /// buffered, then cancels its task. Returns the operation, for the loop
    /// to remove the events of it that it has already taken.
    @usableFromInline
    func cancelled(_ cancellation: Machine.Cancellation) -> CancelledOperation {
        for element in cancellation.purged {
            refuse(element, from: cancellation.number, id: cancellation.id)
        }
        cancellation.task?.cancel()
        return CancelledOperation(number: cancellation.number, id: cancellation.id)
    }

    /// Refuses a buffered event of an operation that was cancelled after it
    /// sent it: the event never reaches `update`; its sender, if it waits,
    /// gets ``TransducerError/operationCancelled``.
    @usableFromInline
    func refuse(_ element: Element, from number: UInt64, id: EffectID) {
        element.ack?.resume(throwing: TransducerError.operationCancelled)
        recordRefused(from: number, id: id)
    }

    /// Removes from the loop's `batch` the events of `operations`, which
    /// the loop has just cancelled, and refuses them.
    ///
    /// - Complexity: O(`batch.count` × `operations.count`); called only
    ///   after an effect cancelled an operation.
    @usableFromInline
    func removeEvents(of operations: [CancelledOperation], from batch: inout Deque<Element>) {
        func cancelled(_ element: Element) -> CancelledOperation? {
            element.origin == 0 ? nil : operations.first { element.isFrom($0.number) }
        }
        guard batch.contains(where: { cancelled($0) != nil }) else { return }
        var kept = Deque<Element>()
        var removed = 0
        for element in batch {
            if let operation = cancelled(element) {
                refuse(element, from: operation.number, id: operation.id)
                removed += 1
            } else {
                kept.append(element)
            }
        }
        batch = kept
        shared.wrappingDecrement(by: removed, ordering: .relaxed)
    }

    /// Stores the task of operation `number`; cancels it when the operation
    /// was cancelled while its task was being created.
    @inlinable
    func activate(_ number: UInt64, task: Task<Void, Never>) {
        let cancelled = state.withLock { $0.machine.activateOperation(number, task: task) }
        cancelled?.cancel()
    }

    /// Forgets operation `number`, started with `id`, once its task has
    /// completed.
    @inlinable
    func complete(_ number: UInt64, id: EffectID?) {
        state.withLock { $0.machine.completeOperation(number, id: id) }
    }

    /// Cancels the running operation with `id`, if any (`.cancelTask(id)`),
    /// and returns its number.
    @usableFromInline
    func cancelOperation(id: EffectID) -> CancelledOperation? {
        guard let cancellation = state.withLock({ $0.machine.cancelOperation(id: id) }) else { return nil }
        logger.trace("Cancelled operation by id.", metadata: ["id": "\(id)"])
        return cancelled(cancellation)
    }
}

/// An operation an effect has just cancelled: the loop drops the events of
/// it that it has already taken.
@usableFromInline
struct CancelledOperation {
    @usableFromInline let number: UInt64
    @usableFromInline let id: EffectID

    @usableFromInline
    init(number: UInt64, id: EffectID) {
        self.number = number
        self.id = id
    }
}

/// A notice that a run follows a shared run by (``SharedRun/notify(_:with:)``):
/// the event it sends, and whether it waits in the channel to be taken.
///
/// An implementation detail of the runtime. Safety (`@unchecked Sendable`):
/// `isQueued` is read and written only under the lock of the one channel
/// the notice is for; `event` is immutable and `Sendable`.
public final class _ChannelNotice<Event>: @unchecked Sendable {
    @usableFromInline let event: Event
    @usableFromInline var isQueued = false

    init(event: Event) {
        self.event = event
    }
}
