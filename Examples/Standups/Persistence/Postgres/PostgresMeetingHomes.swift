// Where each stand-up's meetings run, among the server processes sharing
// one PostgreSQL database: the first process to start a stand-up's meeting
// claims the stand-up with a session-level advisory lock, on a connection
// of its own, and writes its address beside it; it keeps the claim until
// the meeting ends (`release`), so that the meeting runs there. Another
// process that tries to claim the stand-up finds the
// lock taken and sends its viewer to the address of the lock's holder. A
// process that dies (killed, crashed) loses its connection, and with it
// every claim: the next meeting is claimed by whichever process starts it.

import Devices
import Foundation
import Logging
import Models
import PostgresNIO
import PostgresSupport

/// The homes of the stand-ups' meetings, claimed with advisory locks.
///
/// ```swift
/// let homes = try await PostgresMeetingHomes.open(database, address: { host.baseURL })
/// let app = StandupsWeb(env: env, microphones: microphones, homes: homes.port)
/// ```
public actor PostgresMeetingHomes {
    /// The schema's history (component "meeting-homes").
    static let migrations = [
        """
        CREATE TABLE meeting_home (
            standup_id uuid PRIMARY KEY,
            address text NOT NULL,
            pid integer NOT NULL,
            claimed_at timestamptz NOT NULL DEFAULT now()
        )
        """
    ]

    private let database: PostgresAppDatabase
    private let address: @Sendable () -> String
    private let logger: Logger
    /// The connection that holds this process's claims; `nil` until the
    /// first claim, and after it was lost (with every claim).
    private var connection: PostgresConnection?
    /// The connection being opened: callers that need one meanwhile wait
    /// for it rather than open another (the actor is re-entered while one
    /// opens; a second connection would replace the first, dropping it
    /// open with its claims).
    private var opening: Task<PostgresConnection, any Error>?
    /// The claims under way, by stand-up: a second claim of one stand-up
    /// waits for the first (taking its advisory lock twice on one
    /// session would need two unlocks to give it up).
    private var claiming: [Standup.ID: Task<MeetingHome, any Error>] = [:]
    private var claimed: Set<Standup.ID> = []
    private var connections = 0
    /// Set by ``close()``: no connection is opened after it.
    private var isClosed = false

    private init(database: PostgresAppDatabase, address: @escaping @Sendable () -> String, logger: Logger) {
        self.database = database
        self.address = address
        self.logger = logger
    }

    /// The homes of `database`'s stand-ups' meetings, this process serving
    /// at `address()` (asked at each claim: a server knows its address once
    /// it listens).
    ///
    /// - Throws: ``PostgresAppDatabaseError`` when the schema could not be
    ///   written.
    public static func open(
        _ database: PostgresAppDatabase, address: @escaping @Sendable () -> String,
        logger: Logger = Logger(label: "oak.standups.homes")
    ) async throws(PostgresAppDatabaseError) -> PostgresMeetingHomes {
        try await database.migrate(migrations, as: "meeting-homes")
        return PostgresMeetingHomes(database: database, address: address, logger: logger)
    }

    /// The port over these homes.
    public nonisolated var port: MeetingHomes {
        MeetingHomes(
            claim: { standupID in await self.claim(standupID) },
            release: { standupID in await self.release(standupID) },
            claimIfKnown: { standupID in try? await self.claimOrThrow(standupID) })
    }

    /// Gives up this process's claim on `standupID`'s meetings, if it holds
    /// it (its meeting ended): the advisory lock and the home it wrote.
    public func release(_ standupID: Standup.ID) async {
        guard claimed.contains(standupID), let connection else { return }
        claimed.remove(standupID)
        let key = Self.key(of: standupID)
        do {
            try await connection.query(
                "DELETE FROM meeting_home WHERE standup_id = \(standupID) AND pid = pg_backend_pid()", logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
        } catch {
            // The connection is gone, and the claim with it.
            logger.notice(
                "A claim could not be given up; it goes with its connection.",
                metadata: ["standup": "\(standupID)", "error": "\(PostgresAppDatabase.reason(error))"])
        }
    }

    /// Where the meetings of `standupID` run: here when this process holds
    /// them or has just claimed them; else the address of the process that
    /// does. When the database cannot be reached, here (the meeting is not
    /// refused; it may then run in two processes, said in the log).
    public func claim(_ standupID: Standup.ID) async -> MeetingHome {
        do {
            return try await claimOrThrow(standupID)
        } catch {
            logger.error(
                "Where a meeting runs could not be told; it runs here.",
                metadata: ["standup": "\(standupID)", "error": "\(PostgresAppDatabase.reason(error))"])
            return .here
        }
    }

    /// Where the meetings of `standupID` run, claiming them when nobody
    /// does; throws when the database cannot tell.
    func claimOrThrow(_ standupID: Standup.ID) async throws -> MeetingHome {
        if let claim = claiming[standupID] { return try await claim.value }
        let claim = Task { try await self.claimNow(standupID) }
        claiming[standupID] = claim
        defer { claiming[standupID] = nil }
        return try await claim.value
    }

    /// One claim of `standupID`, the only one under way.
    private func claimNow(_ standupID: Standup.ID) async throws -> MeetingHome {
        let connection = try await holdingConnection()
        if claimed.contains(standupID) { return .here }
        let key = Self.key(of: standupID)
        let taken = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
            .decode(Bool.self).reduce(false) { $0 || $1 }
        if taken {
            do {
                try await connection.query(
                    """
                    INSERT INTO meeting_home (standup_id, address, pid)
                    VALUES (\(standupID), \(address()), pg_backend_pid())
                    ON CONFLICT (standup_id) DO UPDATE
                        SET address = excluded.address, pid = excluded.pid, claimed_at = now()
                    """, logger: logger)
            } catch {
                // Not claimed after all: the lock is given up (on a lost
                // connection it went with it).
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                throw error
            }
            claimed.insert(standupID)
            return .here
        }
        return try await holder(of: standupID, key: key, on: connection)
    }

    /// Gives up every claim and closes the connection. The claims are
    /// given up before it closes (within 2 seconds), not when the server
    /// notices the connection gone: another process may claim them the
    /// moment this returns.
    public func close() async {
        isClosed = true
        let held = !claimed.isEmpty
        claimed = []
        // A connection being opened is closed here: its opener finds the
        // homes closed (`isClosed`, set above) and keeps nothing.
        if let opening, let opened = try? await opening.value { try? await opened.close() }
        guard let connection else { return }
        self.connection = nil
        if held {
            let logger = self.logger
            // Left to end on its own past the limit: closing ends it.
            _ = try? await PostgresAppDatabase.within(.seconds(2)) {
                _ = try? await connection.query(
                    "DELETE FROM meeting_home WHERE pid = pg_backend_pid()", logger: logger)
                _ = try? await connection.query("SELECT pg_advisory_unlock_all()", logger: logger)
            }
        }
        try? await connection.close()
    }

    /// The address of the process holding `key`: the home its claim wrote,
    /// looked for again for up to a second while the holder writes it.
    /// Nobody, once the second is over (the lock is another stand-up's
    /// whose key is the same, one in 2⁶⁴): here.
    private func holder(
        of standupID: Standup.ID, key: Int, on connection: PostgresConnection
    ) async throws -> MeetingHome {
        let high = Int(UInt64(bitPattern: Int64(key)) >> 32)
        let low = Int(UInt64(bitPattern: Int64(key)) & 0xFFFF_FFFF)
        for _ in 0..<20 {
            let rows = try await connection.query(
                """
                SELECT h.address FROM meeting_home h JOIN pg_locks l
                    ON l.pid = h.pid AND l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                    AND l.classid = \(high)::bigint::oid AND l.objid = \(low)::bigint::oid
                WHERE h.standup_id = \(standupID)
                """, logger: logger)
            for try await address in rows.decode(String.self) { return .elsewhere(address) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return .here
    }

    /// The connection that holds the claims: opened anew (every claim
    /// forgotten) when it was lost.
    private func holdingConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let opening { return try await opening.value }
        guard !isClosed else { throw PostgresMeetingHomesClosed() }
        if !claimed.isEmpty {
            logger.warning(
                "The connection holding this process's meetings was lost, and with it their claims.",
                metadata: ["meetings": "\(claimed.count)"])
        }
        claimed = []
        connection = nil
        connections += 1
        let (configuration, id, logger) = (
            PostgresAppDatabase.connectionConfiguration(database.location), connections, logger
        )
        let opening = Task {
            try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        }
        self.opening = opening
        defer { self.opening = nil }
        let opened = try await opening.value
        // Closed meanwhile: ``close()`` closes what was being opened.
        guard !isClosed else { throw PostgresMeetingHomesClosed() }
        connection = opened
        return opened
    }

    /// The advisory lock's key of a stand-up: its id's first eight bytes.
    static func key(of standupID: Standup.ID) -> Int {
        let bytes = withUnsafeBytes(of: standupID.uuid) { Array($0.prefix(8)) }
        return Int(Int64(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
}

/// A claim asked of ``PostgresMeetingHomes`` after it was closed (the
/// server is stopping).
struct PostgresMeetingHomesClosed: Error, CustomStringConvertible {
    var description: String { "the server is stopping: its meetings' homes are closed" }
}
