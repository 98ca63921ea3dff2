// The run loop every `run` overload shares: it attaches to the run's storage
// (`EventChannel.swift`), takes events in batches, steps the transducer —
// `update`, the output, the effect (`EffectExecution.swift`) — and, at the
// end, closes the input and cancels and awaits the operations still running.

import Atomics
import DequeModule

/// What a step (``BaseTransducer/_step(_:_:_:_:_:_:_:_:isolation:)``) that
/// could not finish without suspending left for
/// ``BaseTransducer/_awaitRest(_:_:_:_:_:isolation:)``; the effect it
/// speaks of is in the loop's slot.
@usableFromInline
enum StepRest {
    /// The state is terminal and its output not delivered yet: deliver it,
    /// close the input and execute the last effect.
    case terminal
    /// The state is terminal, its output delivered: close the input and
    /// execute the last effect.
    case terminalDelivered
    /// The output waits for delivery: deliver it, then execute the effect.
    case waiting
    /// The effect needs to suspend: execute what `executeSync` did not.
    case suspending
}

/// The ticket of the next run: numbers runs, so that a run's cancellation
/// handler stops that run only (see `EventChannelStateMachine.attach(run:taskIsCancelled:)`).
private let runTickets = ManagedAtomic<UInt64>(0)

/// A new run ticket, never `0` (the state machine's "no run").
@usableFromInline
func _nextRunTicket() -> UInt64 {
    runTickets.wrappingIncrementThenLoad(ordering: .relaxed) | 1 << 63
}

/// Ends the loop when the input was finished (`proxy.finish()`) and every
/// event has been processed.
@usableFromInline
struct InputFinished: Error {
    @usableFromInline init() {}
}

extension BaseTransducer {
    /// The run loop shared by every `run` overload.
    ///
    /// Takes events from the proxy in FIFO order and, for each, calls
    /// `update`, delivers the output, then executes the effect; events that
    /// actions return are processed at once, depth first. Ends on a terminal
    /// state, a stop request (proxy cancellation, failed operation), task
    /// cancellation or a thrown error; in every case the input is closed and
    /// every operation is cancelled and awaited before it returns.
    ///
    /// - Complexity: O(1) per event beyond `update` and the effect: a relaxed
    ///   atomic load and decrement per event, one lock per batch of up to 64
    ///   events.
    @inlinable
    static func _run<Carrier: StateCarrier, Out: Subject, E: RunnableEffect>(
        carrier: Carrier,
        proxy: Proxy,
        env: E.Env,
        output: Out,
        effectType: E.Type,
        isolation: isolated (any Actor)?
    ) async throws -> Output
    where Carrier.State == State, Out.Value == Output, E.T == Self {
        let channel = proxy._channel
        let inspection = RunInspection.current(for: Self.self)
        let run = _nextRunTicket()
        // One cancellation handler around the whole run, installed before
        // it attaches: each cancellation of the task is a stop request of
        // the run's state machine at the moment it happens, ordered under
        // its lock with `proxy.cancel()` and the other endings (rule 3.3).
        // A cancellation before the handler exists is read when the run
        // attaches. The loop notices a stop before the next event at the
        // cost of one relaxed atomic load.
        return try await withTaskCancellationHandler {
            try channel.attach(inspection: inspection, run: run)
            if let inspection { inspection.recordStart(Self.self, initialState: carrier.state) }
            let context = EffectContext<Self, E.Env>(
                env: env, input: proxy.input, channel: channel, inspection: inspection)
            let (ended, unprocessed) = await _loop(
                carrier: carrier, channel: channel, context: context, output: output, effectType: effectType,
                isolation: isolation)
            await finish(
                channel, taken: unprocessed, error: ended.error(deliversOutput: E.deliversOutput),
                inspection: inspection)
            return try ended.output(deliversOutput: E.deliversOutput)
        } onCancel: {
            channel.taskCancelled(run: run)
        }
    }

