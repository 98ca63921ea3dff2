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
/// Run it with a proxy: ``run(initialState:proxy:output:isolated:)``.
public protocol Transducer: BaseTransducer {
    /// The state; may be inferred from ``update(_:event:)``.
    associatedtype State
    /// The events; may be inferred from ``update(_:event:)``.
    associatedtype Event
    /// The value each update produces, inferred from the return type of
    /// ``update(_:event:)``: `Void` when it returns nothing.
    associatedtype Output
    /// Computes the next state and the output for `event`. Called serially,
    /// never concurrently, on the isolation of the caller of `run`.
    static func update(_ state: inout State, event: Event) -> Output
}

extension Transducer {
    /// Runs the transducer until its state is terminal, delivering every
    /// output to `output`.
    ///
    /// The loop executes on the caller's isolation (`isolated`): every
    /// `update` and every output delivery happen there.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from. If it is already terminal,
    ///     `run` returns at once.
    ///   - proxy: The event channel; it must not have been used by another run.
    ///   - output: Receives every output; `run` awaits each delivery.
    ///   - isolated: The isolation the run executes on. Leave it out: it
    ///     defaults to the caller's isolation (`#isolation`).
    /// - Returns: The output of the update that reached the terminal state.
    /// - Throws: ``TransducerError/cancelled`` after `proxy.cancel()`,
    ///   `CancellationError` when the calling task is cancelled,
    ///   ``TransducerError/proxyAlreadyInUse``,
    ///   ``TransducerError/noOutputProduced`` when the initial state is
    ///   terminal and `Output` is not `Void`, or the error an output delivery
    ///   throws.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        output: some Subject<Output>,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        return try await _run(
            carrier: _LocalState(initialState), proxy: proxy, env: (), output: output, effectType: _NoEffect<Self>.self,
            isolation: isolated)
    }

    /// Runs the transducer until its state is terminal; see
    /// ``run(initialState:proxy:output:isolated:)``.
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, output: NoCallback(), isolated: isolated)
    }

    /// Runs the transducer against state owned by a host: `storage.value` is
    /// read as the initial state and written after every update.
    ///
    /// Hosts such as ``ObservableTransducer`` use this overload; write your
    /// own host (a terminal front end, a server actor) the same way.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        output: some Subject<Output>,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        return try await _run(
            carrier: _HostState(storage), proxy: proxy, env: (), output: output, effectType: _NoEffect<Self>.self,
            isolation: isolated)
    }

    /// Runs the transducer against state owned by a host, ignoring outputs;
    /// see ``run(storage:proxy:output:isolated:)``.
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, output: NoCallback(), isolated: isolated)
    }
}
