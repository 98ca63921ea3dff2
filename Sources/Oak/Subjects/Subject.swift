/// A receiver of the outputs of a transducer.
///
/// `send` is `async`: the run awaits every delivery before it executes the
/// effect of the same update, so a slow subject slows the transducer (back
/// pressure) instead of letting outputs pile up.
///
/// A subject need not be `Sendable`: `run` uses it on the caller's isolation
/// only. That is what lets a ``Callback`` written in a `@MainActor` view or
/// model touch main-actor state.
public protocol Subject<Value> {
    /// The type of the values this subject receives.
    associatedtype Value

    /// Delivers `value`, suspending until the receiver has taken it.
    ///
    /// - Parameters:
    ///   - value: The output to deliver.
    ///   - isolated: The isolation of the `run` that delivers.
    /// - Throws: An error fails the run that delivers.
    func send(_ value: sending Value, isolated: isolated (any Actor)?) async throws

    /// Delivers `value` synchronously when the subject can, returning `true`;
    /// returns `false` (and delivers nothing) when the delivery needs `send`.
    /// An optimisation hook of the runtime: the default returns `false`.
    func _sendSynchronously(_ value: Value) throws -> Bool
}

extension Subject {
    /// Returns `false`: delivery goes through ``send(_:isolated:)``.
    @inlinable
    public func _sendSynchronously(_ value: Value) throws -> Bool { false }
}