    /// The loop proper: processes events until a terminal state or an error.
    /// Returns the last output (or the error) and the events it had taken
    /// but not processed. Its state lives in its own locals so that the hot
    /// path keeps them in registers. Never inlined into `_run`'s closure:
    /// the closure's frame would take the loop's room as well as its own
    /// (the task keeps both for as long as the run lives).
    @inlinable @inline(never)
    static func _loop<Carrier: StateCarrier, Out: Subject, E: RunnableEffect>(
        carrier: Carrier,
        channel: _EventChannel<Event>,
        context: EffectContext<Self, E.Env>,
        output: Out,
        effectType: E.Type,
        isolation: isolated (any Actor)?
    ) async -> (_RunEnding<Output>, Deque<_EventChannel<Event>.Element>)
    where Carrier.State == State, Out.Value == Output, E.T == Self {
        var carrier = carrier
        var context = context
        let inspection = context.inspection
        var lastOutput: Output?
        var pendingAck: _EventChannel<Event>.Ack?
        var batch = Deque<_EventChannel<Event>.Element>()
        // The slot through which a step hands an effect it could not finish
        // to `_awaitRest`, which empties it: declared once, so that a step
        // that finishes its effect pays nothing for it.
        var effect: E? = nil
        do {
            if E.deliversOutput, let initial = initialOutput(initialState: carrier.state) {
                try await deliverInitialOutput(initial, to: output, inspection: inspection, isolation: isolation)
                lastOutput = initial
            }
            if !carrier.state.isTerminal {
                runLoop: while true {
                    // A notice (`SharedRun.notify`) comes outside the batch:
                    // it is not counted among the events taken.
                    var notice: _EventChannel<Event>.Element?
                    if batch.isEmpty || channel.isStopRequested {
                        switch channel.refill(&batch) {
                        case .filled:
                            break
                        case .notice(let element):
                            notice = element
                        case .stop(let stop):
                            throw stop.error
                        case .empty:
                            if let inspection { inspection.record(InspectionRecord<Self>.waitingForEvents) }
                            await channel.waitForActivity(isolation: isolation)
                            continue runLoop
                        case .drained:
                            throw InputFinished()
                        }
                    }
                    let element: _EventChannel<Event>.Element
                    if let notice {
                        element = notice
                    } else {
                        guard let taken = batch.popFirst() else { continue runLoop }
                        channel.shared.wrappingDecrement(ordering: .relaxed)
                        element = taken
                    }
                    pendingAck = element.ack

                    // The event and, depth first, the events its actions return.
                    var stack: [Event] = []
                    var next: Event? = element.event
                    while let event = next {
                        next = nil
                        // The step: `update`, the output, the effect when
                        // neither needs an `await`. When something is left,
                        // it says what in `rest` and leaves the effect in
                        // `effect`, for `_awaitRest`.
                        var rest = StepRest.terminal
                        let outcome: EffectOutcome<Event>
                        if let executed =
                            _stepsOutOfLine
                            ? try _stepOutOfLine(
                                &carrier, event, &lastOutput, output, &context, inspection, &rest, &effect,
                                isolation: isolation)
                            : try _step(
                                &carrier, event, &lastOutput, output, &context, inspection, &rest, &effect,
                                isolation: isolation)
                        {
                            outcome = executed
                        } else {
                            // What suspends: the output's delivery, the effect.
                            guard
                                let awaited = try await _awaitRest(
                                    rest, lastOutput, output, &effect, &context, isolation: isolation)
                            else { break runLoop }
                            outcome = awaited
                        }
                        if !context.cancelledOperations.isEmpty {
                            // Events of an operation cancelled just now
                            // never reach `update`.
                            channel.removeEvents(of: context.cancelledOperations, from: &batch)
                            context.cancelledOperations.removeAll()
                        }
                        switch outcome {
                        case .noEvent: break
                        case .one(let event): next = event
                        case .many(let events):
                            if !events.isEmpty { stack.append(contentsOf: events.reversed()) }
                        }
                        if next == nil { next = stack.popLast() }
                    }
                    pendingAck?.resume()
                    pendingAck = nil
                }
                pendingAck?.resume()
                pendingAck = nil
            }
        } catch let finished as InputFinished {
            return (_RunEnding(error: finished), batch)
        } catch let cut as ChainCut {
            // A stop observed at a suspension of the chain: the rest of the
            // chain is not processed. The event that began it was (its
            // update ran, its output was delivered): its sender is released
            // as processed (rule 4.4). The run ends with the stop's error.
            pendingAck?.resume()
            return (_RunEnding(error: channel.firstEnding(failingWith: cut)), batch)
        } catch {
            pendingAck?.resume(throwing: TransducerError.terminated)
            // An output delivery or an effect that throws ends the run, unless
            // another ending came first (rule 3.3).
            return (_RunEnding(error: channel.firstEnding(failingWith: error)), batch)
        }
        return (_RunEnding(lastOutput: lastOutput), batch)
    }

