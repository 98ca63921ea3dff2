import Foundation
import GRDB
import SQLiteSupport

/// The favourite comics, kept in `favourites.sqlite` inside a data
/// directory, through a GRDB `DatabasePool` in WAL mode.
///
/// Several stores, in one process or in several (a terminal app and a web
/// server, say), may use the same file at once: each sees the others'
/// committed changes, readers never wait for writers, and a writer waits up
/// to five seconds for another's write to finish.
///
/// A file that is not an SQLite database, or a malformed one, is refused
/// with ``PersistenceError/corrupt(path:reason:)`` before anything is
/// written into it, and is left byte for byte as it was.
///
/// Every change is one transaction: a process killed in the middle of
/// writing leaves the changes it had committed, and none of the one it was
/// making.
///
/// The methods block the calling thread while SQLite works: about a
/// millisecond for a file of favourites, up to five seconds while another
/// process holds the write lock.
public final class FavouritesStore: Sendable {
    /// The path of the database file, `favourites.sqlite` in the directory given to ``init(directory:)``.
    public let path: String

    /// How long, in seconds, a write waits for another connection's write
    /// (from this process or another one) before it fails.
    static let busyTimeout: TimeInterval = 5

    /// The name of the database file inside the data directory.
    static let fileName = "favourites.sqlite"

    /// Reads; the pool itself, or a read-only connection (``init(readingFrom:)``).
    private let reader: any DatabaseReader
    /// Writes; `nil` for a store opened read-only.
    private let pool: DatabasePool?
    /// One observation of the favourites for every consumer of ``changes(_:)``
    /// (a server's thousand sessions share one), started by the first and
    /// stopped after the last; values arrive on a private serial queue.
    private let observation: SharedValueObservation<[StoredFavourite]>

    /// Opens the favourites in `directory`, creating the directory (only
    /// that one, never its parents) and an empty database if needed, and
    /// brings the database's schema up to date.
    ///
    /// An existing file is first checked without writing: a file that is
    /// not an SQLite database, or a malformed one (`PRAGMA quick_check`
    /// fails), throws ``PersistenceError/corrupt(path:reason:)`` and is left
    /// untouched.
    ///
    /// - Parameter directory: The data directory, usually
    ///   ``DataDirectory/resolve(override:environment:)``'s.
    /// - Throws: ``PersistenceError/cannotCreateDirectory(path:reason:)``,
    ///   ``PersistenceError/corrupt(path:reason:)``,
    ///   ``PersistenceError/unreadable(path:reason:)`` or
    ///   ``PersistenceError/writeFailed(reason:)`` (the schema could not be
    ///   written).
    public init(directory: URL) throws(PersistenceError) {
        try Self.checked { () throws(SQLiteFileProblem) in try SQLiteFile.createDirectory(atPath: directory.path) }
        let path = directory.appendingPathComponent(Self.fileName).path
        try Self.checkExistingFile(atPath: path)

        let pool = try Self.openPool(path: path)
        self.pool = pool
        reader = pool
        self.path = path
        observation = Self.observe(pool)
    }

    /// Opens the favourites in `directory` for reading only: nothing is
    /// created or written, so it works on a read-only directory (a data
    /// directory on a read-only disk, or another user's). No directory, or
    /// no file in it, is no favourites.
    ///
    /// - Throws: ``PersistenceError/corrupt(path:reason:)`` or
    ///   ``PersistenceError/unreadable(path:reason:)``.
    public init(readingFrom directory: URL) throws(PersistenceError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        try Self.checkExistingFile(atPath: path)
        self.path = path
        pool = nil
        reader = try Self.openReadOnly(path: path)
        observation = Self.observe(reader)
    }

    private static func observe(_ reader: any DatabaseReader) -> SharedValueObservation<[StoredFavourite]> {
        // `removeDuplicates`: a pool's observation may fetch the same list
        // twice as it starts (from a reader, then from the writer).
        ValueObservation.trackingConstantRegion { db in try Self.fetchAll(db) }
            .removeDuplicates()
            .shared(
                in: reader, scheduling: .async(onQueue: DispatchQueue(label: "oak-comics.favourites")),
                extent: .whileObserved)
    }

