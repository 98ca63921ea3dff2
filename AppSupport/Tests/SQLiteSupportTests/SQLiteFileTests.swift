// Opening an app's SQLite file: what is refused before anything is
// written, and the directory made private to the user. (The stores'
// tests — Comics' favourites, Standups' stand-ups — cover the rest on
// their own files: restarts, killed writers, two processes.)

import Foundation
import GRDB
import SQLiteSupport
import Testing

@Suite("SQLite files")
struct SQLiteFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-sqlite-\(UUID().uuidString)")

    @Test func aMissingOrEmptyFileIsANewDatabaseAndAnyOtherFileIsRefusedUntouched() throws {
        try SQLiteFile.createDirectory(atPath: directory.path)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("data.sqlite").path
        try SQLiteFile.checkExisting(atPath: path, busyTimeout: 1)
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try SQLiteFile.checkExisting(atPath: path, busyTimeout: 1)

        let notes = Data("minutes of the meeting, not a database".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: notes)
        #expect {
            try SQLiteFile.checkExisting(atPath: path, busyTimeout: 1)
        } throws: { error in
            guard case .damaged(path, let reason)? = error as? SQLiteFileProblem else { return false }
            return reason.contains("not an SQLite database")
        }
        #expect(FileManager.default.contents(atPath: path) == notes, "the refused file is untouched")

        // The header, then garbage: refused by SQLite's own check, no side
        // file left behind.
        var damaged = Data(SQLiteFile.header)
        damaged.append(Data(repeating: 0xA5, count: 8_192))
        _ = FileManager.default.createFile(atPath: path, contents: damaged)
        #expect(throws: SQLiteFileProblem.self) { try SQLiteFile.checkExisting(atPath: path, busyTimeout: 1) }
        #expect(FileManager.default.contents(atPath: path) == damaged)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func aPoolIsOpenedAndMigratedOnceEvenWhenMigratingAgain() throws {
        try SQLiteFile.createDirectory(atPath: directory.path)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("data.sqlite").path
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.create(table: "note") { $0.column("text", .text) } }
        let first = try SQLiteFile.openPool(
            path: path, configuration: Configuration(), busyTimeout: 1,
            migrate: { try SQLiteFile.migrate($0, with: migrator) })
        try first.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
        let second = try SQLiteFile.openPool(
            path: path, configuration: Configuration(), busyTimeout: 1,
            migrate: { try SQLiteFile.migrate($0, with: migrator) })
        #expect(try second.read { db in try String.fetchAll(db, sql: "SELECT text FROM note") } == ["kept"])
        #expect(try second.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func sqlStepsAreAppliedOnceEachInOrderUnderTheirNames() throws {
        let queue = try DatabaseQueue()
        let first = DatabaseMigrator.steps([("v1", "CREATE TABLE note (id INTEGER PRIMARY KEY)")])
        try first.migrate(queue)
        try queue.write { db in try db.execute(sql: "INSERT INTO note (id) VALUES (1)") }
        // A later release adds a step: the first is not applied again.
        let second = DatabaseMigrator.steps([
            ("v1", "CREATE TABLE note (id INTEGER PRIMARY KEY)"),
            ("v2", "ALTER TABLE note ADD COLUMN text TEXT NOT NULL DEFAULT ''"),
        ])
        try second.migrate(queue)
        let (applied, count, text) = try queue.read { db in
            (
                try second.appliedIdentifiers(db), try Int.fetchOne(db, sql: "SELECT count(*) FROM note"),
                try String.fetchOne(db, sql: "SELECT text FROM note")
            )
        }
        #expect(Set(applied) == ["v1", "v2"])
        #expect(count == 1)
        #expect(text == "")
    }

    @Test func theDataDirectoryIsPrivateAndAFileInItsPlaceIsSaid() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteFile.createDirectory(atPath: directory.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        try SQLiteFile.createDirectory(atPath: directory.path)  // already there: fine

        let file = directory.appendingPathComponent("taken")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(
            throws: SQLiteFileProblem.cannotCreateDirectory(
                path: file.path, reason: "a file that is not a directory is in its place")
        ) { try SQLiteFile.createDirectory(atPath: file.path) }
    }

    /// Each problem is said in words, with the path and what to do (not as
    /// the enum's case).
    @Test func problemsAreSaidInWords() {
        #expect(
            "\(SQLiteFileProblem.cannotCreateDirectory(path: "/data/app", reason: "No such file or directory"))"
                == "Could not create the data directory /data/app: No such file or directory. Create it (its parent "
                + "must exist), or use a directory you can write to.")
        #expect(
            "\(SQLiteFileProblem.unreadable(path: "/data/a.sqlite", reason: "Permission denied"))".hasPrefix(
                "Could not read the file /data/a.sqlite: Permission denied."))
        #expect(
            "\(SQLiteFileProblem.damaged(path: "/data/a.sqlite", reason: "not a database"))".hasSuffix(
                "it was left untouched. Move it aside to start anew, or use a directory you can write to."))
    }

    /// An app's store says the same problems in its own words: its file's
    /// name and its options.
    @Test func anAppSaysProblemsInItsOwnWords() {
        let words = SQLiteFileWords(file: "notes file", startAnew: "Move it away to start with no notes")
        #expect(
            SQLiteFileProblem.damaged(path: "/d/notes.sqlite", reason: "file is not a database").description(in: words)
                == "The notes file /d/notes.sqlite is not a usable SQLite database (file is not a database); it was "
                + "left untouched. Move it away to start with no notes, or pass --data-dir with a directory you can "
                + "write to.")
        #expect(
            words.unreadable("/d/notes.sqlite", "Permission denied")
                == "Could not read the notes file /d/notes.sqlite: Permission denied. Check that you may read and "
                + "write it and its directory, or pass --data-dir with a directory you can write to.")
        #expect(
            words.cannotCreateDirectory("/d", "Permission denied")
                == "Could not create the data directory /d: Permission denied. Create it (its parent must exist), "
                + "or pass --data-dir with a directory you can write to.")
    }
}
