// Opening an SQLite file safely: a damaged file is recognised before
// anything is written into it (opening a pool writes at once: it turns the
// file to WAL mode), and several processes opening a new file at the same
// moment retry SQLite's immediate "busy". The same rules as Comics'
// favourites store (Examples/Comics/Persistence); to be shared through
// AppSupport.

import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum SQLiteFile {
    /// The first 16 bytes of every SQLite database file.
    static let header = Array("SQLite format 3\0".utf8)

    /// Creates the directory at `path` (private to the user) unless it
    /// exists; never its parents.
    static func createDirectory(atPath path: String) throws(StandupsStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let reason = code == EEXIST ? "a file that is not a directory is in its place" : String(cString: strerror(code))
        throw .cannotCreateDirectory(path: path, reason: reason)
    }

    /// Checks, writing nothing, that the file at `path` is absent, empty or
    /// a well-formed SQLite database (its header, then `PRAGMA
    /// quick_check` through a read-only connection). Side files the check
    /// leaves next to a refused file are removed.
    static func checkExisting(atPath path: String) throws(StandupsStoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path: path, reason: "it cannot be opened for reading")
        }
        let prefix = (try? handle.read(upToCount: header.count)).map { Array($0) } ?? []
        try? handle.close()
        if prefix.isEmpty { return }
        guard prefix == header else {
            throw .damaged(path: path, reason: "it does not begin with the SQLite header; it is not an SQLite database")
        }
        let sideFiles = [path + "-wal", path + "-shm"].filter { !FileManager.default.fileExists(atPath: $0) }
        var configuration = Configuration()
        configuration.readonly = true
        let problems: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            problems = try queue.read { db in
                try String.fetchAll(db, sql: "PRAGMA quick_check(5)").filter { $0 != "ok" }
            }
            try queue.close()
        } catch let error as DatabaseError where isCorruption(error) {
            for sideFile in sideFiles { try? FileManager.default.removeItem(atPath: sideFile) }
            throw .damaged(path: path, reason: reason(error, busyTimeout: 0))
        } catch {
            // Anything else (a lock, a read-only directory) is for the pool
            // to report; it does not write into a file SQLite cannot read.
            return
        }
        if !problems.isEmpty {
            for sideFile in sideFiles { try? FileManager.default.removeItem(atPath: sideFile) }
            throw .damaged(path: path, reason: "it is malformed: " + problems.joined(separator: "; "))
        }
    }

    /// Opens a pool and applies the migrations, again while SQLite answers
    /// "busy" (two processes turning a new file to WAL at once), until
    /// `busyTimeout` has passed.
    static func openPool(
        path: String, label: String, busyTimeout: TimeInterval, migrator: DatabaseMigrator
    ) throws(StandupsStoreError) -> DatabasePool {
        var configuration = Configuration()
        configuration.label = label
        configuration.busyMode = .timeout(busyTimeout)
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        var attempts = 0
        while true {
            attempts += 1
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                do {
                    try migrator.migrate(pool)
                } catch {
                    // Another process may have applied them first.
                    if (try? pool.read { try migrator.hasCompletedMigrations($0) }) != true { throw error }
                }
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && .now < deadline {
                Thread.sleep(forTimeInterval: 0.002 * Double(min(attempts, 25)))
            } catch let error as DatabaseError where isCorruption(error) {
                throw .damaged(path: path, reason: reason(error, busyTimeout: busyTimeout))
            } catch let error as DatabaseError {
                throw .unreadable(path: path, reason: reason(error, busyTimeout: busyTimeout))
            } catch {
                throw .unreadable(path: path, reason: String(describing: error))
            }
        }
    }

    /// Whether SQLite found the file not to be a database, or a malformed one.
    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// A reason for a person: SQLite's message and its code.
    static func reason(_ error: DatabaseError, busyTimeout: TimeInterval) -> String {
        let reason = "\(error.message ?? "SQLite failed") (SQLite error \(error.extendedResultCode.rawValue))"
        guard error.resultCode == .SQLITE_BUSY else { return reason }
        return reason + "; another program kept it locked for more than \(Int(busyTimeout)) seconds"
    }
}
