// The live browser sessions: made with unguessable ids, found by cookie,
// capped in number, kept while a page of theirs is open, and expired after a
// time without requests or open pages — an expired session's run is
// cancelled and awaited, so no task is left behind. A first visit's session
// is provisional until its cookie comes back: a budget of its own, so that
// a script that fetches `/` a thousand times cannot lock browsers out.

import CMemory
import Common
import Logging
import Oak
import WebUI

/// Why no session was made.
enum SessionStoreError: Error, Equatable {
    /// As many sessions live as the limits allow, or the server is stopping.
    case full
}

/// What one sweep did.
public struct SweepReport: Sendable, Hashable {
    /// Sessions ended because they were idle.
    public var expired: Int
    /// Sessions kept because a page of theirs is open (their pages were
    /// pinged).
    public var kept: Int
}

/// The live sessions of a server.
actor SessionStore<App: WebApplication> {
    private let app: App
    private let limits: SessionLimits
    let clock: any Clock<Duration>
    private let logger: Logger
    /// A live session, when it was last used (on `clock`, measured from
    /// `start`), and, while no request has come back with its cookie, the
    /// client that made it and when.
    private struct Entry {
        var session: WebSession<App>
        var lastSeen: Duration
        var provisional: (client: String, made: Duration)?
    }

    /// The sessions, by id.
    private var sessions: [String: Entry] = [:]
    /// The ids of the provisional sessions, oldest first.
    private var provisionalOrder: [String] = []
    private let start: Elapsed
    /// Whether the server is stopping.
    private var isClosed = false
    /// Sessions ended by the previous sweep: their memory is returned at
    /// the next one too.
    private var endedAtLastSweep = 0
    /// What the sessions' pages show alike, rendered once for all of them.
    nonisolated let renderings = WebRenderCache()

    /// Whether the app opens a page at `path` (``WebApplication/opens(_:)``).
    nonisolated func opens(_ path: String) -> Bool { app.opens(path) }

    /// The inspector installed where the host started, if any: the
    /// sessions' runs are inspected by it.
    private let inspector = TransducerInspection.inspector

    init(app: App, limits: SessionLimits, clock: any Clock<Duration>, logger: Logger) {
        self.app = app
        self.limits = limits
        self.clock = clock
        self.logger = logger
        self.start = Elapsed(on: clock)
    }

    /// How many sessions live, provisional ones included.
    var count: Int { sessions.count }

    /// How many sessions are provisional.
    var provisionalCount: Int { provisionalOrder.count }

    /// How many sessions count against `maxSessions`.
    private var confirmedCount: Int { sessions.count - provisionalOrder.count }

    /// The session whose id is `id`, marked as used now; `nil` when there is
    /// none (never made, expired, or the id was forged). A provisional
    /// session is confirmed by this request, its cookie having come back,
    /// when `maxSessions` allows (else it stays provisional).
    func session(id: String?) -> WebSession<App>? {
        guard let id, var entry = sessions[id] else { return nil }
        entry.lastSeen = now
        if entry.provisional != nil, confirmedCount < limits.maxSessions {
            entry.provisional = nil
            provisionalOrder.removeAll { $0 == id }
        }
        sessions[id] = entry
        return entry.session
    }

    /// The first live session of `ids` (a request's session cookies, in
    /// the order sent), marked as used now as ``session(id:)`` does; `nil`
    /// when none names one.
    func session(among ids: [String]) -> WebSession<App>? {
        guard let id = ids.first(where: { sessions[$0] != nil }) else { return nil }
        return session(id: id)
    }

    /// A new session, started: provisional, made for `client` (its
    /// address), until a request comes back with its cookie.
    ///
    /// Provisional sessions have their own budget: beyond
    /// `maxProvisionalSessionsPerClient` for the client, its oldest ends;
    /// beyond `maxProvisionalSessions`, the oldest of all; any older than
    /// `provisionalTimeout` end first.
    ///
    /// - Throws: ``SessionStoreError/full`` when `maxSessions` confirmed
    ///   sessions live (the new one could never be confirmed), or the
    ///   server is stopping.
    func makeSession(client: String, at path: String = "/") async throws(SessionStoreError) -> WebSession<App> {
        if confirmedCount >= limits.maxSessions { await expireIdle() }
        guard !isClosed, confirmedCount < limits.maxSessions else { throw .full }
        var ending: [WebSession<App>] = []
        let expired = now - limits.provisionalTimeout
        while let oldest = provisionalOrder.first, let made = sessions[oldest]?.provisional?.made, made < expired {
            if let ended = remove(oldest) { ending.append(ended) }
        }
        let clients = provisionalOrder.filter { sessions[$0]?.provisional?.client == client }
        if clients.count >= limits.maxProvisionalSessionsPerClient, let oldest = clients.first {
            if let ended = remove(oldest) { ending.append(ended) }
        }
        if provisionalOrder.count >= limits.maxProvisionalSessions, let oldest = provisionalOrder.first {
            if let ended = remove(oldest) { ending.append(ended) }
        }
        let session = WebSession(
            app: app, id: Self.randomToken(), token: Self.randomToken(), renderings: renderings,
            maxOpenPages: limits.maxOpenPagesPerSession, inspector: inspector)
        sessions[session.id] = Entry(session: session, lastSeen: now, provisional: (client, now))
        provisionalOrder.append(session.id)
        await session.start(at: path)
        for ended in ending { await ended.stop() }
        return session
    }

    /// Forgets the session `id`; returns it, for the caller to stop.
    private func remove(_ id: String) -> WebSession<App>? {
        guard let entry = sessions.removeValue(forKey: id) else { return nil }
        if entry.provisional != nil { provisionalOrder.removeAll { $0 == id } }
        return entry.session
    }

    /// Ends every session idle for longer than `idleTimeout` with no page
    /// open; returns how many ended.
    @discardableResult
    func expireIdle() async -> Int {
        await sweep().expired
    }

    /// One pass: sessions with an open page are kept (their pages pinged,
    /// so that a page whose connection has gone is noticed), the others
    /// end when idle for longer than `idleTimeout`.
    func sweep() async -> SweepReport {
        let deadline = now - limits.idleTimeout
        let provisionalDeadline = now - limits.provisionalTimeout
        func isOver(_ entry: Entry) -> Bool {
            entry.lastSeen < deadline || (entry.provisional.map { $0.made < provisionalDeadline } ?? false)
        }
        var idle: [WebSession<App>] = []
        var kept = 0
        for (id, entry) in sessions {
            if entry.session.openPages > 0 {
                sessions[id]?.lastSeen = now
                entry.session.pingPages()
                kept += 1
            } else if isOver(entry) {
                idle.append(entry.session)
            }
        }
        for session in idle {
            // Not used since the check above: a request meanwhile would have
            // marked it (and confirmed a provisional one).
            guard let entry = sessions[session.id], isOver(entry) else { continue }
            _ = remove(session.id)
        }
        var expired = 0
        for session in idle where sessions[session.id] == nil {
            await session.stop()
            expired += 1
        }
        return SweepReport(expired: expired, kept: kept)
    }

    /// Ends every session, and makes no new one from now on.
    func close() async {
        isClosed = true
        let all = sessions.values.map(\.session)
        sessions.removeAll()
        provisionalOrder.removeAll()
        // Every page first hears that the server is stopping, then each
        // session stops (and its pages' streams end).
        for session in all {
            session.tellPagesStopping()
        }
        for session in all {
            await session.stop()
        }
    }

    /// Sweeps every quarter of `idleTimeout`, or every `provisionalTimeout`
    /// when that is shorter, until cancelled.
    func sweepPeriodically() async {
        let interval = min(limits.idleTimeout / 4, limits.provisionalTimeout)
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            let report = await sweep()
            // Hands the pages freed since the last sweep back to the system:
            // by ended sessions, and by connections that closed (a burst of
            // them leaves their buffers in glibc's arenas otherwise, and the
            // resident size would stay at its peak). A few milliseconds for
            // a heap of hundreds of megabytes, every sweep.
            oak_return_freed_memory()
            if report.expired > 0 || endedAtLastSweep > 0 {
                logger.info(
                    report.expired > 0 ? "Idle sessions ended." : "Memory of ended sessions returned.",
                    metadata: [
                        "ended": "\(report.expired)", "kept_with_open_pages": "\(report.kept)",
                        "live": "\(sessions.count)", "heap_in_use_bytes": "\(oak_heap_in_use())",
                    ])
            }
            endedAtLastSweep = report.expired
        }
    }

    private var now: Duration { start.duration }

    /// 32 bytes from the system's cryptographically secure generator
    /// (`SystemRandomNumberGenerator`: `getrandom` on Linux,
    /// `arc4random_buf` on Apple platforms), as 64 hexadecimal digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
