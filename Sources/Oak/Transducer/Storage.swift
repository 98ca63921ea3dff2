// Where a host keeps a transducer's state (`Storage`).

/// Storage for the state of a transducer, supplied by a host.
///
/// A host (for example ``ObservableTransducer`` or a custom actor) owns the
/// state and lets `run(storage:proxy:env:output:isolation:)` read it
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

/// A property of an object as the storage of a run
/// (`run(state:host:proxy:output:isolation:)`).
@usableFromInline
struct KeyPathStorage<Host, Value>: Storage {
    @usableFromInline let host: Host
    @usableFromInline let keyPath: ReferenceWritableKeyPath<Host, Value>

    @inlinable
    init(host: Host, keyPath: ReferenceWritableKeyPath<Host, Value>) {
        self.host = host
        self.keyPath = keyPath
    }

    @inlinable
    var value: Value {
        get { host[keyPath: keyPath] }
        nonmutating set { host[keyPath: keyPath] = newValue }
    }
}