    /// All favourites, the most recently added first (ties: the highest number first).
    ///
    /// - Throws: ``PersistenceError/unreadable(path:reason:)``, or
    ///   ``PersistenceError/corrupt(path:reason:)`` when the database or one
    ///   of its rows is malformed.
    public func all() throws(PersistenceError) -> [StoredFavourite] {
        do {
            return try reader.read { db in try Self.fetchAll(db) }
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// Every change of the favourites (every session of a server shares one
    /// observation), as the whole list after it (the most recently added
    /// first) made into `Value` by `transform`; the first element is the
    /// list now. Changes made through this store are seen at once, those of
    /// another process (the terminal app and a server, or the `favourites`
    /// command, on one data directory) within `otherProcessesEvery`, when
    /// the file's `PRAGMA data_version` is read again (a store opened
    /// read-only sees them at its next read). Ends when the consumer stops
    /// iterating; a failure to read ends it quietly.
    public func changes<Value: Sendable>(
        _ transform: @escaping @Sendable ([StoredFavourite]) -> Value
    ) -> AsyncStream<Value> {
        changes(otherProcessesEvery: .milliseconds(500), transform)
    }

    /// ``changes(_:)``, another process's changes seen within `interval`.
    public func changes<Value: Sendable>(
        otherProcessesEvery interval: Duration, _ transform: @escaping @Sendable ([StoredFavourite]) -> Value
    ) -> AsyncStream<Value> {
        // The watch reads its first version before the observation reads
        // its first list (see `OtherProcessesWatch`).
        let watch = pool.flatMap { _ in OtherProcessesWatch(path: path) }
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let subscription = observation.start(
                onError: { _ in continuation.finish() },
                onChange: { favourites in continuation.yield(transform(favourites)) })
            let watching = pool.map { pool in Task { await watch?.run(notifying: pool, every: interval) } }
            continuation.onTermination = { _ in
                subscription.cancel()
                watching?.cancel()
            }
        }
    }

    private static func fetchAll(_ db: Database) throws -> [StoredFavourite] {
        try Row.fetchAll(db, sql: "SELECT number, title, addedAt FROM favourite ORDER BY addedAt DESC, number DESC")
            .map { row in
                try StoredFavourite(
                    number: row.decode(forColumn: "number"),
                    title: row.decode(forColumn: "title"),
                    addedAt: row.decode(forColumn: "addedAt"))
            }
    }

    /// Whether the comic numbered `number` is a favourite.
    ///
    /// - Throws: ``PersistenceError/unreadable(path:reason:)`` or ``PersistenceError/corrupt(path:reason:)``.
    public func contains(_ number: Int) throws(PersistenceError) -> Bool {
        do {
            return try reader.read { db in
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM favourite WHERE number = ?)", arguments: [number]) ?? false
            }
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// Adds `favourite`, or replaces the title and date of the favourite
    /// with the same number, in one transaction.
    ///
    /// - Throws: ``PersistenceError/writeFailed(reason:)`` (nothing was
    ///   changed) or ``PersistenceError/corrupt(path:reason:)``.
    public func add(_ favourite: StoredFavourite) throws(PersistenceError) {
        do {
            try writer().write { db in
                try db.execute(
                    sql: """
                        INSERT INTO favourite (number, title, addedAt) VALUES (?, ?, ?)
                        ON CONFLICT (number) DO UPDATE SET title = excluded.title, addedAt = excluded.addedAt
                        """,
                    arguments: [favourite.number, favourite.title, favourite.addedAt])
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
    }

    /// The pool to write with; a store opened read-only refuses.
    private func writer() throws(PersistenceError) -> DatabasePool {
        guard let pool else {
            throw .writeFailed(reason: "the favourites were opened for reading only")
        }
        return pool
    }

    /// Removes the favourite numbered `number`; does nothing if there is none.
    ///
    /// - Throws: ``PersistenceError/writeFailed(reason:)`` (nothing was
    ///   changed) or ``PersistenceError/corrupt(path:reason:)``.
    public func remove(_ number: Int) throws(PersistenceError) {
        do {
            try writer().write { db in
                try db.execute(sql: "DELETE FROM favourite WHERE number = ?", arguments: [number])
            }
        } catch {
            throw Self.failure(error, path: path) { .writeFailed(reason: $0) }
        }
    }

    /// Runs SQLite's full integrity check (`PRAGMA integrity_check`),
    /// which reads the whole file; writes nothing.
    ///
    /// - Throws: ``PersistenceError/corrupt(path:reason:)`` with the first
    ///   problems found, or ``PersistenceError/unreadable(path:reason:)``.
    public func checkIntegrity() throws(PersistenceError) {
        let problems: [String]
        do {
            problems = try reader.read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check(5)").filter { $0 != "ok" }
            }
        } catch {
            throw Self.failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
        if !problems.isEmpty {
            throw .corrupt(path: path, reason: "it is malformed: " + problems.joined(separator: "; "))
        }
    }
}

// MARK: - Schema

extension FavouritesStore {
    /// The schema's history; never change a migration once released, add one.
    static var migrator: DatabaseMigrator {
        .steps([
            (
                "v1-favourites",
                """
                CREATE TABLE favourite (
                    number INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    addedAt DATETIME NOT NULL
                )
                """
            )
        ])
    }
}

// MARK: - Opening

extension FavouritesStore {
    /// Opens the pool and applies the migrations, again while SQLite
    /// answers "busy", until `busyTimeout` has passed.
    ///
    /// SQLite answers "busy" at once, without waiting, to all but one of
    /// several connections that turn a new file to WAL mode at the same
    /// moment (each holds a lock the others need): a terminal app and a
    /// server started together on a new data directory would otherwise see
    /// "database is locked".
    static func openPool(path: String) throws(PersistenceError) -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "oak-comics.favourites"
        do {
            return try SQLiteFile.openPool(
                path: path, configuration: configuration, busyTimeout: busyTimeout, migrate: migrate)
        } catch {
            throw failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// A read-only connection to the database at `path`, or an empty
    /// database when there is no file.
    ///
    /// SQLite reads a WAL database only with its `-shm` file, which it
    /// cannot create in a directory it may not write to (the last
    /// connection to close removes it): such a database is read from a
    /// copy, made in the system's temporary directory and removed at once.
    /// No one can be writing it meanwhile: a writer would need the same
    /// side files, and without them the file holds every committed change.
    static func openReadOnly(path: String) throws(PersistenceError) -> any DatabaseReader {
        guard FileManager.default.fileExists(atPath: path) else {
            do {
                let empty = try DatabaseQueue()
                try migrator.migrate(empty)
                return empty
            } catch {
                throw failure(error, path: path) { .unreadable(path: path, reason: $0) }
            }
        }
        var configuration = Configuration()
        configuration.label = "oak-comics.favourites.reader"
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { db in try Self.fetchAll(db) }
            return queue
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY
        {
            // SQLite could not make the side files it reads with (the
            // directory is read-only): read a copy.
            return try readCopy(of: path, configuration: configuration)
        } catch {
            throw failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// An in-memory database with the contents of the file at `path`.
    private static func readCopy(
        of path: String, configuration: Configuration
    ) throws(PersistenceError)
        -> any DatabaseReader
    {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("oak-favourites-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            let source = try DatabaseQueue(path: copy.path)
            let memory = try DatabaseQueue()
            try source.backup(to: memory)
            try source.close()
            return memory
        } catch {
            throw failure(error, path: path) { .unreadable(path: path, reason: $0) }
        }
    }

    /// Applies the migrations not yet applied; rethrows "busy" as it is,
    /// for ``openPool(path:)`` to try again.
    private static func migrate(_ pool: DatabasePool) throws {
        let migrator = migrator
        do {
            try migrator.migrate(pool)
        } catch {
            // Another process opening the file at the same moment may have
            // applied the same migrations first: then all is well.
            if (try? pool.read { try migrator.hasCompletedMigrations($0) }) == true { return }
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY { throw error }
            throw failure(error, path: pool.path) { .writeFailed(reason: $0) }
        }
    }
}

// MARK: - Checking a file before writing to it

extension FavouritesStore {
    /// Checks, without writing to it, that the file at `path` is absent,
    /// empty or a well-formed SQLite database (AppSupport's
    /// `SQLiteFile.checkExisting`: opening a `DatabasePool` writes at once,
    /// so a damaged file must be recognised before).
    static func checkExistingFile(atPath path: String) throws(PersistenceError) {
        try checked { () throws(SQLiteFileProblem) in
            try SQLiteFile.checkExisting(atPath: path, busyTimeout: busyTimeout)
        }
    }

    /// Runs `body`, its problem as this store's error.
    static func checked(_ body: () throws(SQLiteFileProblem) -> Void) throws(PersistenceError) {
        do {
            try body()
        } catch {
            switch error {
            case .cannotCreateDirectory(let path, let reason): throw .cannotCreateDirectory(path: path, reason: reason)
            case .unreadable(let path, let reason): throw .unreadable(path: path, reason: reason)
            case .damaged(let path, let reason): throw .corrupt(path: path, reason: reason)
            }
        }
    }
}

// MARK: - Errors

extension FavouritesStore {
    /// Whether SQLite found the file not to be a database, or a malformed one.
    static func isCorruption(_ error: DatabaseError) -> Bool {
        SQLiteFile.isCorruption(error)
    }

    /// A reason for a person: SQLite's message and its code.
    static func reason(_ error: DatabaseError) -> String {
        SQLiteFile.reason(error, busyTimeout: busyTimeout)
    }

    /// The error to throw for `error`: ``PersistenceError/corrupt(path:reason:)``
    /// when the database or a row is malformed, else `otherwise(reason)`.
    static func failure(
        _ error: any Error, path: String, otherwise: (String) -> PersistenceError
    ) -> PersistenceError {
        switch error {
        case let error as PersistenceError:
            error
        case let error as DatabaseError where isCorruption(error):
            .corrupt(path: path, reason: reason(error))
        case let error as DatabaseError:
            otherwise(reason(error))
        case let error as RowDecodingError:
            .corrupt(path: path, reason: "a stored favourite cannot be read: \(error)")
        default:
            otherwise(String(describing: error))
        }
    }
}
