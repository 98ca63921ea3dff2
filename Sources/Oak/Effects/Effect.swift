// The effect type: every kind of effect an `update` can return, how each is
// stored (inline or boxed), and their public initialisers. How the run
// executes them is in `Run/EffectExecution.swift`.

/// A description of side work, returned by the `update` function of an
/// ``EffectTransducer`` and executed by the runtime.
///
/// Effects come in two forms:
///
/// - **Actions** run synchronously, inside the current computation cycle, on
///   the isolation of `run`. The events they return are processed at once,
///   depth first, before any event waiting in the proxy's buffer. ``event(_:)``
///   is the simplest action.
/// - **Operations** run asynchronously in a task managed by the runtime and
///   report back by sending events through their `input`. An operation may
///   have an `id`: starting one with the `id` of a running operation cancels
///   the running one first, and ``cancelTask(_:)`` cancels it explicitly.
///
/// ```swift
/// static func update(_ state: inout State, event: Event) -> Self.Effect? {
///     switch event {
///     case .start:
///         state = .loading
///         return Effect(id: "load") { env, input in
///             let value = try await env.load()
///             try input.send(.loaded(value))
///         }
///     case .loaded(let value):
///         state = .idle(value)
///         return .event(.didLoad)      // an action
///     // …
///     }
/// }
/// ```
///
/// Effects are values: they do nothing until the runtime executes them, so
/// `update` stays a pure function that tests can call directly.
public struct Effect<T: EffectTransducer> {
    /// The environment the effect receives.
    public typealias Env = T.Env
    /// The input through which operations send events.
    public typealias Input = T.Input
    /// The events the transducer reacts to.
    public typealias Event = T.Event

    /// How the effect is stored: the kinds on the hot path (an event, a
    /// synchronous action, an operation without an id) inline, every other
    /// kind in a box. Apart from the event, no payload is larger than a
    /// closure, so an effect stays cheap to move through the run loop, and
    /// the common effects allocate nothing but their closure's context.
    @usableFromInline
    let storage: Storage

    @usableFromInline
    enum Storage {
        case event(Event)
        case action((Env, Input) throws -> Event)
        /// An action on an isolation of its own that returns one event.
        case asyncAction(@Sendable @isolated(any) (Env) async throws -> sending Event)
        /// An operation without an `id`.
        case operation(Operation.Body)
        /// Work done at once on the run's isolation that returns no event
        /// (sending an event to a child).
        case perform(() -> Void)
        case boxed(Box)
    }

    /// An effect of a kind that is not stored inline.
    @usableFromInline
    final class Box {
        @usableFromInline let kind: Boxed

        @usableFromInline
        init(_ kind: Boxed) { self.kind = kind }
    }

    /// The kinds a ``Box`` holds: every kind that `Storage` does not store
    /// inline, and no other, so that executing a boxed effect has no case
    /// that cannot happen. `Storage` and `Boxed` together are every kind of
    /// effect, each in one place.
    @usableFromInline
    enum Boxed {
        case events([Event])
        /// An operation with an `id` or a delay.
        case operation(Operation)
        case cancel(EffectID)
        case isolatedAction(@Sendable (Env, isolated any Actor) async throws -> sending [Event])
        case asyncActions(@Sendable @isolated(any) (Env) async throws -> sending [Event])
        case combined([Effect])
    }

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    /// An effect of a kind stored in a box.
    @inlinable
    init(boxed kind: Boxed) {
        self.storage = .boxed(Box(kind))
    }

    /// An operation: inline without an `id` or a delay, else boxed.
    @inlinable
    init(operation: Operation) {
        if operation.id == nil && operation.delay == nil {
            self.storage = .operation(operation.body)
        } else {
            self.storage = .boxed(Box(.operation(operation)))
        }
    }

    /// The operation this effect starts, if it is one.
    @inlinable
    var operation: Operation? {
        switch storage {
        case .operation(let body): Operation(id: nil, body: body)
        case .boxed(let box):
            if case .operation(let operation) = box.kind { operation } else { nil }
        default: nil
        }
    }

