// A subject that ignores every output.

/// A subject that ignores every value: the output of a run that nobody
/// observes. It costs nothing on the hot path.
public struct NoCallback<Value>: Subject, Sendable {
    /// Creates a subject that ignores every value.
    @inlinable
    public init() {}

    /// Does nothing.
    @inlinable
    public func send(_ value: sending Value, isolated: isolated any Actor = #isolation) async {}

    /// Does nothing and returns `true`.
    @inlinable
    public func _sendSynchronously(_ value: Value) throws -> Bool { true }

    /// Does nothing.
    @inlinable
    public func _send(_ value: sending Value, isolation: isolated (any Actor)?) async {}
}
