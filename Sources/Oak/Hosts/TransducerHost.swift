// A host of your own: an actor that owns a transducer's state and runs it
// (`TransducerHost`), with its `run` overloads.

/// An actor that owns the state of a transducer and runs it on its own
/// isolation: what Oak calls a *transducer actor*.
///
/// ``ObservableTransducer`` and `TransducerView` are hosts for user
/// interfaces on the main actor. Conform your own actor to `TransducerHost`
/// to host a transducer anywhere else — a terminal front end, a session on a
/// server — against state the actor owns:
///
/// ```swift
/// actor CounterSession: TransducerHost {
///     typealias Hosted = SimpleCounter
///
///     /// The state, kept in a storage the run reads and writes.
///     let storage = StateBox(SimpleCounter.initialState)
///     /// The event channel; `nonisolated` so that anyone can send.
///     nonisolated let proxy = SimpleCounter.Proxy()
/// }
///
/// final class StateBox<Value>: Storage {
///     var value: Value
///     init(_ value: Value) { self.value = value }
/// }
///
/// let session = CounterSession()
/// let task = Task { try await session.run() }  // runs on `session`
/// try session.proxy.send(.increment)
/// ```
///
/// The storage may be any ``Storage``: a class with a `didSet` that renders
/// every new state, for example. It need not be `Sendable`: it stays inside
/// the actor, and `run` reads and writes it only on the actor's isolation,
/// before and after each update.
///
/// A host runs its proxy once: a proxy belongs to exactly one run. To run
/// again, create a new host (or give your own type a way to replace its
/// proxy).
public protocol TransducerHost<Hosted>: Actor {
    /// The transducer this actor runs.
    associatedtype Hosted: BaseTransducer
    /// Where the actor keeps the state of the transducer.
    associatedtype HostStorage: Storage<Hosted.State>

    /// The state the actor owns. The run reads the initial state from it and
    /// writes every new state to it, on the actor's isolation.
    var storage: HostStorage { get }

    /// The event channel of the actor's run. It is `nonisolated`, so that
    /// any component can send events or cancel the run without awaiting the
    /// actor.
    nonisolated var proxy: Hosted.Proxy { get }
}

extension TransducerHost {
    /// The current state: the initial state until the first update, then the
    /// state after each update.
    public var state: Hosted.State { storage.value }

    /// The send-only input of the run.
    public nonisolated var input: Hosted.Input { proxy.input }

    /// Ends the run with ``TransducerError/cancelled``; every operation is
    /// cancelled before `run` returns. Calling it again, or after the run has
    /// ended, does nothing.
    public nonisolated func cancel() {
        proxy.cancel()
    }

    /// Awaits `body` and hands its result to `completion` exactly once.
    @inlinable
    func complete(
        _ completion: (Result<Hosted.Output, any Error>) -> Void,
        with body: () async throws -> Hosted.Output
    ) async {
        completion(await Result(catching: body))
    }
}

extension TransducerHost where Hosted: Transducer {
    /// Runs the transducer on this actor until its state is terminal, reading
    /// and writing ``storage``.
    ///
    /// - Parameter output: Receives every output; the run awaits each
    ///   delivery.
    /// - Returns: The output of the update that reached the terminal state.
    /// - Throws: ``TransducerError/cancelled`` after ``cancel()``,
    ///   `CancellationError` when the calling task is cancelled,
    ///   ``TransducerError/proxyAlreadyInUse`` when the proxy has already run,
    ///   or the error an output delivery throws. See
    ///   ``BaseTransducer/run(storage:proxy:env:output:isolation:)``.
    @discardableResult
    @inlinable
    public func run(output: some Subject<Hosted.Output>) async throws -> Hosted.Output {
        try await Hosted.run(storage: storage, proxy: proxy, output: output)
    }

    /// Runs the transducer on this actor until its state is terminal,
    /// ignoring outputs; the same as `run(output: NoCallback())`.
    @discardableResult
    @inlinable
    public func run() async throws -> Hosted.Output {
        try await run(output: NoCallback<Hosted.Output>())
    }

    /// Runs the transducer on this actor until it ends, then calls
    /// `completion` exactly once with how it ended: `.success(output)` on a
    /// terminal state, `.failure(error)` on cancellation or failure.
    ///
    /// Every operation has been cancelled and awaited when `completion` is
    /// called; it is called on this actor.
    @inlinable
    public func run(
        output: some Subject<Hosted.Output>,
        completion: (Result<Hosted.Output, any Error>) -> Void
    ) async {
        await complete(completion) { try await run(output: output) }
    }

