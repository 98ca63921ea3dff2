// How the run loop executes an effect: the context an effect runs in (the
// environment, the run's input, its isolation, the operations it cancelled),
// the outcome it gives back (events to process next), and the protocol that
// lets the loop execute the two effect types (`Effect` and the pure
// transducers' none) without suspending when the effect does not need to.

/// What executing an effect gives the run loop: events to process next.
@usableFromInline
enum EffectOutcome<Event> {
    case noEvent
    case one(Event)
    case many([Event])

    /// How many events there are.
    @inlinable
    var count: Int {
        switch self {
        case .noEvent: 0
        case .one: 1
        case .many(let events): events.count
        }
    }

    /// Appends the events, in order, to `events`.
    @inlinable
    func append(to events: inout [Event]) {
        switch self {
        case .noEvent: break
        case .one(let event): events.append(event)
        case .many(let more): events.append(contentsOf: more)
        }
    }
}

/// Thrown where the run loop observes a stop at a suspension inside a chain
/// of actions (after an awaited output delivery or an async action): the
/// chain is cut there, and the run ends with the stop's error (rules 2.3 and
/// 3.3, decision 0033). Never reaches the caller of `run`: the loop replaces
/// it with the stop requested, which is pending whenever it is thrown.
@usableFromInline
struct ChainCut: Error {
    @usableFromInline init() {}
}

/// The per-run values effects are executed with.
@usableFromInline
struct EffectContext<T: BaseTransducer, Env> {
    @usableFromInline let env: Env
    @usableFromInline let input: T.Input
    @usableFromInline let channel: _EventChannel<T.Event>
    @usableFromInline let inspection: RunInspection?
    /// Numbers effects in the order they start.
    @usableFromInline var effectCount: UInt64 = 0
    /// The actor that isolated actions and operations of a run without
    /// isolation use; made when the first one starts.
    @usableFromInline var runActor: RunActor?
    /// The operations the effects being executed have cancelled: the loop
    /// removes their events from its batch once the effect has run.
    @usableFromInline var cancelledOperations: [CancelledOperation] = []

    @usableFromInline
    init(env: Env, input: T.Input, channel: _EventChannel<T.Event>, inspection: RunInspection?) {
        self.env = env
        self.input = input
        self.channel = channel
        self.inspection = inspection
    }

    /// The actor isolated actions and operations receive: the run's own, or,
    /// for a run without isolation, an actor made for the run.
    @inlinable
    mutating func actor(for isolation: (any Actor)?) -> any Actor {
        if let isolation { return isolation }
        return makeRunActor()
    }

    @usableFromInline
    mutating func makeRunActor() -> any Actor {
        if let runActor { return runActor }
        let actor = RunActor()
        runActor = actor
        return actor
    }

    /// Whether an inspector is installed; tested before building any record
    /// so that the hot path pays one branch.
    @inlinable
    var isInspecting: Bool { inspection != nil }

    /// Records that the action started last has thrown `error`.
    @usableFromInline
    func recordActionFailed(_ error: any Error) {
        let info = EffectInfo(sequenceNumber: effectCount, id: nil, kind: .action)
        inspection?.record(InspectionRecord<T>.effectFailed(info, error))
    }

    @usableFromInline
    mutating func recordActionStarted() {
        let info = nextInfo(id: nil, kind: .action)
        inspection?.record(InspectionRecord<T>.effectStarted(info))
    }

    @inlinable
    mutating func nextInfo(id: EffectID?, kind: EffectInfo.Kind) -> EffectInfo {
        effectCount &+= 1
        return EffectInfo(sequenceNumber: effectCount, id: id, kind: kind)
    }
}

/// The isolation of the isolated actions and operations of a run that has
/// none: they need an actor, and one actor per run keeps them serial.
@usableFromInline
actor RunActor {
    @usableFromInline
    init() {}

    /// Runs a synchronous action here, for a run without isolation whose
    /// isolated effects already use this actor.
    ///
    /// Safety: the run loop awaits the action, so the action, `env` and the
    /// event are used by one party at a time; on this actor, `env` is not
    /// used concurrently with the run's isolated operations.
    @usableFromInline
    func perform<Env, Input, Event>(
        _ call: AssumedSendable<((Env, Input) throws -> Event, Env, Input)>
    ) throws -> AssumedSendable<Event> {
        let (action, env, input) = call.value
        return AssumedSendable(try action(env, input))
    }
}

