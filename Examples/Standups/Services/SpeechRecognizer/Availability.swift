// Whether the recogniser or an audio source can be used on this machine.

/// Whether something the recogniser needs is there.
public enum Availability: Equatable, Hashable, Sendable {
    /// It can be used.
    case available
    /// It cannot: `reason` says what is missing and what to install.
    case unavailable(reason: String)
}
