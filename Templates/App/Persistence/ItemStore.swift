// The port's adapter: the items in a SQLite file (GRDB), in the app's data
// directory. A change returns once it is committed; SQLite's "busy" (another
// process writing) is waited out for a few seconds; every failure is said
// in words for the user.

import Foundation
import GRDB
import SQLiteSupport
import __Name__Feature

/// The items in `items.sqlite` of a directory.
public final class ItemStore: Sendable {
    private let pool: DatabasePool
    /// How long a statement waits for another process's write.
    static let busyTimeout: TimeInterval = 5

    /// Opens (or makes) the store in `directory`, made private to the user
    /// if it does not exist.
    ///
    /// - Throws: ``StoreFailure`` saying where and why.
    public init(directory: URL) throws(StoreFailure) {
        let path = directory.appendingPathComponent("items.sqlite").path
        do {
            try SQLiteFile.createDirectory(atPath: directory.path)
            try SQLiteFile.checkExisting(atPath: path, busyTimeout: Self.busyTimeout)
        } catch {
            throw StoreFailure("The items cannot be kept: \(error) Or pass --data-dir with another folder.")
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("items") { db in
            try db.create(table: "item") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
            }
        }
        do {
            pool = try SQLiteFile.openPool(
                path: path, configuration: Configuration(), busyTimeout: Self.busyTimeout,
                migrate: { try SQLiteFile.migrate($0, with: migrator) })
        } catch {
            throw Self.failure(error, at: path)
        }
    }

    /// The feature's port, over this store.
    public var port: ItemList.Env {
        ItemList.Env(
            load: { () throws(StoreFailure) in try await self.load() },
            add: { title throws(StoreFailure) in try await self.add(title) },
            remove: { id throws(StoreFailure) in try await self.remove(id) })
    }

    /// Every item, oldest first.
    public func load() async throws(StoreFailure) -> [Item] {
        try await run {
            try await self.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT id, title FROM item ORDER BY id").map {
                    Item(id: $0["id"], title: $0["title"])
                }
            }
        }
    }

    /// Keeps a new item; returns it once committed.
    public func add(_ title: String) async throws(StoreFailure) -> Item {
        try await run {
            try await self.pool.write { db in
                try db.execute(sql: "INSERT INTO item (title) VALUES (?)", arguments: [title])
                return Item(id: db.lastInsertedRowID, title: title)
            }
        }
    }

    /// Removes an item; returns once committed.
    public func remove(_ id: Int64) async throws(StoreFailure) {
        try await run {
            try await self.pool.write { db in try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id]) }
        }
    }

    private func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws(StoreFailure) -> T {
        do {
            return try await body()
        } catch {
            throw Self.failure(error, at: pool.path)
        }
    }

    private static func failure(_ error: any Error, at path: String) -> StoreFailure {
        guard let error = error as? DatabaseError else {
            return StoreFailure("The items in \(path) could not be used: \(error)")
        }
        return StoreFailure(
            "The items in \(path) could not be used: \(SQLiteFile.reason(error, busyTimeout: busyTimeout)). "
                + "Try again; if it goes on, check the file.")
    }
}
