import Atomics
import DequeModule
import Logging

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

/// The state shared by a proxy, its inputs, the run loop and the operation
/// tasks of one run: the bounded FIFO event buffer, the end-of-run request,
/// the parked run loop, and the registry of running operations.
///
/// An implementation detail of the runtime; public only because proxies
/// expose it to the run loop through ``TransducerProxy``.
///
/// Safety (`@unchecked Sendable`): every mutable field lives in `state` and is
/// only touched under its lock. Events are handed over with `sending`
/// semantics: a sender gives up its event, the run loop takes it.
public final class _EventChannel<Event>: @unchecked Sendable {
    @usableFromInline
    typealias Ack = UnsafeContinuation<Void, any Error>

    @usableFromInline
    struct Element {
        @usableFromInline var event: Event
        /// Resumed once the event has been processed (``SyncSuspendingProxy``).
        @usableFromInline var ack: Ack?

        @usableFromInline
        init(event: Event, ack: Ack?) {
            self.event = event
            self.ack = ack
        }
    }

    /// Why a run must stop before reaching a terminal state.
    @usableFromInline
    enum Stop {
        /// `proxy.cancel()`.
        case cancelled
        /// `proxy.cancel(with:)` or a failed operation.
        case failed(any Error)
        /// The task that awaits `run` was cancelled.
        case taskCancelled

        @usableFromInline
        var error: any Error {
            switch self {
            case .cancelled: TransducerError.cancelled
            case .failed(let error): error
            case .taskCancelled: CancellationError()
            }
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var buffer: Deque<Element> = []
        /// Suspended senders (``SyncSuspendingProxy/send(_:)``) that found the
        /// buffer full and wait for room, in the order they came; moved into
        /// the buffer by `refill` as room appears.
        @usableFromInline var overflow: Deque<Element> = []
        /// Set once a run has attached: a proxy serves one run only.
        @usableFromInline var isAttached = false
        /// Set when the input no longer accepts events.
        @usableFromInline var isClosed = false
        /// Set when the run has ended; later stop requests are ignored.
        @usableFromInline var isFinished = false
        /// Set by `finish()`: the run ends once the buffer has drained.
        @usableFromInline var isInputFinished = false
        /// The proxy's identifier, made on first use.
        @usableFromInline var id: UUID?
        @usableFromInline var stop: Stop?
        /// The run loop, parked while the buffer is empty.
        @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
        /// Running operations by sequence number; `nil` while being created.
        @usableFromInline var tasks: [UInt64: Task<Void, Never>?] = [:]
        /// The sequence number of the running operation with a given id.
        @usableFromInline var ids: [EffectID: UInt64] = [:]

        @usableFromInline
        init() {}
    }

    @usableFromInline
    enum SendOutcome {
        case enqueued(UnsafeContinuation<Void, Never>?)
        case failed(TransducerError)
    }

    @usableFromInline
    enum Refill {
        case filled
        case stop(Stop)
        case empty
        /// The input was finished and every event has been taken.
        case drained
    }

    /// How many events the run loop takes per lock at most. Small enough
    /// that task cancellation is noticed promptly, large enough that the lock
    /// is paid once for many events.
    @usableFromInline
    static var batchSize: Int { 64 }

    /// The buffer capacity the proxy was created with (may be invalid).
    @usableFromInline
    let capacity: Int

    @usableFromInline
    let state: LockedState<State>

    /// What the run loop reads before every event without taking the lock,
    /// packed in one atomic word: the stop-request bit (mirrors
    /// `state.stop != nil`; set under the lock) and, below it, how many events
    /// the loop has taken into its batch but not yet started. Taken events
    /// still count against the capacity, so that at most `capacity` events
    /// wait at any time, exactly as if the loop took them one by one. The
    /// loop changes the count without the lock (one relaxed decrement per
    /// event); senders read it under the lock.
    ///
    /// An `UnsafeAtomic` (freed in `deinit`) rather than a `ManagedAtomic`:
    /// `ManagedAtomic` is an open class whose storage address is a dynamically
    /// dispatched generic getter, an indirect call on every access.
    @usableFromInline
    let shared = UnsafeAtomic<Int>.create(0)

    /// The stop-request bit of `shared`.
    @usableFromInline
    static var stopBit: Int { 1 << 62 }

    /// Whether a stop has been requested (relaxed; confirmed under the lock).
    @inlinable
    var isStopRequested: Bool { shared.load(ordering: .relaxed) & Self.stopBit != 0 }

    /// The number of events taken by the loop and not yet started.
    @inlinable
    var takenCount: Int { shared.load(ordering: .relaxed) & (Self.stopBit - 1) }

    init(bufferSize: Int) {
        capacity = bufferSize
        state = LockedState(State())
    }

