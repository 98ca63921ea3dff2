// The live browser sessions: made with unguessable ids, found by cookie,
// capped in number, and expired after a time without requests — an expired
// session's run is cancelled and awaited, so no task is left behind.

import CMemory
import Common
import Foundation
import Logging
import MainScene

/// How many sessions may live, and for how long without a request.
public struct SessionLimits: Sendable, Hashable {
    /// The most sessions alive at once; a new browser gets 503 beyond it.
    public var maxSessions: Int
    /// How long a session lives after its last request.
    public var idleTimeout: Duration

    /// Limits for a small server: 1,000 sessions, 30 minutes.
    public init(maxSessions: Int = 1_000, idleTimeout: Duration = .seconds(30 * 60)) {
        self.maxSessions = maxSessions
        self.idleTimeout = idleTimeout
    }
}

/// Why no session was made.
enum SessionStoreError: Error, Equatable {
    /// As many sessions live as the limits allow.
    case full
}

/// The live sessions of a server.
actor SessionStore {
    private let limits: SessionLimits
    private let clock: any Clock<Duration>
    private let env: Main.Env
    private let logger: Logger
    /// The sessions, by id, and when each was last used (on `clock`,
    /// measured from `start`).
    private var sessions: [String: (session: WebSession, lastSeen: Duration)] = [:]
    private let start: Elapsed
    /// Whether the server is stopping.
    private var isClosed = false

    init(
        limits: SessionLimits, clock: any Clock<Duration>, env: Main.Env,
        logger: Logger = Logger(label: "comics.web")
    ) {
        self.limits = limits
        self.logger = logger
        self.clock = clock
        self.env = env
        self.start = Elapsed(on: clock)
    }

    /// How many sessions live.
    var count: Int { sessions.count }

    /// The session whose id is `id`, marked as used now; `nil` when there is
    /// none (never made, expired, or the id was forged).
    func session(id: String?) -> WebSession? {
        guard let id, let entry = sessions[id] else { return nil }
        sessions[id]?.lastSeen = now
        return entry.session
    }

    /// A new session, started.
    ///
    /// - Throws: ``SessionStoreError/full`` when `maxSessions` live.
    func makeSession() async throws(SessionStoreError) -> WebSession {
        await expireIdle()
        guard !isClosed, sessions.count < limits.maxSessions else { throw .full }
        let session = WebSession(id: Self.randomToken(), token: Self.randomToken())
        sessions[session.id] = (session, now)
        await session.start(env: env)
        return session
    }

    /// Ends every session idle for longer than `idleTimeout`; returns how
    /// many ended.
    @discardableResult
    func expireIdle() async -> Int {
        let deadline = now - limits.idleTimeout
        let idle = sessions.values.filter { $0.lastSeen < deadline }.map(\.session)
        for session in idle {
            sessions[session.id] = nil
        }
        for session in idle {
            await session.stop()
        }
        return idle.count
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

    /// Expires idle sessions every quarter of `idleTimeout` until cancelled.
    func sweep() async {
        let interval = limits.idleTimeout / 4
        var endedAtLastSweep = 0
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            let ended = await expireIdle()
            if ended > 0 || endedAtLastSweep > 0 {
                // Hands the pages freed by ended sessions back to the system
                // (glibc keeps them in its arenas otherwise, and the resident
                // size would stay at its peak); once more at the next sweep,
                // for what their connections freed after they ended.
                oak_return_freed_memory()
                logger.info(
                    ended > 0 ? "Idle sessions ended." : "Memory of ended sessions returned.",
                    metadata: [
                        "ended": "\(ended)", "live": "\(sessions.count)",
                        "heap_in_use_bytes": "\(oak_heap_in_use())",
                    ])
            }
            endedAtLastSweep = ended
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
