// The vocabulary shared by both kinds of transducer, and the `run`
// requirements that let generic code run any of them.

/// The vocabulary shared by ``Transducer`` and ``EffectTransducer``.
///
/// You do not conform to `BaseTransducer` directly; conform to one of the two
/// refinements. A conforming type is usually an `enum` without cases that
/// serves as a namespace for `State`, `Event`, `Output` and `update`.
///
/// Generic code can run any transducer through this protocol:
///
/// ```swift
/// func start<T: BaseTransducer>(
///     _ type: T.Type, from state: T.State, env: T.Env, isolation: isolated (any Actor)? = #isolation
/// ) async throws -> T.Output {
///     try await T.run(initialState: state, proxy: T.Proxy(), env: env, isolation: isolation)
/// }
/// ```
public protocol BaseTransducer<Event> {
    /// The state of the machine. A terminal state ends a run.
    associatedtype State: Terminable
    /// The events the machine reacts to.
    associatedtype Event
    /// The value each update produces; `Void` when the machine has no output.
    /// ``Transducer`` infers it from the return type of `update`.
    associatedtype Output
    /// The effect type: `Never` for a ``Transducer``, `Oak.Effect<Self>` (that
    /// is ``Effect``) for an ``EffectTransducer``.
    associatedtype Effect
    /// The environment effects receive: `Void` for a ``Transducer``.
    associatedtype Env
    /// The event channel used to run the machine: the buffered
    /// ``Proxy`` by default. Declare
    /// `typealias Proxy = SyncSuspendingProxy<Event>` to make every `send`
    /// wait until its event has been processed.
    ///
    /// The default is declared by ``Transducer`` and ``EffectTransducer``,
    /// next to their defaults for `Output`: a default here let the Swift 6.3
    /// compiler, resolving `T.Proxy` of a transducer declared in another
    /// file, take `Output`'s default too (`Void`) instead of the type
    /// `update` returns (decision 0018).
    associatedtype Proxy: TransducerProxy<Event> & _ChannelProxy

    /// The send-only input of the transducer's proxy.
    typealias Input = Proxy.Input

    /// The output a run produces before the first event, from the initial
    /// state alone (a Moore-style output): `run` delivers it to its output
    /// subject first and returns it when the initial state is already
    /// terminal. The default returns `nil`: no initial output.
    static func initialOutput(initialState: State) -> Output?

    /// Runs the transducer against state owned by a host; see the
    /// conforming protocols for the overloads with default arguments.
    @discardableResult
    static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        isolation: isolated (any Actor)?
    ) async throws -> Output

    /// Runs the transducer from `initialState`; see the conforming protocols
    /// for the overloads with default arguments.
    @discardableResult
    static func run(
        initialState: State,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        isolation: isolated (any Actor)?
    ) async throws -> Output
}

extension BaseTransducer {
    /// No initial output: returns `nil`.
    @inlinable
    public static func initialOutput(initialState: State) -> Output? { nil }
}
