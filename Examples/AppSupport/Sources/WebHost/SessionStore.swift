// The live browser sessions: made with unguessable ids, found by cookie,
// capped in number, kept while a page of theirs is open, and expired after a
// time without requests or open pages — an expired session's run is
// cancelled and awaited, so no task is left behind.

import CMemory
import Common
import Logging

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
    /// The sessions, by id, and when each was last used (on `clock`,
    /// measured from `start`).
    private var sessions: [String: (session: WebSession<App>, lastSeen: Duration)] = [:]
    private let start: Elapsed
    /// Whether the server is stopping.
    private var isClosed = false
    /// Sessions ended by the previous sweep: their memory is returned at
    /// the next one too.
    private var endedAtLastSweep = 0

    init(app: App, limits: SessionLimits, clock: any Clock<Duration>, logger: Logger) {
        self.app = app
        self.limits = limits
        self.clock = clock
        self.logger = logger
        self.start = Elapsed(on: clock)
    }

    /// How many sessions live.
    var count: Int { sessions.count }

    /// The session whose id is `id`, marked as used now; `nil` when there is
    /// none (never made, expired, or the id was forged).
    func session(id: String?) -> WebSession<App>? {
        guard let id, let entry = sessions[id] else { return nil }
        sessions[id]?.lastSeen = now
        return entry.session
    }

    /// A new session, started.
    ///
    /// - Throws: ``SessionStoreError/full`` when `maxSessions` live.
    func makeSession() async throws(SessionStoreError) -> WebSession<App> {
        if sessions.count >= limits.maxSessions { await expireIdle() }
        guard !isClosed, sessions.count < limits.maxSessions else { throw .full }
        let session = WebSession(app: app, id: Self.randomToken(), token: Self.randomToken())
        sessions[session.id] = (session, now)
        await session.start()
        return session
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
        var idle: [WebSession<App>] = []
        var kept = 0
        for (id, entry) in sessions {
            if await entry.session.openPages > 0 {
                sessions[id]?.lastSeen = now
                await entry.session.pingPages()
                kept += 1
            } else if entry.lastSeen < deadline {
                idle.append(entry.session)
            }
        }
        for session in idle {
            // Not used since the check above: a request meanwhile would have
            // marked it.
            guard let entry = sessions[session.id], entry.lastSeen < deadline else { continue }
            sessions[session.id] = nil
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
        for session in all {
            await session.stop()
        }
    }

    /// Sweeps every quarter of `idleTimeout` until cancelled.
    func sweepPeriodically() async {
        let interval = limits.idleTimeout / 4
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            let report = await sweep()
            if report.expired > 0 || endedAtLastSweep > 0 {
                // Hands the pages freed by ended sessions back to the system
                // (glibc keeps them in its arenas otherwise, and the resident
                // size would stay at its peak); once more at the next sweep,
                // for what their connections freed after they ended.
                oak_return_freed_memory()
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
