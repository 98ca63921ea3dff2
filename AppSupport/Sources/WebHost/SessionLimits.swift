/// How many browser sessions a ``WebHost`` keeps, for how long, and how long
/// a new session's first page may wait for its app to settle.
public struct SessionLimits: Sendable, Hashable {
    /// The most sessions alive at once, beside the provisional ones of
    /// first visits; a new browser gets 503 beyond it.
    public var maxSessions: Int
    /// How long a session lives after its last request while no page of
    /// it is open. An open page (its event stream) keeps it alive. The
    /// host sweeps every quarter of this time, or every
    /// ``provisionalTimeout`` if that is shorter, so a session may outlive
    /// it by up to one sweep.
    public var idleTimeout: Duration
    /// How long the first response of a new session waits for the app to
    /// leave its loading states (``WebApplication/isSettled(_:)``) before
    /// it shows the page as it is.
    public var firstPaint: Duration
    /// The largest intent body accepted, in bytes: a form's fields, as
    /// the browser encodes them (a character beyond ASCII takes 6 to 12
    /// bytes; 32 KiB hold a stand-up with seventy attendees of sixty
    /// Cyrillic letters each).
    public var maxBodySize: Int
    /// How long a new session stays provisional at most: made by a first
    /// `GET /` without a cookie, it counts against ``maxSessions`` only once
    /// a request comes back with its cookie (the page's script, style or
    /// event stream, a form); one that never comes back ends after this
    /// time.
    public var provisionalTimeout: Duration
    /// The most provisional sessions at once; a new one beyond it ends the
    /// oldest (a flood of first visits cannot lock new browsers out).
    public var maxProvisionalSessions: Int
    /// The most provisional sessions one client address holds at once; a
    /// new one beyond it ends that client's oldest.
    public var maxProvisionalSessionsPerClient: Int
    /// The most pages of one session open at once (their event streams,
    /// each a connection). A page opened beyond it stops the session's
    /// oldest page from following the app: that page is told why and
    /// reloading it follows again. A browser opens at most six connections
    /// to a server over HTTP/1.1; a script that opens thousands of streams
    /// with one cookie can no longer take every connection of the server.
    public var maxOpenPagesPerSession: Int

    /// Limits for a small server: 1,000 sessions, 30 minutes idle, 2
    /// seconds for the first page, intents of at most 32 KiB; provisional
    /// sessions for 30 seconds, a quarter of `maxSessions` of them (at
    /// least 64), 64 per client address; 16 open pages per session.
    public init(
        maxSessions: Int = 1_000, idleTimeout: Duration = .seconds(30 * 60), firstPaint: Duration = .seconds(2),
        maxBodySize: Int = 32_768, provisionalTimeout: Duration = .seconds(30), maxProvisionalSessions: Int? = nil,
        maxProvisionalSessionsPerClient: Int = 64, maxOpenPagesPerSession: Int = 16
    ) {
        self.maxSessions = maxSessions
        self.idleTimeout = idleTimeout
        self.firstPaint = firstPaint
        self.maxBodySize = maxBodySize
        self.provisionalTimeout = provisionalTimeout
        self.maxProvisionalSessions = max(1, maxProvisionalSessions ?? max(64, maxSessions / 4))
        self.maxProvisionalSessionsPerClient = max(1, maxProvisionalSessionsPerClient)
        self.maxOpenPagesPerSession = max(1, maxOpenPagesPerSession)
    }
}
