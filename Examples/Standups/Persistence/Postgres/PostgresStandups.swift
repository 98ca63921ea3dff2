// The stand-ups in PostgreSQL, for several server processes sharing one
// database: the stand-ups provider's port (StandupsProvider.Dependencies)
// with the SQLite store's rules — a batch of changes is one transaction,
// all or none; adding what is there keeps the first; a stand-up's meetings
// come the newest first — and every committed batch announced (NOTIFY), so
// that each process's sessions see what any process saved. Every change is
// idempotent (adding twice keeps the first, updating or deleting twice
// changes nothing more), so a batch lost with its connection is written
// again until the deadline.

import Foundation
import IdentifiedCollections
import Logging
import Models
import PostgresNIO
import PostgresSupport
import StandupsProvider

/// The stand-ups in the tables `standup`, `attendee` and `meeting` of a
/// PostgreSQL database.
///
/// ```swift
/// let database = try await PostgresAppDatabase.open(location, logger: logger)
/// let store = try await PostgresStandups.open(database)
/// let env = Main.Env(standups: .postgres(store), …)
/// ```
public final class PostgresStandups: PostgresAdapter {
    /// The channel every committed batch is announced on.
    public static let channel = "oak_standups"

    /// The schema's history (component "standups"); never change a step
    /// once released, add one. The SQLite file's `v1-standups` in
    /// PostgreSQL's types; dates are seconds since 1970, as there, so that
    /// a meeting reads back exactly as it was written.
    public static let migrations = [
        """
        CREATE TABLE standup (
            id uuid PRIMARY KEY,
            position bigint GENERATED ALWAYS AS IDENTITY,
            title text NOT NULL,
            duration_seconds integer NOT NULL CHECK (duration_seconds > 0),
            theme text NOT NULL
        )
        """,
        """
        CREATE TABLE attendee (
            standup_id uuid NOT NULL REFERENCES standup(id) ON DELETE CASCADE,
            id uuid NOT NULL,
            position integer NOT NULL,
            name text NOT NULL,
            PRIMARY KEY (standup_id, id)
        )
        """,
        """
        CREATE TABLE meeting (
            id uuid PRIMARY KEY,
            standup_id uuid NOT NULL REFERENCES standup(id) ON DELETE CASCADE,
            date double precision NOT NULL,
            transcript text NOT NULL,
            added bigint GENERATED ALWAYS AS IDENTITY
        )
        """,
        "CREATE INDEX meeting_standup ON meeting(standup_id, date)",
        // The meetings in progress, as their rooms last wrote them (the
        // SQLite file's `v2-meeting-checkpoints`).
        """
        CREATE TABLE meeting_checkpoint (
            standup_id uuid PRIMARY KEY,
            room_id uuid NOT NULL,
            checkpoint bytea NOT NULL
        )
        """,
    ]

    /// The stand-ups' component in the database's migrations.
    public static let component = "standups"

    private let store: PostgresStore<[Standup], StoreFailure>

    /// The adapter over `store`; ``open(_:deadline:logger:)`` makes one.
    public init(store: PostgresStore<[Standup], StoreFailure>) {
        self.store = store
    }

    /// The stand-ups, in the order they were added, each with its
    /// attendees in order and its meetings the newest first, read in one
    /// snapshot. A list equal to the one this process's followers last
    /// received is returned as that very list (a server's sessions share
    /// one copy).
    public func load() async throws(StoreFailure) -> [Standup] {
        try await store.snapshot()
    }

    /// Writes `changes` in order and announces them, in one transaction:
    /// all or none.
    ///
    /// An edit is merged into the stand-up as stored in that transaction
    /// (its row locked: ``Models/Standup/merge(_:from:into:)``): returns
    /// what the edits found changed elsewhere meanwhile.
    @discardableResult
    public func save(_ changes: [StandupChange]) async throws(StoreFailure) -> [EditConflict] {
        try await store.write { connection, logger in
            var conflicts: [EditConflict] = []
            for change in changes {
                if let conflict = try await Self.apply(change, connection, logger) { conflicts.append(conflict) }
            }
            return conflicts
        }
    }

    /// Replaces every stand-up with `standups`, in one transaction.
    public func startOver(with standups: [Standup]) async throws(StoreFailure) {
        try await store.write { connection, logger in
            try await connection.query("DELETE FROM standup", logger: logger)
            for standup in standups { try await Self.apply(.add(standup), connection, logger) }
        }
    }