    /// An operation: async work in a managed task.
    @usableFromInline
    struct Operation {
        @usableFromInline let id: EffectID?
        @usableFromInline let body: Body
        /// How long a delayed operation waits before its body runs (kept
        /// only to describe the effect; the wait is part of `body`).
        @usableFromInline let delay: (any DurationProtocol)?

        /// The work, stored as written so that creating an operation allocates
        /// no wrapper closure.
        @usableFromInline
        enum Body {
            /// Runs in a task on the isolation of `run`, which it receives.
            /// Its `Env` need not be `Sendable`: it never leaves that
            /// isolation (a run without isolation requires a `Sendable` `Env`).
            case isolated(@Sendable (Env, Input, isolated any Actor) async throws -> Void)
            /// Runs on its own isolation (`@isolated(any)`: a global actor or
            /// none). Only constructible where `Env: Sendable`.
            case own(@Sendable @isolated(any) (Env, Input) async throws -> Void)
        }

        @inlinable
        init(id: EffectID?, body: Body, delay: (any DurationProtocol)? = nil) {
            self.id = id
            self.body = body
            self.delay = delay
        }
    }
}

// MARK: - Actions

extension Effect {
    /// An action that returns `event`, processed immediately after the update
    /// that returned this effect, before any buffered event.
    ///
    /// - Complexity: O(1); no task, no allocation for a trivial `Event`.
    @inlinable
    public static func event(_ event: sending Event) -> Effect {
        Effect(storage: .event(event))
    }

    /// An action that returns `events`, processed in order and depth first
    /// (the events an action returns while processing one of them come before
    /// the next one).
    @inlinable
    public static func events(_ events: Event...) -> Effect {
        Effect(boxed: .events(events))
    }

    /// An action: a synchronous closure that runs on the isolation of `run`,
    /// inside the current computation cycle, and returns the next event.
    ///
    /// ```swift
    /// Effect { env, input in .configured(env.makeConfiguration()) }
    /// ```
    ///
    /// - Parameter action: Receives the environment and the transducer's input
    ///   (to hand to components that send later). An error it throws fails the
    ///   run.
    @inlinable
    public init(_ action: @escaping (Env, Input) throws -> Event) {
        self.init(storage: .action(action))
    }

    /// An action that runs on a global actor or any isolation of its own and
    /// returns the next event. The run waits for it; nothing else is processed
    /// in between.
    ///
    /// ```swift
    /// Effect(action: { @MainActor env in .delegate(env.makeDelegate()) })
    /// ```
    @inlinable
    public init(action: @Sendable @escaping @isolated(any) (Env) async throws -> sending Event) where Env: Sendable {
        self.init(storage: .asyncAction(action))
    }

    /// An action that runs on a global actor or any isolation of its own and
    /// returns several events, processed in order and depth first.
    @inlinable
    public init(action: @Sendable @escaping @isolated(any) (Env) async throws -> sending [Event]) where Env: Sendable {
        self.init(boxed: .asyncActions(action))
    }

    /// An action that runs on the isolation of `run`, which it receives as
    /// its second argument, and returns the next event. The run waits for
    /// it; nothing else is processed in between. `Env` need not be
    /// `Sendable`: the action never leaves the run's isolation.
    ///
    /// ```swift
    /// Effect(isolatedAction: { env, isolated in
    ///     .configured(env.makeConfiguration())
    /// })
    /// ```
    ///
    /// A run started without isolation (from a `nonisolated` context) has no
    /// actor to give: its isolated actions and operations run on an actor
    /// the run creates for them.
    ///
    /// Both `isolatedAction` initialisers are disfavoured, so that an
    /// unlabelled trailing closure `Effect { env, input in … }` means an
    /// action or an operation, never this.
    @inlinable
    @_disfavoredOverload
    public init(isolatedAction action: @Sendable @escaping (Env, isolated any Actor) async throws -> sending Event) {
        self.init(boxed: .isolatedAction({ env, isolation in [try await action(env, isolation)] }))
    }

