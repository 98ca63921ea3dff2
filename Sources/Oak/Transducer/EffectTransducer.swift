/// A finite-state transducer whose `update` also returns an ``Effect``: side
/// work that the runtime executes with an environment `Env`.
///
/// `update` returns either `Self.Effect?` (no output) or
/// `(Self.Effect?, Output)`:
///
/// ```swift
/// enum Loader: EffectTransducer {
///     enum State: Terminable { case idle, loading, done(String)
///         var isTerminal: Bool { if case .done = self { true } else { false } }
///     }
///     enum Event { case start, loaded(String) }
///     struct Env: Sendable { var load: @Sendable () async throws -> String }
///
///     static func update(_ state: inout State, event: Event) -> Self.Effect? {
///         switch (state, event) {
///         case (.idle, .start):
///             state = .loading
///             return Effect { env, input in try input.send(.loaded(try await env.load())) }
///         case (.loading, .loaded(let text)):
///             state = .done(text)
///             return nil
///         default:
///             return nil
///         }
///     }
/// }
/// ```
public protocol EffectTransducer: BaseTransducer {
    /// The state; may be inferred from ``update(_:event:)``.
    associatedtype State
    /// The events; may be inferred from ``update(_:event:)``.
    associatedtype Event
    /// The dependencies effects receive (services, clocks, configuration).
    associatedtype Env = Void
    /// The value each update produces: `Void` (the default) when `update`
    /// returns only `Self.Effect?`. Declare it (`typealias Output = Int`) when
    /// `update` returns `(Self.Effect?, Output)`.
    associatedtype Output = Void
    /// What `update` returns: `Self.Effect?`, or `(Self.Effect?, Output)`.
    associatedtype TransducerOutput

    /// Computes the next state, the effect to execute and (optionally) the
    /// output for `event`. Called serially, never concurrently, on the
    /// isolation of the caller of `run`.
    static func update(_ state: inout State, event: Event) -> TransducerOutput

    /// Splits the result of `update` into effect and output. Provided by Oak
    /// for both forms of `update`; do not implement it.
    static func _split(_ result: TransducerOutput) -> (TransducerEffect<Self>?, Output)

    /// The effect type of this transducer: write `Effect` or `Self.Effect`
    /// inside the conforming type.
    typealias Effect = TransducerEffect<Self>
}

extension EffectTransducer where TransducerOutput == TransducerEffect<Self>?, Output == Void {
    /// `update` returns only an effect: the output is `Void`.
    @inlinable
    public static func _split(_ result: TransducerOutput) -> (TransducerEffect<Self>?, Output) { (result, ()) }
}

extension EffectTransducer where TransducerOutput == (TransducerEffect<Self>?, Output) {
    /// `update` returns an effect and an output.
    @inlinable
    public static func _split(_ result: TransducerOutput) -> (TransducerEffect<Self>?, Output) { result }
}

extension EffectTransducer {
    /// Runs the transducer until its state is terminal.
    ///
    /// For every event: `update` runs, its output is delivered to `output`
    /// (awaited), then its effect is executed. The loop and every action run
    /// on the caller's isolation (`isolated`); operations run in tasks the
    /// run manages and cancels when it ends.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from. If it is already terminal,
    ///     `run` returns at once.
    ///   - proxy: The event channel; it must not have been used by another run.
    ///   - env: The environment effects receive.
    ///   - output: Receives every output; `run` awaits each delivery.
    ///   - isolated: The isolation the run executes on. Leave it out: it
    ///     defaults to the caller's isolation (`#isolation`).
    /// - Returns: The output of the update that reached the terminal state.
    /// - Throws: ``TransducerError/cancelled`` after `proxy.cancel()`,
    ///   `CancellationError` when the calling task is cancelled, the error of
    ///   a failed operation or action, ``TransducerError/proxyAlreadyInUse``,
    ///   ``TransducerError/noOutputProduced``.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        return try await _run(
            carrier: _LocalState(initialState), proxy: proxy, env: env, output: output,
            effectType: TransducerEffect<Self>.self, isolation: isolated)
    }

    /// Runs the transducer until its state is terminal, ignoring outputs;
    /// see ``run(initialState:proxy:env:output:isolated:)``.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        env: Env,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: env, output: NoCallback(), isolated: isolated)
    }

    /// Runs the transducer against state owned by a host: `storage.value` is
    /// read as the initial state and written after every update. See
    /// ``run(initialState:proxy:env:output:isolated:)``.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        return try await _run(
            carrier: _HostState(storage), proxy: proxy, env: env, output: output,
            effectType: TransducerEffect<Self>.self, isolation: isolated)
    }
}

extension EffectTransducer {
    /// Runs the transducer against state owned by a host, ignoring outputs;
    /// see ``run(storage:proxy:env:output:isolated:)``.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        env: Env,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, env: env, output: NoCallback(), isolated: isolated)
    }
}

extension EffectTransducer where Env == Void {
    /// Runs a transducer whose effects need no environment.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        output: some Subject<Output>,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: (), output: output, isolated: isolated)
    }

    /// Runs a transducer whose effects need no environment, ignoring outputs.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: (), output: NoCallback(), isolated: isolated)
    }
}