    /// The stand-ups now, then after each batch any process committed
    /// (pushed through NOTIFY; this process's followers share one listening
    /// connection and one read per batch); a list is not sent twice in a
    /// row. After a lost connection the list is read again once the server
    /// answers.
    public func updates() -> AsyncStream<[Standup]> {
        store.follow()
    }

    // MARK: - Statements

    /// Keeps `kept` as its stand-up's meeting in progress (replacing the
    /// one kept for the stand-up).
    public func saveCheckpoint(_ kept: MeetingCheckpoints.Kept) async throws(StoreFailure) {
        _ = try await store.perform { client, logger in
            try await client.query(
                """
                INSERT INTO meeting_checkpoint (standup_id, room_id, checkpoint)
                VALUES (\(kept.standup), \(kept.room), \(ByteBuffer(bytes: kept.checkpoint)))
                ON CONFLICT (standup_id) DO UPDATE SET room_id = excluded.room_id, checkpoint = excluded.checkpoint
                """, logger: logger)
        }
    }

    /// Forgets the checkpoint of `standup`'s meeting if it is room `room`'s.
    public func removeCheckpoint(standup: Standup.ID, room: UUID) async throws(StoreFailure) {
        _ = try await store.perform { client, logger in
            try await client.query(
                "DELETE FROM meeting_checkpoint WHERE standup_id = \(standup) AND room_id = \(room)", logger: logger)
        }
    }

    /// Every checkpoint kept.
    public func checkpoints() async throws(StoreFailure) -> [MeetingCheckpoints.Kept] {
        try await store.perform { client, logger in
            var kept: [MeetingCheckpoints.Kept] = []
            let rows = try await client.query(
                "SELECT standup_id, room_id, checkpoint FROM meeting_checkpoint", logger: logger)
            for try await (standup, room, checkpoint) in rows.decode((UUID, UUID, ByteBuffer).self) {
                kept.append(.init(standup: standup, room: room, checkpoint: Data(checkpoint.readableBytesView)))
            }
            return kept
        }
    }

