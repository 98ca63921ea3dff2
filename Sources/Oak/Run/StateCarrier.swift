// Where the run loop keeps the state while it runs: a local value, or the
// storage of a host that shows it.

/// Where the run loop keeps the state: in a local value, or in storage owned
/// by a host. Specialised per run, so the local case costs nothing.
@usableFromInline
protocol StateCarrier {
    associatedtype State
    var state: State { get }
    mutating func mutate<R>(_ body: (inout State) throws -> R) rethrows -> R
}

/// State held by the run itself (`run(initialState:…)`).
@usableFromInline
struct LocalState<State>: StateCarrier {
    @usableFromInline var state: State

    @inlinable
    init(_ state: State) { self.state = state }

    @inlinable
    mutating func mutate<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try body(&state)
    }
}

/// State owned by a host (`run(storage:…)`): read before and written after
/// every update, so the host sees each new state.
@usableFromInline
struct HostState<S: Storage>: StateCarrier {
    @usableFromInline let storage: S

    @inlinable
    init(_ storage: S) { self.storage = storage }

    @inlinable
    var state: S.Value { storage.value }

    @inlinable
    mutating func mutate<R>(_ body: (inout S.Value) throws -> R) rethrows -> R {
        var value = storage.value
        defer { storage.value = value }
        return try body(&value)
    }
}
