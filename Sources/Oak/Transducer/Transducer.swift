// The pure transducer and its designated `run` overloads (Oak's other
// spellings are in `Compatibility/`).

/// A finite-state transducer without side effects: a pure function from
/// state and event to a new state and an output.
///
/// ```swift
/// enum SimpleCounter: Transducer {
///     struct State: NonTerminal { var count = 0 }
///     static var initialState: State { State() }
///     enum Event { case increment, decrement }
///     typealias Output = Int
///     static func update(_ state: inout State, event: Event) -> Int {
///         switch event {
///         case .increment: state.count += 1
///         case .decrement: state.count -= 1
///         }
///         return state.count
///     }
/// }
/// ```
///
/// Run it with ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``
/// (everything but `initialState:` may be left out). A pure
/// transducer has no effects and no environment: its `Effect` is `Never`
/// and its `Env` is `Void`.
public protocol Transducer: BaseTransducer where Effect == Never, Env == Void {
    /// The state; may be inferred from ``update(_:event:)``.
    associatedtype State
    /// The events; may be inferred from ``update(_:event:)``.
    associatedtype Event
    /// The value each update produces, inferred from the return type of
    /// ``update(_:event:)``: `Void` when it returns nothing.
    associatedtype Output = Void
    /// The event channel: the buffered ``Proxy`` unless declared
    /// (`typealias Proxy = SyncSuspendingProxy<Event>`).
    associatedtype Proxy = Oak.Proxy<Event>
    /// Computes the next state and the output for `event`. Called serially,
    /// never concurrently, on the isolation of the caller of `run`.
    static func update(_ state: inout State, event: Event) -> Output
}

extension Transducer {
    /// Calls ``update(_:event:)`` and returns its output with no effect: the
    /// step the run loop takes for every event, for tests and tools that
    /// drive a transducer by hand.
    @inlinable
    public static func compute(_ state: inout State, event: Event) -> (Effect?, Output) {
        (nil, update(&state, event: event))
    }
}

extension Transducer {
    /// Runs the transducer until its state is terminal, delivering every
    /// output to `output`.
    ///
    /// The loop executes on the caller's isolation (`isolation`): every
    /// `update` and every output delivery happen there.
    ///
    /// ```swift
    /// let proxy = Counter.Proxy()
    /// Task { try await Counter.run(initialState: .counting(0), proxy: proxy, output: Callback { print($0) }) }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The state to start from. If it is already terminal,
    ///     `run` returns at once (see the `Throws` section).
    ///   - proxy: The event channel; it must not have been used by another
    ///     run. A new ``Proxy`` when left out: then nothing else can send
    ///     events, which suits a transducer driven by `initialOutput` alone.
    ///   - env: Always `()`: a pure transducer has no environment. Accepted
    ///     so that code can call every transducer the same way.
    ///   - output: Receives every output; `run` awaits each delivery. It
    ///     first receives ``BaseTransducer/initialOutput(initialState:)``
    ///     when that is not `nil`. Left out, outputs are ignored but the
    ///     final one is still returned.
    ///   - isolation: The isolation the run executes on. Leave it out: it
    ///     defaults to the caller's isolation (`#isolation`), which may be
    ///     none.
    /// - Returns: The output of the update that reached the terminal state
    ///   (or the initial output, when the initial state is terminal).
    /// - Throws: ``TransducerError/cancelled`` after `proxy.cancel()`,
    ///   `CancellationError` when the calling task is cancelled,
    ///   ``TransducerError/proxyAlreadyInUse``,
    ///   ``TransducerError/noOutputProduced`` when the run ends without a
    ///   final output (a terminal initial state and no initial output, or a
    ///   finished input), or the error an output delivery throws.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env = (),
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: LocalState(initialState), proxy: proxy, env: (), output: output,
            effectType: NoEffect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env = (),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, output: NoCallback<Output>(), isolation: isolation)
    }

    /// Runs the transducer against state owned by a host: `storage.value` is
    /// read as the initial state and written after every update.
    ///
    /// Hosts such as ``ObservableTransducer`` use this overload; write your
    /// own host (a terminal front end, a server actor) the same way. See
    /// ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``
    /// for the parameters.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env = (),
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: HostState(storage), proxy: proxy, env: (), output: output,
            effectType: NoEffect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env = (),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, output: NoCallback<Output>(), isolation: isolation)
    }

    /// Runs the transducer against the state kept in property `state` of
    /// the object `host` (an actor, or a class on the caller's isolation):
    /// the property is read as the initial state and written after every
    /// update.
    ///
    /// ```swift
    /// actor CounterHost {
    ///     var state = Counter.State.counting(0)
    ///     func start(proxy: Counter.Proxy) async throws {
    ///         try await Counter.run(state: \.state, host: self, proxy: proxy)
    ///     }
    /// }
    /// ```
    @discardableResult
    @inlinable
    public static func run<Host>(
        state: ReferenceWritableKeyPath<Host, State>,
        host: Host,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: HostState(KeyPathStorage(host: host, keyPath: state)), proxy: proxy, env: (), output: output,
            effectType: NoEffect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run<Host>(
        state: ReferenceWritableKeyPath<Host, State>,
        host: Host,
        proxy: Proxy = Proxy(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(state: state, host: host, proxy: proxy, output: NoCallback<Output>(), isolation: isolation)
    }
}