    /// Whether the loop calls the step out of line
    /// (``_stepOutOfLine(_:_:_:_:_:_:_:_:isolation:)``) rather than inlined
    /// (``_step(_:_:_:_:_:_:_:_:isolation:)``): when the state, output and
    /// event take more than 256 bytes together. Out of line, the step's
    /// temporaries (copies of the state, the output, the effect, inspection
    /// records) live on the thread's stack while it runs, not in the loop's
    /// async frame, which a task keeps for as long as the run lives — a
    /// server keeps one per session; inlined, small transducers pay no call
    /// per step. Decision 0023 has the measurements. Constant once
    /// specialised: the branch not taken is compiled away.
    @inlinable
    static var _stepsOutOfLine: Bool {
        MemoryLayout<State>.size + MemoryLayout<Output>.size + MemoryLayout<Event>.size > 256
    }

    /// The step, out of line: ``_step(_:_:_:_:_:_:_:_:isolation:)`` in a
    /// frame of its own (see `_stepsOutOfLine`).
    @inlinable @inline(never)
    static func _stepOutOfLine<Carrier: StateCarrier, Out: Subject, E: RunnableEffect>(
        _ carrier: inout Carrier, _ event: Event, _ lastOutput: inout Output?, _ output: Out,
        _ context: inout EffectContext<Self, E.Env>, _ inspection: RunInspection?, _ rest: inout StepRest,
        _ pending: inout E?, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<Event>? where Carrier.State == State, Out.Value == Output, E.T == Self {
        try _step(
            &carrier, event, &lastOutput, output, &context, inspection, &rest, &pending, isolation: isolation)
    }

    /// One step: the update, the output and the effect when none of them
    /// needs to suspend. The only copy of the step: inlined into the loop for
    /// small transducers, called through `_stepOutOfLine` for large ones.
    ///
    /// Calls `update`, records the step for an inspecting test, delivers the
    /// output when that needs no `await`, keeps it in `lastOutput`, and
    /// executes the effect when it can without suspending: then it returns
    /// the effect's events. Otherwise it returns `nil` and says in `rest` and
    /// `pending` what ``_awaitRest(_:_:_:_:_:isolation:)`` has to do.
    @inlinable @inline(__always)
    static func _step<Carrier: StateCarrier, Out: Subject, E: RunnableEffect>(
        _ carrier: inout Carrier, _ event: Event, _ lastOutput: inout Output?, _ output: Out,
        _ context: inout EffectContext<Self, E.Env>, _ inspection: RunInspection?, _ rest: inout StepRest,
        _ pending: inout E?, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<Event>? where Carrier.State == State, Out.Value == Output, E.T == Self {
        if let inspection { inspection.record(InspectionRecord<Self>.event(event)) }
        let (effect, out) = carrier.mutate { E.step(&$0, event) }
        if let inspection {
            inspection.record(InspectionRecord<Self>.state(carrier.state))
            if E.deliversOutput { inspection.record(InspectionRecord<Self>.output(out)) }
        }
        let delivered = try !E.deliversOutput || output._sendSynchronously(out)
        lastOutput = out
        if carrier.state.isTerminal {
            rest = delivered ? .terminalDelivered : .terminal
            pending = consume effect
            return nil
        }
        // `consume`: the effect is moved, not copied; a copy costs a retain
        // and a release per step.
        guard let effect = consume effect else {
            if delivered { return .noEvent }
            rest = .waiting
            return nil
        }
        guard delivered else {
            rest = .waiting
            pending = effect
            return nil
        }
        do {
            if let outcome = try effect.executeSync(&context, isolation: isolation) { return outcome }
        } catch {
            if context.isInspecting { context.recordActionFailed(error) }
            throw error
        }
        rest = .suspending
        pending = effect
        return nil
    }

    /// The rest of a step that ``_step(_:_:_:_:_:_:_:_:isolation:)`` could
    /// not do without suspending: delivers the output it could not, then
    /// executes what it left of the effect — all of it after a delivery,
    /// only what suspends after `executeSync` returned `nil`
    /// (`.suspending`). For a terminal state it closes the input, executes
    /// the last effect and returns `nil`: the run is over.
    ///
    /// Inlined into the loop; for a large transducer (see
    /// `_stepsOutOfLine`) the delivery and the execution are each called out
    /// of line, each in a frame of its own: one frame holding both is larger
    /// than either, and the task keeps its largest frame for the rest of the
    /// run (decision 0032).
    @inlinable @inline(__always)
    static func _awaitRest<Out: Subject, E: RunnableEffect>(
        _ rest: StepRest, _ lastOutput: Output?, _ output: Out, _ pending: inout E?,
        _ context: inout EffectContext<Self, E.Env>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<Event>? where Out.Value == Output, E.T == Self {
        if rest == .terminal || rest == .waiting {
            if _stepsOutOfLine {
                try await _deliverOutOfLine(lastOutput, to: output, isolation: isolation)
            } else {
                try await _deliver(lastOutput, to: output, isolation: isolation)
            }
        }
        switch rest {
        case .terminal, .terminalDelivered:
            // Close first: nothing sent from now on can be processed.
            context.channel.close()
            if let last = pending.take() { try await cleanUp(last, &context, isolation: isolation) }
            return nil
        case .waiting:
            // Stopped during the delivery: the chain is cut here, without
            // executing the effect (decision 0033).
            if context.channel.isStopRequested { throw ChainCut() }
        case .suspending:
            break
        }
        return _stepsOutOfLine
            ? try await _executeOutOfLine(&pending, &context, afterSync: rest == .suspending, isolation: isolation)
            : try await _execute(&pending, &context, afterSync: rest == .suspending, isolation: isolation)
    }

    /// ``_execute(_:_:afterSync:isolation:)`` in a frame of its own.
    @inlinable @inline(never)
    static func _executeOutOfLine<E: RunnableEffect>(
        _ pending: inout E?, _ context: inout EffectContext<Self, E.Env>, afterSync: Bool,
        isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<Event> where E.T == Self {
        try await _execute(&pending, &context, afterSync: afterSync, isolation: isolation)
    }

    /// Executes the effect the step left in `pending`: all of it, or only
    /// what suspends when `executeSync` has already returned `nil`
    /// (`afterSync`). Records a failed action for an inspecting test.
    @inlinable @inline(__always)
    static func _execute<E: RunnableEffect>(
        _ pending: inout E?, _ context: inout EffectContext<Self, E.Env>, afterSync: Bool,
        isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<Event> where E.T == Self {
        guard let effect = pending.take() else { return .noEvent }
        do {
            if afterSync { return try await effect.executeSuspending(&context, isolation: isolation) }
            return try await effect.execute(&context, isolation: isolation)
        } catch let cut as ChainCut {
            throw cut  // A stop, not a failure of the action.
        } catch {
            if context.isInspecting { context.recordActionFailed(error) }
            throw error
        }
    }

    /// ``_deliver(_:to:isolation:)`` in a frame of its own.
    @inlinable @inline(never)
    static func _deliverOutOfLine<Out: Subject>(
        _ value: Output?, to output: Out, isolation: isolated (any Actor)?
    ) async throws where Out.Value == Output {
        try await _deliver(value, to: output, isolation: isolation)
    }

    /// Delivers an output that `_sendSynchronously` could not.
    @inlinable @inline(__always)
    static func _deliver<Out: Subject>(
        _ value: Output?, to output: Out, isolation: isolated (any Actor)?
    ) async throws where Out.Value == Output {
        // Safety: the loop gives up this output (it keeps a copy only to
        // return it when the run ends).
        guard let value else { return }
        nonisolated(unsafe) let sent = value
        try await output._send(sent, isolation: isolation)
    }

    /// Delivers the initial output (``BaseTransducer/initialOutput(initialState:)``)
    /// before the first event; out of line, since most transducers have none.
    @usableFromInline
    static func deliverInitialOutput<Out: Subject>(
        _ initial: Output, to output: Out, inspection: RunInspection?, isolation: isolated (any Actor)?
    ) async throws where Out.Value == Output {
        inspection?.record(InspectionRecord<Self>.output(initial))
        // Safety: the loop keeps the initial output only to return it.
        nonisolated(unsafe) let value = initial
        if try !output._sendSynchronously(value) {
            try await output._send(value, isolation: isolation)
        }
    }

    /// Executes the effect of the update that reached a terminal state; the
    /// events it returns are not processed (contract 3.1).
    ///
    /// A clean-up is not a chain: a stop seen while a part of it suspends
    /// (``ChainCut``) does not skip the parts after it. A combination is
    /// executed part by part for that, each part's cut caught on its own.
    @usableFromInline
    static func cleanUp<E: RunnableEffect>(
        _ effect: E, _ context: inout EffectContext<Self, E.Env>, isolation: isolated (any Actor)?
    ) async throws where E.T == Self {
        var ignored = 0
        if let parts = effect.combinedParts {
            for part in parts { try await cleanUp(part, &context, isolation: isolation) }
        } else {
            do {
                ignored = try await effect.execute(&context, isolation: isolation).count
            } catch is ChainCut {
                // Its events would not be processed anyway.
            }
        }
        if ignored > 0 {
            logger.debug(
                "The effect of the update that reached a terminal state returned events; they are not processed.",
                metadata: ["transducer": "\(Self.self)", "events": "\(ignored)"])
        }
    }

    /// Ends a run: closes the input, cancels and awaits every operation,
    /// fails the senders still waiting, and reports the end. Out of line:
    /// called once per run, and its temporaries would otherwise take room
    /// in `_run`'s frame for the whole run.
    @inlinable @inline(never)
    static func finish(
        _ channel: _EventChannel<Event>,
        taken: Deque<_EventChannel<Event>.Element>,
        error: (any Error)?,
        inspection: RunInspection?,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let remaining = channel.finish(taken: taken)
        if !remaining.tasks.isEmpty || !remaining.unprocessed.isEmpty {
            await endRemaining(tasks: remaining.tasks, unprocessed: remaining.unprocessed, error: error)
        }
        inspection?.record(InspectionRecord<Self>.ended(error))
    }

    /// Fails the senders of the events the run did not process, then
    /// cancels and awaits the operations still running.
    ///
    /// The senders are released first: an operation can be one of them,
    /// suspended in `input.send` until its event is processed (a
    /// ``SyncSuspendingProxy``'s input). Awaiting its task before failing
    /// its acknowledgement would wait forever (contract 3.3: `run` returns
    /// once every operation has ended).
    @usableFromInline
    static func endRemaining(
        tasks: [Task<Void, Never>],
        unprocessed: [_EventChannel<Event>.Element],
        error: (any Error)?,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        for task in tasks { task.cancel() }
        for element in unprocessed {
            element.ack?.resume(throwing: TransducerError.terminated)
        }
        for task in tasks { await task.value }
        if !unprocessed.isEmpty {
            // `debug`, not `notice`: ending a run with events still waiting
            // is what cancelling a busy run does, and a server that ends
            // thousands of sessions must not log each one by default.
            logger.debug(
                "The run ended with events still in the proxy's buffer; they were not processed.",
                metadata: [
                    "transducer": "\(Self.self)", "events": "\(unprocessed.count)",
                    "reason": "\(error.map { "\($0)" } ?? "terminal state")",
                ])
        }
    }
}

/// How a run ended, as its loop returns it: its last output, or the error.
/// A box, so that the frame of the run's closure, which the run's task
/// keeps for as long as it lives, holds a reference and not copies of the
/// output; what is read from it is read out of line, on the thread's stack.
@usableFromInline
final class _RunEnding<Output> {
    @usableFromInline let result: Result<Output?, any Error>

    /// Ended with `lastOutput` (`nil`: none was delivered). Out of line,
    /// as what follows: the result is made on the thread's stack.
    @inlinable @inline(never)
    init(lastOutput: Output?) {
        result = .success(lastOutput)
    }

    /// Ended with `error`.
    @inlinable @inline(never)
    init(error: any Error) {
        result = .failure(error)
    }

    /// The run's error, if it ends with one.
    @inlinable @inline(never)
    func error(deliversOutput: Bool) -> (any Error)? {
        if case .failure(let error) = ending(deliversOutput: deliversOutput) { return error }
        return nil
    }

    /// The run's final output, or its error.
    @inlinable @inline(never)
    func output(deliversOutput: Bool) throws -> Output {
        try ending(deliversOutput: deliversOutput).get()
    }

    @inlinable
    func ending(deliversOutput: Bool) -> Result<Output, any Error> {
        switch result {
        case .success(let lastOutput?):
            return .success(lastOutput)
        case .success(nil), .failure(_ as InputFinished):
            // No final output: a terminal initial state without an
            // initial output, or `proxy.finish()` with every buffered
            // event processed in a state that is not terminal. Only a
            // run whose updates deliver no output has one to return.
            if !deliversOutput, let none = () as? Output { return .success(none) }
            return .failure(TransducerError.noOutputProduced)
        case .failure(let error):
            return .failure(error)
        }
    }
}
