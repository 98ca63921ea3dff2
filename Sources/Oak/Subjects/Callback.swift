/// A subject that calls a closure with every output.
///
/// ```swift
/// let output = Callback<Int> { value in
///     logger.info("Received output: \(value)")
/// }
/// try await CounterTransducer.run(initialState: state, proxy: proxy, output: output)
/// ```
///
/// A synchronous closure runs on the isolation of `run`, inside the
/// computation cycle, and costs no suspension. An `async` closure runs on its
/// own isolation (annotate it with a global actor to choose one); the run
/// waits for it (back pressure).
public struct Callback<Value>: Subject {
    @usableFromInline
    enum Kind: Sendable {
        case sync(@Sendable (Value) -> Void)
        case async(@Sendable @isolated(any) (Value) async throws -> Void)
    }

    @usableFromInline
    let kind: Kind

    /// Creates a callback from a synchronous closure, called on the isolation
    /// of `run` for every output.
    public init(_ callback: @Sendable @escaping (Value) -> Void) {
        kind = .sync(callback)
    }

    /// Creates a callback from an asynchronous closure; `run` awaits each call.
    /// An error it throws fails the run.
    public init(_ callback: @Sendable @escaping @isolated(any) (Value) async throws -> Void) {
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
