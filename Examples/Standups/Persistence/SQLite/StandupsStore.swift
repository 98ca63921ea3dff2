// The stand-ups in SQLite through GRDB: a `DatabasePool` in WAL mode, so
// that the terminal app and a web server can use the same file at once
// (readers never wait, a writer waits up to five seconds for another).
// Every batch of changes is one transaction: a process killed while
// writing leaves the data as it was before the batch or after it, never a
// mix. A damaged file is refused untouched; starting over moves it aside,
// never overwriting it.

import Foundation
import GRDB
import IdentifiedCollections
import Models
import SQLiteSupport
import Synchronization

/// The stand-ups kept in `standups.sqlite` in a data directory.
public final class StandupsStore: Sendable {
    /// The database file's path.
    public let path: String
    /// The data directory.
    public let directory: URL
    private let pool = Mutex<DatabasePool?>(nil)
    /// The followers of ``updates(otherProcessesEvery:)`` and what they share.
    private let followers = Mutex(Followers())

    /// The followers' streams, the last list, and the observation and watch
    /// they share while there is one.
    private struct Followers {
        var continuations: [UUID: AsyncStream<[Standup]>.Continuation] = [:]
        var latest: [Standup]?
        var observation: AnyDatabaseCancellable?
        var watcher: Task<Void, Never>?
    }

    /// A shared observation and watch, to stop.
    private struct Following {
        var observation: AnyDatabaseCancellable
        var watcher: Task<Void, Never>
    }

    /// The file's name in the data directory.
    public static let fileName = "standups.sqlite"
    /// How long a write waits for another connection's, in seconds.
    static let busyTimeout: TimeInterval = 5

    /// Whether this process may write into a directory (a test stands in
    /// for a read-only one: as root, every directory is writable).
    private let canWrite: @Sendable (_ directory: String) -> Bool

    /// A store in `directory`; nothing is opened until ``load()``.
    public convenience init(directory: URL) {
        self.init(directory: directory, canWrite: { access($0, W_OK) == 0 })
    }

    /// A store in `directory` that asks `canWrite` whether it may write
    /// into it.
    init(directory: URL, canWrite: @escaping @Sendable (_ directory: String) -> Bool) {
        self.directory = directory
        self.path = directory.appendingPathComponent(Self.fileName).path
        self.canWrite = canWrite
    }

