// A schema's history as SQL: each step applied once, in order, under its
// name, so that a store declares its migrations as data (as its PostgreSQL
// counterpart does) and not as a migrator built by hand.

import GRDB

extension DatabaseMigrator {
    /// A migrator that applies each of `steps` once, in order, under its
    /// name: never change a step once released, add one.
    ///
    /// ```swift
    /// static var migrator: DatabaseMigrator {
    ///     .steps([("v1-notes", "CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL)")])
    /// }
    /// ```
    public static func steps(_ steps: [(name: String, sql: String)]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.name) { db in try db.execute(sql: step.sql) }
        }
        return migrator
    }
}