    /// The stand-ups, read in one snapshot on `client`.
    public static func fetchAll(_ client: PostgresClient, logger: Logger) async throws -> [Standup] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            var standups = IdentifiedArrayOf<Standup>()
            let rows = try await connection.query(
                "SELECT id, title, duration_seconds, theme FROM standup ORDER BY position", logger: logger)
            for try await (id, title, duration, theme) in rows.decode((UUID, String, Int, String).self) {
                standups.append(
                    Standup(
                        id: id, title: title, durationSeconds: duration, theme: Theme(rawValue: theme) ?? .bubblegum))
            }
            let attendees = try await connection.query(
                "SELECT standup_id, id, name FROM attendee ORDER BY standup_id, position", logger: logger)
            for try await (standup, id, name) in attendees.decode((UUID, UUID, String).self) {
                standups[id: standup]?.attendees.append(Attendee(id: id, name: name))
            }
            let meetings = try await connection.query(
                "SELECT standup_id, id, date, transcript FROM meeting ORDER BY date DESC, added DESC", logger: logger)
            for try await (standup, id, date, transcript) in meetings.decode((UUID, UUID, Double, String).self) {
                standups[id: standup]?.meetings.append(
                    Meeting(id: id, date: Date(timeIntervalSince1970: date), transcript: transcript))
            }
            // A stand-up saved by another writer without attendees still
            // has its speaker.
            return standups.map { $0.attendees.isEmpty ? $0.validated() : $0 }
        }
    }

    /// Applies `change` in `connection`'s transaction; returns what an
    /// edit found changed elsewhere, if anything.
    @discardableResult
    static func apply(
        _ change: StandupChange, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> EditConflict? {
        switch change {
        case .add(let standup):
            let standup = standup.validated()
            let inserted = try await connection.query(
                """
                INSERT INTO standup (id, title, duration_seconds, theme)
                VALUES (\(standup.id), \(standup.title), \(standup.durationSeconds), \(standup.theme.rawValue))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger
            ).collect()
            // Added twice (a retried batch, another process): the first
            // one stands.
            guard !inserted.isEmpty else { return nil }
            try await writeAttendees(standup, connection, logger)
            for meeting in standup.meetings.reversed() {
                try await apply(.addMeeting(meeting, to: standup.id), connection, logger)
            }
        case .update(let standup):
            let standup = standup.validated()
            let updated = try await connection.query(
                """
                UPDATE standup SET title = \(standup.title), duration_seconds = \(standup.durationSeconds),
                    theme = \(standup.theme.rawValue)
                WHERE id = \(standup.id) RETURNING id
                """, logger: logger
            ).collect()
            guard !updated.isEmpty else { return nil }
            try await writeAttendees(standup, connection, logger)
        case .edit(let mine, let base):
            // The row is locked until the transaction ends: no other
            // writer changes the stand-up between this read and the write.
            let current = try await fetchOne(mine.id, locking: true, connection, logger)
            let (merged, conflicts) = Standup.merge(mine, from: base, into: current)
            try await apply(current == nil ? .add(merged) : .update(merged), connection, logger)
            return conflicts.isEmpty ? nil : EditConflict(standup: mine.id, conflicts: conflicts)
        case .delete(let id):
            try await connection.query("DELETE FROM standup WHERE id = \(id)", logger: logger)
        case .addMeeting(let meeting, let standupID):
            try await connection.query(
                """
                INSERT INTO meeting (id, standup_id, date, transcript)
                SELECT \(meeting.id), id, \(meeting.date.timeIntervalSince1970), \(meeting.transcript)
                FROM standup WHERE id = \(standupID)
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
        case .deleteMeeting(let meetingID, let standupID):
            try await connection.query(
                "DELETE FROM meeting WHERE id = \(meetingID) AND standup_id = \(standupID)", logger: logger)
        }
        return nil
    }

    /// The stand-up `id` as stored (without its meetings), if it is; its
    /// row locked until the transaction ends when `locking`.
    static func fetchOne(
        _ id: Standup.ID, locking: Bool, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Standup? {
        let query: PostgresQuery =
            locking
            ? "SELECT title, duration_seconds, theme FROM standup WHERE id = \(id) FOR UPDATE"
            : "SELECT title, duration_seconds, theme FROM standup WHERE id = \(id)"
        var standup: Standup?
        for try await (title, duration, theme) in try await connection.query(query, logger: logger).decode(
            (String, Int, String).self)
        {
            standup = Standup(
                id: id, title: title, durationSeconds: duration, theme: Theme(rawValue: theme) ?? .bubblegum)
        }
        guard var found = standup else { return nil }
        let attendees = try await connection.query(
            "SELECT id, name FROM attendee WHERE standup_id = \(id) ORDER BY position", logger: logger)
        for try await (attendee, name) in attendees.decode((UUID, String).self) {
            found.attendees.append(Attendee(id: attendee, name: name))
        }
        return found
    }

    private static func writeAttendees(
        _ standup: Standup, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        try await connection.query("DELETE FROM attendee WHERE standup_id = \(standup.id)", logger: logger)
        for (position, attendee) in standup.attendees.enumerated() {
            try await connection.query(
                """
                INSERT INTO attendee (standup_id, id, position, name)
                VALUES (\(standup.id), \(attendee.id), \(position), \(attendee.name))
                """, logger: logger)
        }
    }

    /// The store's error for the database's at `location`.
    public static func failure(_ error: PostgresAppDatabaseError, _ location: PostgresLocation) -> StoreFailure {
        let reason: String
        switch error {
        case .unreachable(_, let why): reason = why
        case .timedOut(let timeout): reason = "no answer within \(timeout)"
        case .failed(let why):
            return StoreFailure(
                summary: "The change could not be saved; nothing of it was written.",
                detail: "The stand-ups database \(location) refused the change: \(why). Nothing of it was "
                    + "written; check that the database's user may write to it.")
        }
        return StoreFailure(
            summary: "The stand-ups database cannot be reached; try again later.",
            detail: "The stand-ups database \(location) cannot be reached (\(reason)). Check that PostgreSQL runs "
                + "there and that --database (or DATABASE_URL) names it and a user who may connect, then try again.")
    }
}

extension MeetingCheckpoints {
    /// The meetings' checkpoints in PostgreSQL.
    public static func postgres(_ store: PostgresStandups) -> Self {
        Self(
            save: { (kept: Kept) async throws(StoreFailure) in try await store.saveCheckpoint(kept) },
            remove: { (standup: Standup.ID, room: UUID) async throws(StoreFailure) in
                try await store.removeCheckpoint(standup: standup, room: room)
            },
            all: { () async throws(StoreFailure) -> [Kept] in try await store.checkpoints() })
    }
}

extension StandupsProvider.Dependencies {
    /// Dependencies over the stand-ups in PostgreSQL.
    public static func postgres(_ store: PostgresStandups) -> Self {
        Self(
            load: { () async throws(StoreFailure) -> [Standup] in try await store.load() },
            save: { (changes: [StandupChange]) async throws(StoreFailure) -> [EditConflict] in
                try await store.save(changes)
            },
            startOver: { (standups: [Standup]) async throws(StoreFailure) in try await store.startOver(with: standups)
            },
            updates: { store.updates() })
    }
}