    deinit {
        shared.destroy()
    }

    // MARK: Senders

    /// Enqueues `event`, waking the run loop if it is parked.
    ///
    /// - Complexity: amortised O(1); one lock.
    @inlinable
    func send(_ event: sending Event, ack: Ack?) throws(TransducerError) {
        let capacity = self.capacity
        let outcome = state.withLock { state -> SendOutcome in
            if state.isClosed { return .failed(.terminated) }
            guard state.buffer.count + takenCount < capacity, state.overflow.isEmpty else {
                return .failed(capacity > 0 ? .bufferFull : .invalidBufferSize(capacity))
            }
            state.buffer.append(Element(event: event, ack: ack))
            let waiter = state.waiter
            state.waiter = nil
            return .enqueued(waiter)
        }
        switch outcome {
        case .enqueued(let waiter):
            waiter?.resume()
        case .failed(let error):
            throw error
        }
    }

    /// Enqueues `event` and suspends until the run loop has processed it.
    /// Throws ``TransducerError/bufferFull`` when the buffer is full.
    func sendAndWait(_ event: sending Event) async throws(TransducerError) {
        // Safety: the closure below runs exactly once, synchronously, and is
        // the only user of `event`, which the caller gave up (`sending`).
        nonisolated(unsafe) let event = event
        do {
            try await withUnsafeThrowingContinuation { (ack: Ack) in
                do {
                    try self.send(event, ack: ack)
                } catch {
                    ack.resume(throwing: error)
                }
            }
        } catch let error as TransducerError {
            throw error
        } catch {
            throw .terminated
        }
    }

    /// Enqueues `event` and suspends until the run loop has processed it,
    /// waiting for room when the buffer is full. When the event cannot be
    /// processed (the run has ended or ends first) it logs why and returns:
    /// the non-throwing `send` of ``SyncSuspendingProxy``.
    func sendAndWaitReportingNothing(_ event: sending Event) async {
        nonisolated(unsafe) let event = event
        do {
            try await withUnsafeThrowingContinuation { (ack: Ack) in
                if let error = self.enqueueWaitingForRoom(event, ack: ack) {
                    ack.resume(throwing: error)
                }
            }
        } catch {
            logger.notice(
                "An event sent with SyncSuspendingProxy.send(_:) was not processed; use checkedSend(_:) to be told.",
                metadata: ["event": "\(Event.self)", "reason": "\(error)"])
        }
    }

    /// Enqueues `event` with its sender's continuation, in the overflow
    /// queue when the buffer is full; returns why it could not.
    private func enqueueWaitingForRoom(_ event: sending Event, ack: Ack) -> TransducerError? {
        let capacity = self.capacity
        nonisolated(unsafe) let event = event
        let outcome = state.withLock { state -> SendOutcome in
            if state.isClosed { return .failed(.terminated) }
            if capacity <= 0 { return .failed(.invalidBufferSize(capacity)) }
            if state.buffer.count + takenCount < capacity, state.overflow.isEmpty {
                state.buffer.append(Element(event: event, ack: ack))
            } else {
                state.overflow.append(Element(event: event, ack: ack))
            }
            let waiter = state.waiter
            state.waiter = nil
            return .enqueued(waiter)
        }
        switch outcome {
        case .enqueued(let waiter):
            waiter?.resume()
            return nil
        case .failed(let error):
            return error
        }
    }

    /// Closes the input and lets the run end once the buffer has drained
    /// (`proxy.finish()`). Does nothing once the input is closed.
    func finishInput() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.isInputFinished = true
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// The proxy's identifier, made on first use.
    var id: UUID {
        state.withLock { state in
            if let id = state.id { return id }
            let id = UUID()
            state.id = id
            return id
        }
    }

    /// Requests the end of the run (proxy cancellation, failed operation).
    /// The first request wins; requests after the end are ignored.
    @usableFromInline
    func stop(_ reason: Stop) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.isFinished, state.stop == nil else { return nil }
            state.stop = reason
            state.isClosed = true
            _ = shared.loadThenBitwiseOr(with: Self.stopBit, ordering: .relaxed)
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    // MARK: Run loop

    /// Claims the channel for one run.
    @inlinable
    func attach() throws(TransducerError) {
        let capacity = self.capacity
        let error = state.withLock { state -> TransducerError? in
            if capacity <= 0 { return .invalidBufferSize(capacity) }
            if state.isAttached { return .proxyAlreadyInUse }
            state.isAttached = true
            return nil
        }
        if let error { throw error }
    }

