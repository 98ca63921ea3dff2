// The `run` overloads of an effect transducer.
//
// A run executes on the caller's isolation (`isolation`), which may be
// none. Its isolated actions and operations receive that actor; in a run
// without isolation they receive an actor made for the run, and from the
// moment it exists every effect that uses `env` runs there, so that an
// `Env` that is not `Sendable` (a class) is never used from two places at
// once.

extension EffectTransducer {
    /// Runs the transducer until its state is terminal.
    ///
    /// For every event: `update` runs, its output is delivered to `output`
    /// (awaited), then its effect is executed. The loop and every action run
    /// on the caller's isolation (`isolation`); operations run in tasks the
    /// run manages and cancels when it ends.
    ///
    /// ```swift
    /// let proxy = Loader.Proxy()
    /// Task { try await Loader.run(initialState: .idle, proxy: proxy, env: .live, output: Callback { print($0) }) }
    /// try proxy.send(.start)
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The state to start from. If it is already terminal,
    ///     `run` returns at once (see the `Throws` section).
    ///   - proxy: The event channel; it must not have been used by another
    ///     run. A new ``Proxy`` when left out.
    ///   - env: The environment effects receive.
    ///   - output: Receives every output; `run` awaits each delivery. It
    ///     first receives ``BaseTransducer/initialOutput(initialState:)``
    ///     when that is not `nil`. Left out, outputs are ignored but the
    ///     final one is still returned. A transducer whose `update` returns
    ///     only `Effect?` has no output: `output` is never called.
    ///   - isolation: The isolation the run executes on. Leave it out: it
    ///     defaults to the caller's isolation (`#isolation`), which may be
    ///     none.
    /// - Returns: The output of the update that reached the terminal state
    ///   (or the initial output, when the initial state is terminal).
    /// - Throws: ``TransducerError/cancelled`` after `proxy.cancel()`,
    ///   `CancellationError` when the calling task is cancelled, the error of
    ///   a failed operation or action, ``TransducerError/proxyAlreadyInUse``,
    ///   ``TransducerError/noOutputProduced`` when a transducer with an
    ///   output ends without a final one (a terminal initial state and no
    ///   initial output, or a finished input).
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env,
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: LocalState(initialState), proxy: proxy, env: env, output: output,
            effectType: Oak.Effect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(
            initialState: initialState, proxy: proxy, env: env, output: NoCallback<Output>(), isolation: isolation)
    }

    /// Runs the transducer against state owned by a host: `storage.value` is
    /// read as the initial state and written after every update. See
    /// ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env,
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: HostState(storage), proxy: proxy, env: env, output: output,
            effectType: Oak.Effect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, env: env, output: NoCallback<Output>(), isolation: isolation)
    }
}

extension EffectTransducer where Env == Void {
    /// Runs a transducer whose effects need no environment; see
    /// ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: LocalState(initialState), proxy: proxy, env: (), output: output,
            effectType: Oak.Effect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, output: NoCallback<Output>(), isolation: isolation)
    }

    /// Runs a transducer whose effects need no environment against state
    /// owned by a host.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await _run(
            carrier: HostState(storage), proxy: proxy, env: (), output: output,
            effectType: Oak.Effect<Self>.self, isolation: isolation)
    }

    /// The same, for a run whose outputs nobody observes; it still returns the final output.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, output: NoCallback<Output>(), isolation: isolation)
    }
}