    /// An action that runs on the isolation of `run` and returns several
    /// events, processed in order and depth first; see the form that returns
    /// one event.
    @inlinable
    @_disfavoredOverload
    public init(isolatedAction action: @Sendable @escaping (Env, isolated any Actor) async throws -> sending [Event]) {
        self.init(boxed: .isolatedAction(action))
    }
}

// MARK: - Operations

extension Effect {
    /// An operation whose task runs on the isolation of `run`, which the
    /// closure receives as its third argument.
    ///
    /// ```swift
    /// Effect(isolatedOperation: { _, input, _ in
    ///     try await Task.sleep(for: .seconds(1))
    ///     try input.send(.ready)
    /// })
    /// ```
    ///
    /// `Env` need not be `Sendable` (it may be a class): the operation uses
    /// it on the run's isolation only. A run with no isolation accepts only
    /// a `Sendable` `Env`, so a non-`Sendable` one never reaches another
    /// thread; its isolated operations run on an actor the run creates.
    ///
    /// - Parameters:
    ///   - id: Identifies the operation. Starting an operation with the `id`
    ///     of a running one cancels the running one first;
    ///     ``cancelTask(_:)`` cancels it. Without an `id` the operation can
    ///     only be cancelled by the end of the run.
    ///   - operation: The work. Throwing `CancellationError` (or any error
    ///     once cancelled) ends it quietly; any other error fails the run.
    @inlinable
    public init(
        id: (some Hashable & Sendable)? = Optional<ID>.none,
        isolatedOperation operation: @Sendable @escaping (Env, Input, isolated any Actor) async throws -> Void
    ) {
        self.init(operation: Operation(id: id.map(EffectID.init), body: .isolated(operation)))
    }

    /// An isolated operation that waits `duration` on `clock` before it runs.
    /// Cancelling it during the wait means its body never runs.
    ///
    /// Pass a test clock to control time in tests.
    @inlinable
    public init<C: Clock>(
        id: (some Hashable & Sendable)? = Optional<ID>.none,
        isolatedOperation operation: @Sendable @escaping (Env, Input, isolated any Actor) async throws -> Void,
        after duration: C.Instant.Duration,
        tolerance: C.Instant.Duration? = nil,
        clock: C = ContinuousClock()
    ) {
        self.init(
            operation:
                Operation(
                    id: id.map(EffectID.init),
                    body: .isolated({ env, input, isolation in
                        try await clock.sleep(for: duration, tolerance: tolerance)
                        try await operation(env, input, isolation)
                    }),
                    delay: duration
                ))
    }
}

extension Effect where Env: Sendable {
    /// An operation: async work in a task managed by the transducer. It reports
    /// back by sending events through `input`.
    ///
    /// ```swift
    /// Effect(id: "load") { env, input in
    ///     let comic = try await env.loadComic(id)
    ///     try input.send(.didLoad(comic))
    /// }
    /// ```
    ///
    /// The closure runs on its own isolation: annotate it with a global actor
    /// (`{ @MainActor env, input in … }`) to run there. Because it may run
    /// anywhere, `Env` must be `Sendable`; use
    /// ``init(id:isolatedOperation:)`` for an `Env` that is not.
    ///
    /// - Parameters:
    ///   - id: Identifies the operation. Starting an operation with the `id` of
    ///     a running one cancels the running one first; ``cancelTask(_:)``
    ///     cancels it. Without an `id` the operation can only be cancelled by
    ///     the end of the run.
    ///   - operation: The work. Throwing `CancellationError` (or any error
    ///     once cancelled) ends it quietly; any other error fails the run.
    @inlinable
    public init(
        id: (some Hashable & Sendable)? = Optional<ID>.none,
        operation: @Sendable @escaping @isolated(any) (Env, Input) async throws -> Void
    ) {
        self.init(operation: Operation(id: id.map(EffectID.init), body: .own(operation)))
    }