/// An effect the run loop can execute: ``Effect`` for effect transducers,
/// the uninhabited `NoEffect` for pure transducers.
@usableFromInline
protocol RunnableEffect {
    associatedtype T: BaseTransducer
    associatedtype Env

    /// Whether the run delivers every update's output (`false` for an
    /// ``EffectTransducer`` whose `update` returns only `Effect?`).
    static var deliversOutput: Bool { get }

    /// Calls the transducer's `update` and splits its result into effect
    /// and output. Static, so the run loop's specialisation inlines it.
    static func step(_ state: inout T.State, _ event: T.Event) -> (Self?, T.Output)

    /// Executes the synchronous kinds (events, actions, starting and
    /// cancelling operations); returns `nil` for the others, which
    /// `executeAsync` executes.
    func executeSync(
        _ context: inout EffectContext<T, Env>, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<T.Event>?

    /// The parts of a combination (``Effect/combine(_:)-(Effect<T>...)``),
    /// `nil` for any other effect: a terminal state's clean-up executes them
    /// one by one, so that a stop seen in one part does not skip the next.
    var combinedParts: [Self]? { get }

    /// The effect's action, when it is an action with an isolation of its
    /// own that returns one event (`Effect(action:)`); the run loop awaits
    /// it directly.
    var asyncAction: (@Sendable @isolated(any) (Env) async throws -> sending T.Event)? { get }

    /// Executes the kinds that need to suspend (async and isolated actions,
    /// a combination that contains one). `execute` calls it only for what
    /// `executeSync` returned `nil` for; the other kinds are handed back to
    /// `executeSync`. (A step type that carried the suspending work out of
    /// `executeSync` would leave no such case, but a switch case that moves
    /// a payload out makes Swift copy the whole effect before the switch, on
    /// every step, which OakProfile's W2 measured; decision 0016.)
    func executeAsync(
        _ context: inout EffectContext<T, Env>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<T.Event>
}

extension RunnableEffect {
    /// Executes the effect: without suspending when it can, else with
    /// `executeAsync`. Inlined into the run loop, so that the synchronous
    /// kinds pay no async call.
    @inlinable
    @inline(__always)
    func execute(
        _ context: inout EffectContext<T, Env>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<T.Event> {
        if let outcome = try executeSync(&context, isolation: isolation) { return outcome }
        return try await executeSuspending(&context, isolation: isolation)
    }

    /// Executes what `executeSync` returned `nil` for: an action with an
    /// isolation of its own, awaited in place, or `executeAsync`.
    ///
    /// When the run was stopped meanwhile, the chain is cut here (rules 2.3
    /// and 3.3, decision 0033): it throws ``ChainCut``, so that neither the
    /// events this effect returns, nor the effects after it in a
    /// combination, nor the events of the chain still waiting in the loop
    /// are processed. A terminal state's clean-up (rule 3.1) catches it at
    /// each of its parts and goes on (`cleanUp` in the run loop).
    @inlinable
    @inline(__always)
    func executeSuspending(
        _ context: inout EffectContext<T, Env>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<T.Event> {
        let outcome: EffectOutcome<T.Event>
        if let action = asyncAction {
            // Awaited here, in the loop: one hop to the action's isolation
            // and one back, no other async frame.
            if context.isInspecting { context.recordActionStarted() }
            // Safety: an action with an isolation of its own can only be
            // created where `Env` is `Sendable`.
            nonisolated(unsafe) let env = context.env
            outcome = .one(try await action(env))
        } else {
            outcome = try await executeAsync(&context, isolation: isolation)
        }
        if context.channel.isStopRequested { throw ChainCut() }
        return outcome
    }
}

/// The effect type of a pure ``Transducer``: it has no values.
@usableFromInline
enum NoEffect<T: Transducer>: RunnableEffect {
    @usableFromInline typealias Env = Void

    @inlinable
    static var deliversOutput: Bool { true }

    @inlinable
    static func step(_ state: inout T.State, _ event: T.Event) -> (Self?, T.Output) {
        (nil, T.update(&state, event: event))
    }

    @inlinable
    func executeSync(
        _ context: inout EffectContext<T, Void>, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<T.Event>? { switch self {} }

    @inlinable
    var asyncAction: (@Sendable @isolated(any) (Env) async throws -> sending T.Event)? { nil }

    @inlinable
    var combinedParts: [Self]? { switch self {} }

    @inlinable
    func executeAsync(
        _ context: inout EffectContext<T, Void>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<T.Event> { switch self {} }
}

extension Effect: RunnableEffect {
    @inlinable
    static var deliversOutput: Bool { T._deliversOutput }

    @inlinable
    static func step(_ state: inout T.State, _ event: T.Event) -> (Self?, T.Output) {
        T._split(T.update(&state, event: event))
    }

    @inlinable
    func executeSync(
        _ context: inout EffectContext<T, T.Env>, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<T.Event>? {
        switch storage {
        case .event(let event):
            if context.isInspecting { context.recordActionStarted() }
            return .one(event)
        case .action(let action):
            // In a run without isolation that has made its actor, `env` is
            // used there: the action runs on it (`executeAsync`).
            if isolation == nil, context.runActor != nil { return nil }
            if context.isInspecting { context.recordActionStarted() }
            return .one(try action(context.env, context.input))
        case .operation(let body):
            start(id: nil, body, &context, isolation: isolation)
            return .noEvent
        case .perform(let body):
            if context.isInspecting { context.recordActionStarted() }
            body()
            return .noEvent
        case .asyncAction:
            return nil
        case .boxed(let box):
            switch box.kind {
            case .events(let events):
                if context.isInspecting { context.recordActionStarted() }
                return .many(events)
            case .operation(let operation):
                start(id: operation.id, operation.body, &context, isolation: isolation)
                return .noEvent
            case .cancel(let id):
                if let cancelled = context.channel.cancelOperation(id: id) {
                    context.cancelledOperations.append(cancelled)
                }
                return .noEvent
            case .combined(let effects):
                // Executed here when no part needs to suspend (starting
                // children and operations, say): no async frame, which a
                // task would keep for the rest of the run.
                return try Self.executeSynchronously(effects, &context, isolation: isolation)
            case .isolatedAction, .asyncActions:
                return nil
            }
        }
    }

    /// Executes a combination when none of its parts needs to suspend;
    /// `nil` otherwise. Out of line, so that `executeSync` (which it calls
    /// for each part) is not recursive and stays inlined in the run loop.
    @inlinable @inline(never)
    static func executeSynchronously(
        _ effects: [Effect], _ context: inout EffectContext<T, T.Env>, isolation: isolated (any Actor)?
    ) throws -> EffectOutcome<T.Event>? {
        guard effects.allSatisfy({ $0.isSynchronous(context, isolation: isolation) }) else { return nil }
        var events: [T.Event] = []
        for effect in effects {
            try (effect.executeSync(&context, isolation: isolation) ?? .noEvent).append(to: &events)
        }
        return events.isEmpty ? .noEvent : .many(events)
    }

    /// Whether `executeSync` executes this effect (it returns `nil` for the
    /// others).
    @inlinable
    func isSynchronous(_ context: EffectContext<T, T.Env>, isolation: isolated (any Actor)?) -> Bool {
        switch storage {
        case .event, .operation, .perform: return true
        case .action: return !(isolation == nil && context.runActor != nil)
        case .asyncAction: return false
        case .boxed(let box):
            switch box.kind {
            case .events, .operation, .cancel: return true
            case .isolatedAction, .asyncActions: return false
            case .combined(let effects): return effects.allSatisfy { $0.isSynchronous(context, isolation: isolation) }
            }
        }
    }

    @inlinable
    var asyncAction: (@Sendable @isolated(any) (T.Env) async throws -> sending T.Event)? {
        if case .asyncAction(let action) = storage { return action }
        return nil
    }

    @inlinable
    var combinedParts: [Effect]? {
        if case .boxed(let box) = storage, case .combined(let effects) = box.kind { return effects }
        return nil
    }

    /// Reached only for what `executeSync` returned `nil` for (see
    /// `execute`): every other kind falls through to `executeSync`.
    @inlinable
    func executeAsync(
        _ context: inout EffectContext<T, T.Env>, isolation: isolated (any Actor)?
    ) async throws -> EffectOutcome<T.Event> {
        switch storage {
        case .action(let action):
            // A run without isolation whose isolated effects already use the
            // run's actor (see `executeSync`): the action runs on that actor
            // too.
            guard isolation == nil, let runActor = context.runActor else { break }
            if context.isInspecting { context.recordActionStarted() }
            // Safety: see `RunActor.perform`.
            let call = AssumedSendable((action, context.env, context.input))
            return .one(try await runActor.perform(call).value)
        case .asyncAction(let action):
            return .one(try await Self.perform(action, &context, isolation: isolation))
        case .boxed(let box):
            switch box.kind {
            case .isolatedAction(let action):
                if context.isInspecting { context.recordActionStarted() }
                // Safety: `env` stays on the run's isolation (the action runs
                // there), or, in a run without isolation, is `Sendable` (only
                // such an `Env` can start a run without isolation).
                nonisolated(unsafe) let env = context.env
                return .many(try await action(env, context.actor(for: isolation)))
            case .asyncActions(let action):
                if context.isInspecting { context.recordActionStarted() }
                // Safety: see `perform`.
                nonisolated(unsafe) let env = context.env
                return .many(try await action(env))
            case .combined(let effects):
                var events: [T.Event] = []
                for effect in effects {
                    try await effect.execute(&context, isolation: isolation).append(to: &events)
                }
                return events.isEmpty ? .noEvent : .many(events)
            case .events, .operation, .cancel:
                break
            }
        case .event, .operation, .perform:
            break
        }
        // A kind `executeSync` executes: `execute` never hands it here.
        return try executeSync(&context, isolation: isolation) ?? .noEvent
    }

    /// Awaits an action that has an isolation of its own and returns one
    /// event: a hop to its isolation and back, nothing else (no wrapper, no
    /// array, no box).
    @inlinable
    static func perform(
        _ action: @Sendable @isolated(any) (T.Env) async throws -> sending T.Event,
        _ context: inout EffectContext<T, T.Env>,
        isolation: isolated (any Actor)?
    ) async throws -> T.Event {
        if context.isInspecting { context.recordActionStarted() }
        // Safety: an action with an isolation of its own can only be created
        // where `Env` is `Sendable`.
        nonisolated(unsafe) let env = context.env
        return try await action(env)
    }

    /// Starts an operation's task, cancelling the running one with the same id.
    ///
    /// An operation whose isolation is the run's own (an isolated operation,
    /// or an operation on the run's actor, or a nonisolated one when the run
    /// is nonisolated) starts at once, on the run's thread, and runs until its
    /// first suspension before the run goes on (`Task.immediate`): the
    /// executor could not have run it in parallel with the loop anyway, and
    /// the hop saved is most of the cost of a short operation. Any other
    /// operation starts in a new task on its own isolation.
    @inlinable
    func start(
        id: EffectID?, _ body: Operation.Body, _ context: inout EffectContext<T, T.Env>,
        isolation: isolated (any Actor)?
    ) {
        let info = context.nextInfo(id: id, kind: .operation)
        if let replaced = context.channel.reserve(info.sequenceNumber, id: id) {
            context.cancelledOperations.append(replaced)
        }
        let hooks = OperationHooks<T.Event>(
            channel: context.channel, info: info, inspection: context.inspection)
        context.inspection?.record(InspectionRecord<T>.effectStarted(info))
        // Safety: an operation with its own isolation can only be created
        // where `Env` is `Sendable`; an isolated operation uses `env` on the
        // run's isolation, or, in a run without isolation, its `Env` is
        // `Sendable` (only such an `Env` can start a run without isolation).
        let env = AssumedSendable(context.env)
        // The operation's own input: refused once the operation is cancelled.
        let input = T.Proxy._input(context.channel, operation: info.sequenceNumber)
        // `Task.immediate` and `Task` are called here, not through a helper, so
        // that each closure is formed at the type the initialiser takes (a
        // helper costs a reabstraction thunk, one allocation per operation).
        let task: Task<Void, Never>
        switch body {
        case .isolated(let body):
            let actor = context.actor(for: isolation)
            #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                task = Task.immediate {
                    _ = isolation
                    await hooks.run(body, env: env, input: input, actor: actor, isolation: isolation)
                }
                break
            }
            #endif
            task = Task {
                _ = isolation
                await hooks.run(body, env: env, input: input, actor: actor, isolation: isolation)
            }
        case .own(let body):
            #if compiler(>=6.2)
            if body.isolation === isolation,
                #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
            {
                task = Task.immediate {
                    await hooks.run(body, env: env, input: input)
                }
                break
            }
            #endif
            task = Task {
                await hooks.run(body, env: env, input: input)
            }
        }
        context.channel.activate(info.sequenceNumber, task: task)
    }
}

/// Carries a value whose type is `Sendable` where it was created but not
/// provably so in the generic code that moves it (an operation's `Env`).
@usableFromInline
struct AssumedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) { self.value = value }
}
