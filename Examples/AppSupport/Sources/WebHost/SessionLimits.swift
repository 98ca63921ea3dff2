/// How many browser sessions a ``WebHost`` keeps, for how long, and how long
/// a new session's first page may wait for its app to settle.
public struct SessionLimits: Sendable, Hashable {
    /// The most sessions alive at once; a new browser gets 503 beyond it.
    public var maxSessions: Int
    /// How long a session lives after its last request while no page of
    /// it is open. An open page (its event stream) keeps it alive; the
    /// server checks every quarter of this time that the page is still
    /// there.
    public var idleTimeout: Duration
    /// How long the first response of a new session waits for the app to
    /// leave its loading states (``WebApplication/isSettled(_:)``) before
    /// it shows the page as it is.
    public var firstPaint: Duration
    /// The largest intent body accepted, in bytes.
    public var maxBodySize: Int

    /// Limits for a small server: 1,000 sessions, 30 minutes idle, 2
    /// seconds for the first page, intents of at most 4 KiB.
    public init(
        maxSessions: Int = 1_000, idleTimeout: Duration = .seconds(30 * 60), firstPaint: Duration = .seconds(2),
        maxBodySize: Int = 4_096
    ) {
        self.maxSessions = maxSessions
        self.idleTimeout = idleTimeout
        self.firstPaint = firstPaint
        self.maxBodySize = maxBodySize
    }
}
