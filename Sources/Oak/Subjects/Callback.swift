// A subject that calls a closure with every output.

/// A subject that calls a closure with every output.
///
/// ```swift
/// let output = Callback<Int> { value in
///     logger.info("Received output: \(value)")
/// }
/// try await CounterTransducer.run(initialState: state, proxy: proxy, output: output)
/// ```
///
/// The closure takes the isolation of the place where it is written:
/// written in a `@MainActor` view or model it runs on the main actor and may
/// use main-actor state; written in an actor method, it runs on that actor;
/// written in `nonisolated` code, it runs on no actor. Annotate it to choose
/// (`Callback { @MainActor value in … }`). `run` awaits each call
/// (back pressure); when the closure's isolation is the run's, no hop
/// happens. An error the closure throws fails the run.
///
/// A `Callback` is `Sendable`: create it anywhere and hand it to any run.
public struct Callback<Value>: Subject, Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// A synchronous closure: no async frame per call.
        case sync(@Sendable @isolated(any) (Value) -> Void)
        case async(@Sendable @isolated(any) (Value) async throws -> Void)
    }

    @usableFromInline
    let kind: Kind

    #if compiler(>=6.2)
    /// Creates a callback from a closure that `run` awaits for every output.
    /// The closure runs on the isolation of the place where it is written.
    public init(
        @_inheritActorContext(always) _ callback: @Sendable @escaping @isolated(any) (Value) async throws -> Void
    ) {
        kind = .async(callback)
    }

    /// Creates a callback from a synchronous closure, called for every
    /// output on the isolation of the place where it is written. Chosen for
    /// a closure without `await`: it costs no async frame per call.
    public init(@_inheritActorContext(always) _ callback: @Sendable @escaping @isolated(any) (Value) -> Void) {
        kind = .sync(callback)
    }
    #else
    /// Creates a callback from a closure that `run` awaits for every output.
    /// The closure runs on the isolation of the place where it is written.
    public init(@_inheritActorContext _ callback: @Sendable @escaping @isolated(any) (Value) async throws -> Void) {
        kind = .async(callback)
    }

    /// Creates a callback from a synchronous closure, called for every
    /// output on the isolation of the place where it is written.
    public init(@_inheritActorContext _ callback: @Sendable @escaping @isolated(any) (Value) -> Void) {
        kind = .sync(callback)
    }
    #endif

    /// Calls the closure with `value` and awaits it.
    @inlinable
    public func send(_ value: sending Value, isolated: isolated any Actor = #isolation) async throws {
        try await _send(value, isolation: isolated)
    }

    /// Calls the closure with `value` and awaits it; no actor is needed.
    @inlinable
    public func _send(_ value: sending Value, isolation: isolated (any Actor)?) async throws {
        switch kind {
        case .sync(let callback): await callback(value)
        case .async(let callback): try await callback(value)
        }
    }
}