    /// The stand-ups, in the order they were added, each with its
    /// attendees in order and its meetings the newest first. Opens (and
    /// creates, with the directory itself) the database on first use.
    ///
    /// - Throws: ``StandupsStoreError/damaged(path:reason:)`` for a file
    ///   that is not a usable SQLite database (left untouched), or
    ///   ``StandupsStoreError/unreadable(path:reason:)``.
    ///
    /// A list equal to the one the followers of ``updates(otherProcessesEvery:)``
    /// last received is returned as that very list: a server's sessions,
    /// each loading the stand-ups, then share one copy of their strings and
    /// meetings instead of holding one each.
    public func load() throws(StandupsStoreError) -> [Standup] {
        let pool = try open()
        let standups: [Standup]
        do {
            standups = try pool.read { db in try Self.fetchAll(db) }
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
        return followers.withLock { followers in
            guard let latest = followers.latest, latest == standups else { return standups }
            return latest
        }
    }

    /// Writes `changes` in order, in one transaction: all or none. An edit
    /// is merged into the stand-up as stored in that transaction
    /// (``Models/Standup/merge(_:from:into:)``): returns what the edits
    /// found changed elsewhere meanwhile.
    ///
    /// - Throws: ``StandupsStoreError/writeFailed(reason:)`` (nothing was
    ///   written), or what ``load()`` throws when the file cannot be opened.
    @discardableResult
    public func save(_ changes: [StandupChange]) throws(StandupsStoreError) -> [EditConflict] {
        let pool = try open()
        do {
            return try pool.write { db in
                try changes.compactMap { change in try Self.apply(change, db) }
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
    }

    /// Keeps `checkpoint` as the meeting in progress of `standupID`, run in
    /// the room `roomID` (replacing the one kept for the stand-up).
    ///
    /// - Throws: ``StandupsStoreError/writeFailed(reason:)``, or what
    ///   ``load()`` throws when the file cannot be opened.
    public func saveCheckpoint(
        _ checkpoint: Data, standup standupID: UUID, room roomID: UUID
    ) throws(StandupsStoreError) {
        let pool = try open()
        do {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO meetingCheckpoint (standupId, roomId, checkpoint) VALUES (?, ?, ?)
                        ON CONFLICT (standupId) DO UPDATE SET roomId = excluded.roomId, checkpoint = excluded.checkpoint
                        """,
                    arguments: [standupID.uuidString, roomID.uuidString, checkpoint])
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
    }

    /// Forgets the checkpoint of `standupID`'s meeting, if it is the one of
    /// room `roomID` (a later meeting's stays).
    ///
    /// - Throws: ``StandupsStoreError/writeFailed(reason:)``, or what
    ///   ``load()`` throws when the file cannot be opened.
    public func removeCheckpoint(standup standupID: UUID, room roomID: UUID) throws(StandupsStoreError) {
        let pool = try open()
        do {
            try pool.write { db in
                try db.execute(
                    sql: "DELETE FROM meetingCheckpoint WHERE standupId = ? AND roomId = ?",
                    arguments: [standupID.uuidString, roomID.uuidString])
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
    }

    /// The checkpoints kept: each stand-up's meeting in progress, with its
    /// room.
    ///
    /// - Throws: what ``load()`` throws.
    public func checkpoints() throws(StandupsStoreError) -> [(standup: UUID, room: UUID, checkpoint: Data)] {
        let pool = try open()
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT standupId, roomId, checkpoint FROM meetingCheckpoint").compactMap {
                    row in
                    guard let standup = UUID(uuidString: row["standupId"]), let room = UUID(uuidString: row["roomId"])
                    else { return nil }
                    return (standup, room, row["checkpoint"])
                }
            }
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// Starts a new database holding `standups`. A file that cannot be
    /// used is first renamed aside (`standups.sqlite.damaged-…`, with its
    /// side files), never overwritten; the new name is returned.
    ///
    /// - Throws: ``StandupsStoreError``.
    @discardableResult
    public func startOver(with standups: [Standup]) throws(StandupsStoreError) -> String? {
        var keptAt: String?
        do throws(StandupsStoreError) {
            _ = try open()
        } catch {
            guard case .damaged = error else { throw error }
            keptAt = try moveAside()
        }
        let pool = try open()
        do {
            try pool.write { db in
                try db.execute(sql: "DELETE FROM standup")
                for standup in standups { try Self.apply(.add(standup), db) }
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
        return keptAt
    }

    /// The stand-ups after every change committed to the file, by this
    /// process or another (the terminal app and a web server share the
    /// file); the first element is the list now, and a list is not sent
    /// twice in a row. Commits through this store are seen at once (GRDB
    /// observes its own pool); another process's within
    /// `otherProcessesEvery`, when `PRAGMA data_version` — which changes
    /// when another connection commits — is read again on a connection of
    /// its own. Every follower of this store shares one observation and one
    /// watch (a server's thousand sessions hold two connections, not two
    /// thousand), started by the first follower, with its interval, and
    /// stopped when the last one goes. Ends quietly when the file cannot be
    /// read.
    public func updates(otherProcessesEvery interval: Duration = .milliseconds(500)) -> AsyncStream<[Standup]> {
        let (stream, continuation) = AsyncStream<[Standup]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard let pool = try? open() else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        let isFirst = followers.withLock { followers -> Bool in
            if let latest = followers.latest { continuation.yield(latest) }
            followers.continuations[id] = continuation
            return followers.continuations.count == 1 && followers.observation == nil
        }
        continuation.onTermination = { [weak self] _ in self?.unfollow(id) }
        if isFirst { startFollowing(pool, every: interval) }
        return stream
    }

    /// Starts the observation and the watch every follower shares. The
    /// watch reads its first version before the observation reads its first
    /// list: a commit made by another connection in between is seen as a
    /// change (read from the watch's connection after the list, it would be
    /// taken for the version the list already shows, and never sent).
    private func startFollowing(_ pool: DatabasePool, every interval: Duration) {
        let watch = OtherProcessesWatch(path: path)
        let observation = ValueObservation.trackingConstantRegion { db in try Self.fetchAll(db) }
            .removeDuplicates()
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "oak-standups.updates")),
            onError: { [weak self] _ in self?.endFollowing() },
            onChange: { [weak self] standups in self?.publish(standups) })
        let watcher = Task.detached {
            guard let watch else { return }
            await watch.run(notifying: pool, every: interval)
        }
        let stale = followers.withLock { followers -> Following? in
            guard !followers.continuations.isEmpty, followers.observation == nil else {
                return Following(observation: cancellable, watcher: watcher)
            }
            followers.observation = cancellable
            followers.watcher = watcher
            return nil
        }
        // Every follower went meanwhile: nothing to follow.
        stale?.observation.cancel()
        stale?.watcher.cancel()
    }

    private func publish(_ standups: [Standup]) {
        let continuations = followers.withLock { followers in
            followers.latest = standups
            return Array(followers.continuations.values)
        }
        for continuation in continuations { continuation.yield(standups) }
    }

    private func unfollow(_ id: UUID) {
        let stopped = followers.withLock { followers -> Following? in
            followers.continuations[id] = nil
            guard followers.continuations.isEmpty, let observation = followers.observation,
                let watcher = followers.watcher
            else { return nil }
            followers.observation = nil
            followers.watcher = nil
            followers.latest = nil
            return Following(observation: observation, watcher: watcher)
        }
        stopped?.observation.cancel()
        stopped?.watcher.cancel()
    }

    /// The file cannot be read any more: every follower's stream ends.
    private func endFollowing() {
        let (continuations, stopped) = followers.withLock { followers in
            let continuations = Array(followers.continuations.values)
            let stopped = followers.observation.flatMap { observation in
                followers.watcher.map { Following(observation: observation, watcher: $0) }
            }
            followers = Followers()
            return (continuations, stopped)
        }
        stopped?.watcher.cancel()
        for continuation in continuations { continuation.finish() }
    }

    // MARK: - Opening

    private func open() throws(StandupsStoreError) -> DatabasePool {
        if let pool = pool.withLock({ $0 }) { return pool }
        do {
            try SQLiteFile.createDirectory(atPath: directory.path)
            try SQLiteFile.checkExisting(atPath: path, busyTimeout: Self.busyTimeout)
        } catch {
            switch error {
            case .cannotCreateDirectory(let path, let reason): throw .cannotCreateDirectory(path: path, reason: reason)
            case .unreadable(let path, let reason): throw .unreadable(path: path, reason: reason)
            case .damaged(let path, let reason):
                // Starting over keeps the file aside in its directory: offer
                // it only where that can work.
                guard canWrite(directory.path) else { throw .damagedInReadOnlyDirectory(path: path, reason: reason) }
                throw .damaged(path: path, reason: reason)
            }
        }
        var configuration = Configuration()
        configuration.label = "oak-standups"
        let opened: DatabasePool
        do {
            opened = try SQLiteFile.openPool(
                path: path, configuration: configuration, busyTimeout: Self.busyTimeout,
                migrate: { try SQLiteFile.migrate($0, with: Self.migrator) })
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
        return pool.withLock { pool in
            if let pool { return pool }
            pool = opened
            return opened
        }
    }

    private func moveAside() throws(StandupsStoreError) -> String {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let aside = path + ".damaged-" + stamp
        do {
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
        } catch {
            throw .unreadable(path: path, reason: "it could not be moved aside: \(error.localizedDescription)")
        }
        return aside
    }

    // MARK: - Schema

    /// The schema's history; never change a migration once released, add one.
    static var migrator: DatabaseMigrator {
        .steps([
            (
                "v1-standups",
                """
                CREATE TABLE standup (
                    id TEXT PRIMARY KEY NOT NULL,
                    position INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    durationSeconds INTEGER NOT NULL CHECK (durationSeconds > 0),
                    theme TEXT NOT NULL
                );
                CREATE TABLE attendee (
                    standupId TEXT NOT NULL REFERENCES standup(id) ON DELETE CASCADE,
                    id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (standupId, id)
                );
                CREATE TABLE meeting (
                    id TEXT PRIMARY KEY NOT NULL,
                    standupId TEXT NOT NULL REFERENCES standup(id) ON DELETE CASCADE,
                    date DOUBLE NOT NULL,
                    transcript TEXT NOT NULL
                );
                CREATE INDEX meeting_standup ON meeting(standupId, date);
                """
            ),
            // The meetings in progress, as their rooms last wrote them: one
            // per stand-up (a stand-up's meeting runs once), kept by its room.
            (
                "v2-meeting-checkpoints",
                """
                CREATE TABLE meetingCheckpoint (
                    standupId TEXT PRIMARY KEY NOT NULL,
                    roomId TEXT NOT NULL,
                    checkpoint BLOB NOT NULL
                );
                """
            ),
        ])
    }

    // MARK: - Reading and writing

    static func fetchAll(_ db: Database) throws -> [Standup] {
        var standups = IdentifiedArrayOf<Standup>()
        for row in try Row.fetchAll(db, sql: "SELECT id, title, durationSeconds, theme FROM standup ORDER BY position")
        {
            let id: String = try row.decode(forColumn: "id")
            let themeName: String = try row.decode(forColumn: "theme")
            guard let uuid = UUID(uuidString: id) else { throw StoredValueError("a stand-up's id is \(id)") }
            standups.append(
                Standup(
                    id: uuid, title: try row.decode(forColumn: "title"),
                    durationSeconds: try row.decode(forColumn: "durationSeconds"),
                    theme: Theme(rawValue: themeName) ?? .bubblegum))
        }
        for row in try Row.fetchAll(db, sql: "SELECT standupId, id, name FROM attendee ORDER BY standupId, position") {
            guard let standup = UUID(uuidString: try row.decode(forColumn: "standupId")),
                let id = UUID(uuidString: try row.decode(forColumn: "id"))
            else { throw StoredValueError("an attendee's id is malformed") }
            standups[id: standup]?.attendees.append(Attendee(id: id, name: try row.decode(forColumn: "name")))
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT standupId, id, date, transcript FROM meeting ORDER BY date DESC, rowid DESC")
        {
            guard let standup = UUID(uuidString: try row.decode(forColumn: "standupId")),
                let id = UUID(uuidString: try row.decode(forColumn: "id"))
            else { throw StoredValueError("a meeting's id is malformed") }
            let date = Date(timeIntervalSince1970: try row.decode(forColumn: "date"))
            standups[id: standup]?.meetings.append(
                Meeting(id: id, date: date, transcript: try row.decode(forColumn: "transcript")))
        }
        // A stand-up saved by an older or foreign writer without attendees
        // still has its speaker.
        return standups.map { $0.attendees.isEmpty ? $0.validated() : $0 }
    }

    /// Applies `change` in `db`'s transaction; returns what an edit found
    /// changed elsewhere, if anything.
    @discardableResult
    static func apply(_ change: StandupChange, _ db: Database) throws -> EditConflict? {
        switch change {
        case .add(let standup):
            let standup = standup.validated()
            try db.execute(
                sql: """
                    INSERT INTO standup (id, position, title, durationSeconds, theme)
                    VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM standup), ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """,
                arguments: [standup.id.uuidString, standup.title, standup.durationSeconds, standup.theme.rawValue])
            // Added twice (a retried batch): the first one stands.
            guard db.changesCount > 0 else { return nil }
            try writeAttendees(standup, db)
            for meeting in standup.meetings.reversed() { try apply(.addMeeting(meeting, to: standup.id), db) }
        case .update(let standup):
            let standup = standup.validated()
            try db.execute(
                sql: "UPDATE standup SET title = ?, durationSeconds = ?, theme = ? WHERE id = ?",
                arguments: [standup.title, standup.durationSeconds, standup.theme.rawValue, standup.id.uuidString])
            guard db.changesCount > 0 else { return nil }
            try writeAttendees(standup, db)
        case .edit(let mine, let base):
            // GRDB's write transactions are IMMEDIATE: no other connection
            // writes between this read and the write below.
            let current = try fetchOne(mine.id, db)
            let (merged, conflicts) = Standup.merge(mine, from: base, into: current)
            if current == nil {
                try apply(.add(merged), db)
            } else {
                try apply(.update(merged), db)
            }
            return conflicts.isEmpty ? nil : EditConflict(standup: mine.id, conflicts: conflicts)
        case .delete(let id):
            try db.execute(sql: "DELETE FROM standup WHERE id = ?", arguments: [id.uuidString])
        case .addMeeting(let meeting, let standupID):
            try db.execute(
                sql: """
                    INSERT INTO meeting (id, standupId, date, transcript)
                    SELECT ?, id, ?, ? FROM standup WHERE id = ?
                    ON CONFLICT (id) DO NOTHING
                    """,
                arguments: [
                    meeting.id.uuidString, meeting.date.timeIntervalSince1970, meeting.transcript,
                    standupID.uuidString,
                ])
        case .deleteMeeting(let meetingID, let standupID):
            try db.execute(
                sql: "DELETE FROM meeting WHERE id = ? AND standupId = ?",
                arguments: [meetingID.uuidString, standupID.uuidString])
        }
        return nil
    }

    /// The stand-up `id` as stored (without its meetings), if it is.
    static func fetchOne(_ id: Standup.ID, _ db: Database) throws -> Standup? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT title, durationSeconds, theme FROM standup WHERE id = ?", arguments: [id.uuidString])
        else { return nil }
        let themeName: String = try row.decode(forColumn: "theme")
        var standup = Standup(
            id: id, title: try row.decode(forColumn: "title"),
            durationSeconds: try row.decode(forColumn: "durationSeconds"),
            theme: Theme(rawValue: themeName) ?? .bubblegum)
        for row in try Row.fetchAll(
            db, sql: "SELECT id, name FROM attendee WHERE standupId = ? ORDER BY position", arguments: [id.uuidString])
        {
            guard let attendee = UUID(uuidString: try row.decode(forColumn: "id")) else {
                throw StoredValueError("an attendee's id is malformed")
            }
            standup.attendees.append(Attendee(id: attendee, name: try row.decode(forColumn: "name")))
        }
        return standup
    }

    private static func writeAttendees(_ standup: Standup, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM attendee WHERE standupId = ?", arguments: [standup.id.uuidString])
        for (position, attendee) in standup.attendees.enumerated() {
            try db.execute(
                sql: "INSERT INTO attendee (standupId, id, position, name) VALUES (?, ?, ?, ?)",
                arguments: [standup.id.uuidString, attendee.id.uuidString, position, attendee.name])
        }
    }

    static func failure(
        _ error: any Error, path: String, otherwise: (String) -> StandupsStoreError
    ) -> StandupsStoreError {
        switch error {
        case let error as StandupsStoreError: error
        case let error as DatabaseError where SQLiteFile.isCorruption(error):
            .damaged(path: path, reason: SQLiteFile.reason(error, busyTimeout: Self.busyTimeout))
        case let error as DatabaseError where error.resultCode == .SQLITE_READONLY:
            .readOnly(path: path)
        case let error as DatabaseError: otherwise(SQLiteFile.reason(error, busyTimeout: Self.busyTimeout))
        case let error as StoredValueError: .damaged(path: path, reason: error.description)
        case let error as RowDecodingError: .damaged(path: path, reason: "a stored value cannot be read: \(error)")
        default: otherwise(String(describing: error))
        }
    }
}

/// A stored value that is not what the schema says.
struct StoredValueError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Why the stand-ups could not be opened, read or written.
public enum StandupsStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data directory could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file is not a usable SQLite database; it was left untouched.
    case damaged(path: String, reason: String)
    /// The file is not a usable SQLite database, and its directory cannot
    /// be written: it cannot be kept aside to start over.
    case damagedInReadOnlyDirectory(path: String, reason: String)
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file (or its directory) may be read but not written: nothing
    /// can be saved.
    case readOnly(path: String)
    /// A batch could not be written; nothing of it was.
    case writeFailed(reason: String)

    /// What happened and what to do, with paths.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): Self.words.cannotCreateDirectory(path, reason)
        case .damaged(let path, let reason): Self.words.damaged(path, reason)
        case .damagedInReadOnlyDirectory(let path, let reason):
            "The stand-ups file \(path) is not a usable SQLite database (\(reason)), and its directory cannot be "
                + "written, so it cannot be kept aside to start over. Make the directory writable for you "
                + "(chmod u+w), or pass --data-dir with a directory you can write to."
        case .unreadable(let path, let reason): Self.words.unreadable(path, reason)
        case .readOnly(let path):
            "The stand-ups file \(path) is read-only: it can be read, not saved to. Make it and its directory "
                + "writable for you (chmod u+w), or pass --data-dir with a directory you can write to."
        case .writeFailed(let reason):
            "Could not save the stand-ups: \(reason). Nothing of the change was written; check the free disk space "
                + "and that you may write to the data directory, then try again."
        }
    }

    /// How the messages of the problems every SQLite store shares speak of
    /// the stand-ups file.
    static let words = SQLiteFileWords(file: "stand-ups file", startAnew: "Start over to keep it aside and begin anew")

    /// What happened, naming no file (for a browser's user).
    public var summary: String {
        switch self {
        case .cannotCreateDirectory: "The data directory could not be created."
        case .damaged: "The stand-ups file is damaged; it was left untouched."
        case .damagedInReadOnlyDirectory:
            "The stand-ups file is damaged and its folder cannot be written: nothing can start over until it can."
        case .unreadable: "The stand-ups file could not be read."
        case .readOnly: "The stand-ups file is read-only: changes cannot be saved."
        case .writeFailed: "The change could not be saved; nothing of it was written."
        }
    }
}
