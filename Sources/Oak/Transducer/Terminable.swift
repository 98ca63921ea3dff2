// States that know whether they are final (`Terminable`, `NonTerminal`).

/// A state that knows whether it is final.
///
/// When the state of a running transducer becomes terminal after an update,
/// the run ends: the output of that update is delivered, the input is closed,
/// every running operation is cancelled and `run` returns that output.
///
/// ```swift
/// struct State: Terminable {
///     var value = 0
///     var isTerminal: Bool { value > 10 }
/// }
/// ```
public protocol Terminable {
    /// Whether this state ends the run of the transducer that reaches it.
    var isTerminal: Bool { get }
}

/// A state that is never terminal: a transducer with such a state runs until
/// it is cancelled.
///
/// ```swift
/// struct State: NonTerminal {
///     var count = 0
/// }
/// ```
public protocol NonTerminal: Terminable {}

extension NonTerminal {
    /// Always `false`.
    @inlinable
    public var isTerminal: Bool { false }
}
