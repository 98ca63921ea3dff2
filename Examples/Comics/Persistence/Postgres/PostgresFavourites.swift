// Favourites in PostgreSQL, for several server processes sharing one
// database: the same rules as the SQLite file (FavouritesStorage), each
// change one transaction that also announces itself (NOTIFY), and a change
// feed that pushes what any process changed to every session of this one.
// Statements lost with a connection are tried again until a deadline
// (each of them may run twice: adding is an upsert, removing a delete).

import Foundation
import Logging
import Persistence
import PostgresNIO
import PostgresSupport

/// The favourites in the table `favourite` of a PostgreSQL database.
///
/// ```swift
/// let database = try await PostgresAppDatabase.open(location, logger: logger)
/// let favourites = try await PostgresFavourites.open(database)
/// ```
public final class PostgresFavourites: FavouritesStorage, PostgresAdapter {
    /// The channel every change is announced on.
    public static let channel = "oak_comics_favourites"

    /// The schema's history, applied once each (PostgresAppDatabase's
    /// migrations, component "comics"); never change a step once
    /// released, add one. The same table as the SQLite file's
    /// `v1-favourites`, in PostgreSQL's types.
    public static let migrations = [
        "CREATE TABLE favourite (number bigint PRIMARY KEY, title text NOT NULL, added_at timestamptz NOT NULL)"
    ]

    /// The favourites' component in the database's migrations.
    public static let component = "comics"

    private let store: PostgresStore<[StoredFavourite], PersistenceError>

    /// The adapter over `store`; ``open(_:deadline:logger:)`` makes one.
    public init(store: PostgresStore<[StoredFavourite], PersistenceError>) {
        self.store = store
    }

    /// All favourites, the newest first (ties: the highest number first).
    public func all() async throws(PersistenceError) -> [StoredFavourite] {
        try await store.perform(Self.fetchAll)
    }

    /// Whether `number` is a favourite.
    public func contains(_ number: Int) async throws(PersistenceError) -> Bool {
        try await store.perform { client, logger in
            try await client.query("SELECT EXISTS (SELECT 1 FROM favourite WHERE number = \(number))", logger: logger)
                .decode(Bool.self).reduce(false) { $0 || $1 }
        }
    }

    /// Adds `favourite`, or replaces the title and date of the one with its
    /// number, and announces the change, in one transaction.
    public func add(_ favourite: StoredFavourite) async throws(PersistenceError) {
        try await store.write(announcing: String(favourite.number)) { connection, logger in
            try await connection.query(
                """
                INSERT INTO favourite (number, title, added_at)
                VALUES (\(favourite.number), \(favourite.title), \(favourite.addedAt))
                ON CONFLICT (number) DO UPDATE SET title = excluded.title, added_at = excluded.added_at
                """, logger: logger)
        }
    }

    /// Removes the favourite numbered `number`, if there is one.
    public func remove(_ number: Int) async throws(PersistenceError) {
        try await store.write(announcing: String(number)) { connection, logger in
            try await connection.query("DELETE FROM favourite WHERE number = \(number)", logger: logger)
        }
    }

    /// The list now, then after each change any process made (pushed
    /// through NOTIFY); every follower in this process shares one listening
    /// connection and one read per change. After a lost connection the
    /// list is read again when the server answers.
    public func changes<Value: Sendable>(
        _ transform: @escaping @Sendable ([StoredFavourite]) -> Value
    ) -> AsyncStream<Value> {
        store.follow(transform)
    }

    // MARK: - Rows

    /// All favourites, the newest first, read on `client`.
    public static func fetchAll(_ client: PostgresClient, logger: Logger) async throws -> [StoredFavourite] {
        var favourites: [StoredFavourite] = []
        let rows = try await client.query(
            "SELECT number, title, added_at FROM favourite ORDER BY added_at DESC, number DESC", logger: logger)
        for try await (number, title, added) in rows.decode((Int, String, Date).self) {
            favourites.append(StoredFavourite(number: number, title: title, addedAt: added))
        }
        return favourites
    }

    /// The store's error for the database's at `location`.
    public static func failure(_ error: PostgresAppDatabaseError, _ location: PostgresLocation) -> PersistenceError {
        switch error {
        case .unreachable(_, let reason): .unreachable(database: "\(location)", reason: reason)
        case .timedOut(let timeout): .unreachable(database: "\(location)", reason: "no answer within \(timeout)")
        case .failed(let reason): .refused(database: "\(location)", reason: reason)
        }
    }
}
