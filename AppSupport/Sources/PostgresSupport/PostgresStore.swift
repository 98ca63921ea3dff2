// The skeleton every app's PostgreSQL adapter shares, so that the adapter
// is only its SQL and its row mapping: the schema's migrations applied
// once, statements tried again after a lost connection until a deadline,
// each write one transaction that announces itself (NOTIFY), a change feed
// of what any process wrote, and the database's errors told in the app's
// own error type.

import Logging
import PostgresNIO

/// An app's data in a PostgreSQL database: what it reads, writes in one
/// transaction each and follows as any process changes it.
///
/// `Snapshot` is what the app's followers see (all favourites, all
/// stand-ups); `Failure` is the app's own error, made from the database's
/// by the `failure` function given to ``open(_:component:migrations:channel:deadline:logger:failure:snapshot:)``.
///
/// ```swift
/// let store = try await PostgresStore.open(
///     database, component: "comics", migrations: migrations, channel: "oak_comics_favourites",
///     failure: { error, location in PersistenceError(error, at: location) },
///     snapshot: { client, logger in try await fetchAll(client, logger) })
/// try await store.write(announcing: "42") { connection, logger in
///     try await connection.query("DELETE FROM favourite WHERE number = 42", logger: logger)
/// }
/// for await favourites in store.follow() { show(favourites) }
/// ```
///
/// Run only statements that may be run twice: a connection lost while the
/// server committed is told like one lost before, and the statement is run
/// again (an upsert, a delete, an update to given values).
public final class PostgresStore<Snapshot: Sendable & Equatable, Failure: Error>: Sendable {
    /// The database the store is in.
    public let database: PostgresAppDatabase
    /// The channel each write is announced on (when it commits).
    public let channel: String
    /// How long a statement is tried again after lost connections.
    public let deadline: Duration
    private let logger: Logger
    private let failure: @Sendable (PostgresAppDatabaseError, PostgresLocation) -> Failure
    private let reading: @Sendable (PostgresClient, Logger) async throws -> Snapshot
    private let feed: PostgresChangeFeed<Snapshot>

    private init(
        database: PostgresAppDatabase, channel: String, deadline: Duration, logger: Logger,
        failure: @escaping @Sendable (PostgresAppDatabaseError, PostgresLocation) -> Failure,
        snapshot: @escaping @Sendable (PostgresClient, Logger) async throws -> Snapshot
    ) {
        self.database = database
        self.channel = channel
        self.deadline = deadline
        self.logger = logger
        self.failure = failure
        reading = snapshot
        feed = PostgresChangeFeed(database, channel: channel, logger: logger) {
            try await snapshot(database.client, logger)
        }
    }

    /// The store of `component` in `database`, its schema brought up to
    /// date with `migrations` (applied once each, in order, even when
    /// several processes open it at once: never change a step once
    /// released, add one).
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - component: The store's name in the migrations' table (each
    ///     store of an app has its own history of steps).
    ///   - migrations: The schema's steps, in order.
    ///   - channel: What writes are announced on: letters, digits and
    ///     underscores, the same in every process.
    ///   - deadline: How long a statement is tried again after lost
    ///     connections before it fails.
    ///   - failure: The app's error for the database's (unreachable, timed
    ///     out, refused) at `location`.
    ///   - logger: Where the store and its feed log.
    ///   - snapshot: Reads what the followers see, on the pool.
    /// - Throws: `failure` of the database's error when the schema could
    ///   not be brought up to date.
    public static func open(
        _ database: PostgresAppDatabase, component: String, migrations: [String], channel: String,
        deadline: Duration = .seconds(5), logger: Logger,
        failure: @escaping @Sendable (PostgresAppDatabaseError, PostgresLocation) -> Failure,
        snapshot: @escaping @Sendable (PostgresClient, Logger) async throws -> Snapshot
    ) async throws(Failure) -> PostgresStore {
        do {
            try await database.migrate(migrations, as: component)
        } catch {
            throw failure(error, database.location)
        }
        return PostgresStore(
            database: database, channel: channel, deadline: deadline, logger: logger, failure: failure,
            snapshot: snapshot)
    }

    /// Runs `body`'s statements on the pool, again after a lost connection
    /// until the deadline (announcing nothing: ``write(announcing:_:)``
    /// announces).
    ///
    /// - Throws: `Failure` when the server did not answer within the
    ///   deadline or refused a statement (at once).
    public func perform<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> Value
    ) async throws(Failure) -> Value {
        let logger = logger
        do {
            return try await database.perform(within: deadline) { client in try await body(client, logger) }
        } catch {
            throw failure(error, database.location)
        }
    }

