/// Storage for the state of a transducer, supplied by a host.
///
/// A host (for example ``ObservableTransducer`` or a custom actor) owns the
/// state and lets ``Transducer/run(storage:proxy:output:isolated:)`` read it
/// and write every new state back, so that the host can observe each change.
///
/// `value` is read and written on the isolation of the caller of `run`; the
/// storage never crosses isolation, so it need not be `Sendable`.
public protocol Storage<Value> {
    /// The type of the stored state.
    associatedtype Value
    /// The current state; `run` writes each new state here after an update.
    var value: Value { get nonmutating set }
}
