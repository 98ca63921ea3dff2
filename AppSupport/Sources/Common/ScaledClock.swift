// A clock on which time passes faster (or slower) than on the clock it is
// built on: `standups --speed 60` runs a five-minute meeting in five
// seconds for a demo or an end-to-end test, without the app's logic knowing.
// Generic over the base clock, so its arithmetic is tested on a test clock.

/// A clock whose time passes `factor` times as fast as `base`'s.
public struct ScaledClock<Base: Clock<Duration>>: Clock {
    /// A moment on the scaled clock: the scaled time since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Scaled time since the clock's origin.
        public var offset: Duration

        /// A moment `offset` after the origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The moment `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The scaled time from this moment to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Earlier first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    /// The clock time is read from.
    public let base: Base
    /// How many times as fast time passes (at least 1/1000).
    public let factor: Double
    private let origin: Base.Instant

    /// A clock running `factor` times as fast as `base`, starting now.
    public init(base: Base, factor: Double) {
        self.base = base
        self.factor = max(factor, 0.001)
        self.origin = base.now
    }

    /// Now, scaled.
    public var now: Instant {
        Instant(offset: origin.duration(to: base.now) * factor)
    }

    /// The base clock's resolution, scaled.
    public var minimumResolution: Duration {
        base.minimumResolution * factor
    }

    /// Sleeps until the scaled `deadline`: on the base clock, until the
    /// moment the scaled time reaches it.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let baseDeadline = origin.advanced(by: deadline.offset / factor)
        try await base.sleep(until: baseDeadline, tolerance: tolerance.map { $0 / factor })
    }
}