    /// Runs the transducer on this actor until it ends, ignoring outputs,
    /// then calls `completion` exactly once; the same as
    /// `run(output: NoCallback(), completion: completion)`.
    @inlinable
    public func run(completion: (Result<Hosted.Output, any Error>) -> Void) async {
        await run(output: NoCallback<Hosted.Output>(), completion: completion)
    }
}

extension TransducerHost where Hosted: EffectTransducer {
    /// Runs the transducer on this actor until its state is terminal, reading
    /// and writing ``storage``.
    ///
    /// - Parameters:
    ///   - env: The environment the effects receive.
    ///   - output: Receives every output; the run awaits each delivery.
    /// - Returns: The output of the update that reached the terminal state.
    /// - Throws: ``TransducerError/cancelled`` after ``cancel()``,
    ///   `CancellationError` when the calling task is cancelled, the error of
    ///   a failed operation, ``TransducerError/proxyAlreadyInUse`` when the
    ///   proxy has already run. See
    ///   ``BaseTransducer/run(storage:proxy:env:output:isolation:)``.
    @discardableResult
    @inlinable
    public func run(env: Hosted.Env, output: some Subject<Hosted.Output>) async throws -> Hosted.Output {
        try await Hosted.run(storage: storage, proxy: proxy, env: env, output: output)
    }

    /// Runs the transducer on this actor until its state is terminal,
    /// ignoring outputs; see ``run(env:output:)``.
    @discardableResult
    @inlinable
    public func run(env: Hosted.Env) async throws -> Hosted.Output {
        try await run(env: env, output: NoCallback<Hosted.Output>())
    }

    /// Runs the transducer on this actor until it ends, then calls
    /// `completion` exactly once with how it ended: `.success(output)` on a
    /// terminal state, `.failure(error)` on cancellation or failure.
    ///
    /// Every operation has been cancelled and awaited when `completion` is
    /// called; it is called on this actor.
    @inlinable
    public func run(
        env: Hosted.Env,
        output: some Subject<Hosted.Output>,
        completion: (Result<Hosted.Output, any Error>) -> Void
    ) async {
        await complete(completion) { try await run(env: env, output: output) }
    }

    /// Runs the transducer on this actor until it ends, ignoring outputs,
    /// then calls `completion` exactly once; see
    /// ``run(env:output:completion:)``.
    @inlinable
    public func run(env: Hosted.Env, completion: (Result<Hosted.Output, any Error>) -> Void) async {
        await run(env: env, output: NoCallback<Hosted.Output>(), completion: completion)
    }
}

extension TransducerHost where Hosted: EffectTransducer, Hosted.Env == Void {
    /// Runs a transducer whose effects need no environment; see
    /// ``run(env:output:)``.
    @discardableResult
    @inlinable
    public func run(output: some Subject<Hosted.Output>) async throws -> Hosted.Output {
        try await run(env: (), output: output)
    }

    /// Runs a transducer whose effects need no environment, ignoring
    /// outputs.
    @discardableResult
    @inlinable
    public func run() async throws -> Hosted.Output {
        try await run(env: ())
    }

    /// Runs a transducer whose effects need no environment and calls
    /// `completion` exactly once; see ``run(env:output:completion:)``.
    @inlinable
    public func run(
        output: some Subject<Hosted.Output>,
        completion: (Result<Hosted.Output, any Error>) -> Void
    ) async {
        await run(env: (), output: output, completion: completion)
    }

    /// Runs a transducer whose effects need no environment, ignoring
    /// outputs, and calls `completion` exactly once.
    @inlinable
    public func run(completion: (Result<Hosted.Output, any Error>) -> Void) async {
        await run(env: (), completion: completion)
    }
}

extension TransducerHost where Hosted.Proxy == Proxy<Hosted.Event> {
    /// Enqueues `event` for processing by the run; the same as
    /// `proxy.send(event)`.
    ///
    /// - Throws: ``TransducerError/terminated`` when the run has ended,
    ///   ``TransducerError/bufferFull`` when the proxy's buffer is full.
    public nonisolated func send(_ event: sending Hosted.Event) throws(TransducerError) {
        try proxy.send(event)
    }
}
