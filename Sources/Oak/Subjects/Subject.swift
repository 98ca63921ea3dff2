// The receiver of a run's outputs (`Subject`) and how the run delivers to it.

/// A receiver of the outputs of a transducer.
///
/// `send` is `async`: the run awaits every delivery before it executes the
/// effect of the same update, so a slow subject slows the transducer (back
/// pressure) instead of letting outputs pile up.
///
/// A subject need not be `Sendable`: `run` uses it on the caller's isolation
/// only, and calls `send` with that isolation as `isolated`. Write your own
/// subject by implementing ``send(_:isolated:)``:
///
/// ```swift
/// final class Collector<Value>: Subject {
///     private(set) var values: [Value] = []
///     func send(_ value: sending Value, isolated: isolated any Actor = #isolation) async throws {
///         values.append(value)
///     }
/// }
/// ```
///
/// A run that has no isolation (started from a `nonisolated` context) calls
/// `send` of a custom subject on an actor of its own, made for that
/// delivery; ``Callback``, ``NoCallback`` and the inputs of proxies need no
/// actor and are called directly.
public protocol Subject<Value> {
    /// The type of the values this subject receives.
    associatedtype Value

    /// Delivers `value`, suspending until the receiver has taken it.
    ///
    /// - Parameters:
    ///   - value: The output to deliver.
    ///   - isolated: The isolation of the `run` that delivers.
    /// - Throws: An error fails the run that delivers.
    func send(_ value: sending Value, isolated: isolated any Actor) async throws

    /// Delivers `value` synchronously when the subject can, returning `true`;
    /// returns `false` (and delivers nothing) when the delivery needs an
    /// `await`. An optimisation hook of the runtime: the default returns
    /// `false`.
    func _sendSynchronously(_ value: Value) throws -> Bool

    /// Delivers `value` from a run with isolation `isolation`, which may be
    /// `nil`. The runtime's entry point; the default calls
    /// ``send(_:isolated:)``.
    func _send(_ value: sending Value, isolation: isolated (any Actor)?) async throws
}

extension Subject {
    /// Returns `false`: delivery goes through ``send(_:isolated:)``.
    @inlinable
    public func _sendSynchronously(_ value: Value) throws -> Bool { false }

    /// Calls ``send(_:isolated:)`` with the run's isolation, or, for a run
    /// without isolation, with an actor made for this delivery. Inlinable,
    /// so that a run specialised for its subject calls the subject's `send`
    /// directly.
    @inlinable
    public func _send(_ value: sending Value, isolation: isolated (any Actor)?) async throws {
        // Safety: the run loop is the only user of this subject and awaits
        // each delivery before the next, so the subject and the value are
        // never used concurrently, whichever isolation `send` runs on.
        nonisolated(unsafe) let subject = self
        nonisolated(unsafe) let value = value
        if let isolation {
            try await subject.send(value, isolated: isolation)
        } else {
            try await DeliveryActor().deliver(value, to: subject)
        }
    }
}

/// The isolation a run without isolation gives the `send` of a custom
/// subject: one actor per delivery, since the run awaits each delivery
/// before the next and needs no shared executor.
@usableFromInline
actor DeliveryActor {
    @usableFromInline
    init() {}

    @usableFromInline
    func deliver<S: Subject>(_ value: sending S.Value, to subject: S) async throws {
        // Safety: see `Subject._send`; the subject is used by one delivery at a time.
        nonisolated(unsafe) let subject = subject
        try await subject.send(value, isolated: self)
    }
}