    /// Moves the next events (at most ``batchSize``) into the run loop's
    /// empty `batch`, or reports the pending stop request (which wins over
    /// buffered events). Events in `batch` count against the capacity until
    /// the loop starts them (see `shared`).
    ///
    /// - Complexity: O(1) when all waiting events fit in one batch (the two
    ///   buffers are swapped), else O(``batchSize``); one lock.
    @inlinable
    func refill(_ batch: inout Deque<Element>) -> Refill {
        state.withLock { state in
            if let stop = state.stop { return .stop(stop) }
            if !state.overflow.isEmpty { Self.admitWaitingSenders(&state, capacity: capacity) }
            if state.buffer.isEmpty { return state.isInputFinished ? .drained : .empty }
            if state.buffer.count <= Self.batchSize {
                swap(&batch, &state.buffer)
            } else {
                for _ in 0..<Self.batchSize {
                    guard let element = state.buffer.popFirst() else { break }
                    batch.append(element)
                }
            }
            shared.wrappingIncrement(by: batch.count, ordering: .relaxed)
            return .filled
        }
    }

    /// Moves senders waiting in `overflow` into the buffer while it has room.
    /// Called by `refill`, when the loop has no taken events.
    @usableFromInline
    static func admitWaitingSenders(_ state: inout State, capacity: Int) {
        while state.buffer.count < capacity, let element = state.overflow.popFirst() {
            state.buffer.append(element)
        }
    }

    /// Parks the run loop until an event or a stop request arrives. Task
    /// cancellation arrives as a stop request (`Stop.taskCancelled`), raised
    /// by the cancellation handler that `run` installs.
    @inlinable
    func waitForActivity(isolation: isolated (any Actor)? = #isolation) async {
        await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if !state.buffer.isEmpty || !state.overflow.isEmpty || state.stop != nil || state.isInputFinished {
                    return true
                }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
    }

    /// Closes the input; later sends throw ``TransducerError/terminated``.
    @inlinable
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Ends the run: closes the input and hands back every registered
    /// operation task and every event not processed: those the loop had
    /// `taken` and those still buffered.
    @inlinable
    func finish(taken: Deque<Element>) -> (tasks: [Task<Void, Never>], unprocessed: [Element]) {
        state.withLock { state in
            state.isClosed = true
            state.isFinished = true
            let tasks = state.tasks.values.compactMap { $0 }
            state.tasks = [:]
            state.ids = [:]
            // Copy only non-empty deques: copying an empty one writes the
            // shared empty-array singleton, which ThreadSanitizer reports when
            // two runs end at the same moment.
            var unprocessed: [Element] = []
            if !taken.isEmpty { unprocessed.append(contentsOf: taken) }
            if !state.buffer.isEmpty { unprocessed.append(contentsOf: state.buffer) }
            if !state.overflow.isEmpty { unprocessed.append(contentsOf: state.overflow) }
            state.buffer = []
            state.overflow = []
            return (tasks, unprocessed)
        }
    }

    // MARK: Operation registry

    /// Registers operation `number` before its task exists; returns the task
    /// of the running operation with the same `id`, which the caller cancels.
    @inlinable
    func reserve(_ number: UInt64, id: EffectID?) -> Task<Void, Never>? {
        state.withLock { state in
            state.tasks[number] = .some(nil)
            guard let id else { return nil }
            return state.ids.updateValue(number, forKey: id).flatMap { state.tasks[$0] ?? nil }
        }
    }

    /// Stores the task of operation `number`, unless it already completed.
    @inlinable
    func activate(_ number: UInt64, task: Task<Void, Never>) {
        state.withLock { state in
            if state.tasks[number] != nil { state.tasks[number] = task }
        }
    }

    /// Removes operation `number` once its task has completed.
    @inlinable
    func complete(_ number: UInt64, id: EffectID?) {
        state.withLock { state in
            state.tasks[number] = nil
            if let id, state.ids[id] == number { state.ids[id] = nil }
        }
    }

    /// Cancels the running operation with `id`, if any (`.cancelTask(id)`).
    /// Its id is forgotten at once; its task stays registered until it
    /// completes, so that the end of the run still awaits it.
    @usableFromInline
    func cancelOperation(id: EffectID) {
        let found = state.withLock { state -> (task: Task<Void, Never>, number: UInt64)? in
            guard let number = state.ids.removeValue(forKey: id),
                let task = state.tasks[number] ?? nil
            else { return nil }
            return (task, number)
        }
        guard let (task, number) = found else { return }
        task.cancel()
        logger.trace("Cancelled operation by id.", metadata: ["id": "\(id)", "effect": "\(number)"])
    }

    /// Whether the input is closed (the run is ending or has ended): used by
    /// operations to decide whether an error is a failure of a live run.
    var isClosed: Bool { state.withLock { $0.isClosed } }
}
