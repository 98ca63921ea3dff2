// The time elapsed on a clock of any instant type, so that a type can take
// `any Clock<Duration>` (a test clock in tests) without being generic.

/// The time elapsed on a clock since this value was made.
public struct Elapsed: Sendable {
    private let sinceStart: @Sendable () -> Duration

    /// Starts measuring on `clock` now.
    public init<C: Clock>(on clock: C) where C.Duration == Duration {
        let start = clock.now
        sinceStart = { start.duration(to: clock.now) }
    }

    /// The time elapsed since this value was made.
    public var duration: Duration { sinceStart() }
}