    /// Runs `body` in one transaction that also announces itself on the
    /// channel with `payload`: all or none, and every process's followers
    /// read the snapshot again once it commits.
    ///
    /// - Throws: as ``perform(_:)``; nothing is written then, unless the
    ///   connection was lost as the server committed.
    @discardableResult
    public func write<Value: Sendable>(
        announcing payload: String = "",
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) async throws(Failure) -> Value {
        let channel = channel
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                let value = try await body(connection, logger)
                try await connection.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
                return value
            }
        }
    }

    /// The snapshot now, read from the database. One equal to what this
    /// process's followers last received is returned as that very value,
    /// so that a server's sessions share one copy.
    public func snapshot() async throws(Failure) -> Snapshot {
        let snapshot = try await perform(reading)
        guard let latest = feed.latest, latest == snapshot else { return snapshot }
        return latest
    }

    /// The snapshot now, then after each write any process committed
    /// (NOTIFY); this process's followers share one listening connection
    /// and one read per burst of writes. A value is not sent twice in a
    /// row; after a lost connection the snapshot is read again once the
    /// server answers.
    public func follow() -> AsyncStream<Snapshot> {
        feed.follow()
    }

    /// ``follow()``, each snapshot made into what the follower needs by
    /// `transform` (as it is sent: no task per follower).
    public func follow<Element: Sendable>(
        _ transform: @escaping @Sendable (Snapshot) -> Element
    ) -> AsyncStream<Element> {
        feed.follow(transform)
    }
}

/// An app's adapter over a ``PostgresStore``: its schema, the channel its
/// writes are announced on, what its followers read and its own error for
/// the database's. It gets ``open(_:deadline:logger:)``, so that the adapter
/// is its SQL and its row mapping.
///
/// ```swift
/// public final class PostgresNotes: PostgresAdapter {
///     public static let component = "notes"
///     public static let channel = "oak_notes"
///     public static let migrations = ["CREATE TABLE note (id uuid PRIMARY KEY, text text NOT NULL)"]
///     let store: PostgresStore<[Note], NotesError>
///     public init(store: PostgresStore<[Note], NotesError>) { self.store = store }
///     public static func fetchAll(_ client: PostgresClient, logger: Logger) async throws -> [Note] { … }
///     public static func failure(_ error: PostgresAppDatabaseError, _ location: PostgresLocation) -> NotesError { … }
/// }
/// let notes = try await PostgresNotes.open(database)
/// ```
public protocol PostgresAdapter: Sendable {
    /// What the adapter's followers see (all notes).
    associatedtype Snapshot: Sendable & Equatable
    /// The app's error.
    associatedtype Failure: Error

    /// The adapter's name in the database's table of applied migrations.
    static var component: String { get }
    /// The schema's history, applied once each in order: never change a
    /// step once released, add one.
    static var migrations: [String] { get }
    /// What writes are announced on: letters, digits and underscores.
    static var channel: String { get }

    /// Reads what the followers see.
    static func fetchAll(_ client: PostgresClient, logger: Logger) async throws -> Snapshot
    /// The app's error for the database's at `location`.
    static func failure(_ error: PostgresAppDatabaseError, _ location: PostgresLocation) -> Failure

    /// The adapter over `store`; use ``open(_:deadline:logger:)``, which
    /// brings the schema up to date first.
    init(store: PostgresStore<Snapshot, Failure>)
}

extension PostgresAdapter {
    /// The adapter's data in `database`, its schema brought up to date.
    /// Each statement is tried again after a lost connection until
    /// `deadline`.
    ///
    /// - Throws: ``failure(_:_:)`` of the database's error when the schema
    ///   could not be brought up to date.
    public static func open(
        _ database: PostgresAppDatabase, deadline: Duration = .seconds(5),
        logger: Logger = Logger(label: "oak.postgres")
    ) async throws(Failure) -> Self {
        Self(
            store: try await PostgresStore.open(
                database, component: component, migrations: migrations, channel: channel, deadline: deadline,
                logger: logger, failure: failure,
                snapshot: { client, logger in try await fetchAll(client, logger: logger) }
            ))
    }
}
