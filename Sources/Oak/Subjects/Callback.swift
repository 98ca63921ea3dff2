/// A subject that calls a closure with every output.
///
/// ```swift
/// let output = Callback<Int> { value in
///     logger.info("Received output: \(value)")
/// }
/// try await CounterTransducer.run(initialState: state, proxy: proxy, output: output)
/// ```
///
/// The closure inherits the isolation of the place where it is written,
/// like the closure of a `Task`: in a `@MainActor` view or model it may use
/// main-actor state. A synchronous closure is called directly, inside the
/// computation cycle, with no suspension; an `async` closure is awaited on
/// its own isolation (back pressure).
///
/// A `Callback` is not `Sendable`: hand it to a `run` on the isolation where
/// it was created.
public struct Callback<Value>: Subject {
    @usableFromInline
    enum Kind {
        case sync((Value) -> Void)
        case async(@isolated(any) (Value) async throws -> Void)
    }

    @usableFromInline
    let kind: Kind

    /// Creates a callback from a synchronous closure, called for every output
    /// on the isolation of `run`.
    public init(_ callback: @escaping (Value) -> Void) {
        kind = .sync(callback)
    }

    /// Creates a callback from an asynchronous closure; `run` awaits each call.
    /// An error it throws fails the run.
    public init(_ callback: @escaping @isolated(any) (Value) async throws -> Void) {
        kind = .async(callback)
    }

    /// Calls the closure with `value`.
    @inlinable
    public func send(_ value: sending Value, isolated: isolated (any Actor)? = #isolation) async throws {
        switch kind {
        case .sync(let callback): callback(value)
        case .async(let callback): try await callback(value)
        }
    }

    /// Calls a synchronous closure at once; returns `false` for an async one.
    @inlinable
    public func _sendSynchronously(_ value: Value) throws -> Bool {
        guard case .sync(let callback) = kind else { return false }
        callback(value)
        return true
    }
}