    /// An operation that waits `duration` on `clock` before it runs.
    /// Cancelling it during the wait means its body never runs.
    ///
    /// Pass a test clock to control time in tests.
    @inlinable
    public init<C: Clock>(
        id: (some Hashable & Sendable)? = Optional<ID>.none,
        operation: @Sendable @escaping @isolated(any) (Env, Input) async throws -> Void,
        after duration: C.Instant.Duration,
        tolerance: C.Instant.Duration? = nil,
        clock: C = ContinuousClock()
    ) {
        self.init(
            operation:
                Operation(
                    id: id.map(EffectID.init),
                    body: .own({ env, input in
                        try await clock.sleep(for: duration, tolerance: tolerance)
                        try await operation(env, input)
                    }),
                    delay: duration
                ))
    }
}

// MARK: - Cancellation and composition

extension Effect {
    /// Cancels the running operation with `id`; does nothing when none runs.
    @inlinable
    public static func cancelTask(_ id: some Hashable & Sendable) -> Effect {
        Effect(boxed: .cancel(EffectID(id)))
    }

    /// Executes `effects` in order within one computation cycle: actions run
    /// in order and their events are processed in that order (depth first);
    /// cancellations apply; operations start in that order and then run in
    /// parallel. Oak's name for ``combine(_:)-(Effect<T>...)``.
    ///
    /// ```swift
    /// return .sequence(.cancelTask("load"), .event(.didCancel))
    /// ```
    @inlinable
    public static func sequence(_ effects: Effect...) -> Effect {
        Effect(boxed: .combined(effects))
    }

    /// Executes `effects` in order within one computation cycle; the same as
    /// ``sequence(_:)``.
    @inlinable
    public static func combine(_ effects: Effect...) -> Effect {
        Effect(boxed: .combined(effects))
    }

    /// Executes `effects` in order within one computation cycle; see
    /// ``sequence(_:)``.
    @inlinable
    public static func combine(_ effects: [Effect]) -> Effect {
        Effect(boxed: .combined(effects))
    }
}

extension Effect where Env: Sendable {
    /// One managed operation that runs `operations` one after another: each
    /// starts when the previous one has finished. Only operation effects may
    /// be chained; actions and cancellations in `effects` are executed at
    /// once, in order, when the chain starts.
    ///
    /// ```swift
    /// return .chain(
    ///     id: "backup",
    ///     Effect { env, _ in try await env.save() },
    ///     Effect { env, input in try await env.upload(); try input.send(.didUpload) }
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - id: Identifies the whole chain, as for a single operation.
    ///   - effects: The operations to run one after another, in this order.
    @inlinable
    public static func chain(
        id: (some Hashable & Sendable)? = Optional<ID>.none,
        _ effects: Effect...
    ) -> Effect {
        var immediate: [Effect] = []
        var bodies: [@Sendable (Env, Input, isolated any Actor) async throws -> Void] = []
        for effect in effects {
            if let operation = effect.operation {
                bodies.append(operation.body.uniform)
            } else {
                immediate.append(effect)
            }
        }
        let chained = Effect(
            operation: Operation(
                id: id.map(EffectID.init),
                body: .isolated({ [bodies] env, input, isolation in
                    for body in bodies {
                        try Task.checkCancellation()
                        try await body(env, input, isolation)
                    }
                })
            ))
        return immediate.isEmpty ? chained : Effect(boxed: .combined(immediate + [chained]))
    }
}

extension Effect.Operation.Body where T.Env: Sendable {
    /// The work as one closure that takes the isolation of `run`.
    @usableFromInline
    var uniform: @Sendable (T.Env, T.Input, isolated any Actor) async throws -> Void {
        switch self {
        case .isolated(let body): body
        case .own(let body): { env, input, _ in try await body(env, input) }
        }
    }
}
