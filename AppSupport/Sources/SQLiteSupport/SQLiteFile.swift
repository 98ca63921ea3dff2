// Opening an SQLite file safely, for every app's store: a damaged file is
// recognised before anything is written into it (opening a pool writes at
// once: it turns the file to WAL mode), the data directory is created
// private to the user, and several processes opening a new file at the
// same moment retry SQLite's immediate "busy". Each store maps the
// problems to its own errors.

import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an SQLite file cannot be used.
public enum SQLiteFileProblem: Error, Equatable, Sendable {
    /// The directory at `path` could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file at `path` could not be read.
    case unreadable(path: String, reason: String)
    /// The file at `path` is not an SQLite database, or a malformed one.
    case damaged(path: String, reason: String)
}

extension SQLiteFileProblem: CustomStringConvertible {
    /// What went wrong and what to do, with the path, in plain words: an
    /// app's store says it in its own (``description(in:)``).
    public var description: String { description(in: .plain) }

    /// What went wrong and what to do, with the path, in an app's words.
    public func description(in words: SQLiteFileWords) -> String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): words.cannotCreateDirectory(path, reason)
        case .unreadable(let path, let reason): words.unreadable(path, reason)
        case .damaged(let path, let reason): words.damaged(path, reason)
        }
    }
}

/// How an app's store speaks of its SQLite file in messages: what its user
/// calls the file, and what they can do. The messages for the problems
/// every store shares are written here once.
public struct SQLiteFileWords: Sendable, Hashable {
    /// The file as the app's user knows it, after "the": `stand-ups file`.
    public var file: String
    /// How to use another directory, after "or": `pass --data-dir with a
    /// directory you can write to`.
    public var elsewhere: String
    /// How to begin anew beside a damaged file, a sentence:
    /// `Move it away to start with no favourites`.
    public var startAnew: String

    /// Words for an app's file.
    ///
    /// - Parameters:
    ///   - file: The file as the app's user knows it, after "the".
    ///   - startAnew: How to begin anew beside a damaged file.
    ///   - elsewhere: How to use another directory, after "or"; by default
    ///     AppCommands' storage option, `--data-dir`.
    public init(
        file: String, startAnew: String, elsewhere: String = "pass --data-dir with a directory you can write to"
    ) {
        self.file = file
        self.elsewhere = elsewhere
        self.startAnew = startAnew
    }

    /// Words for any file: "the file", "use a directory you can write to".
    public static let plain = SQLiteFileWords(
        file: "file", startAnew: "Move it aside to start anew", elsewhere: "use a directory you can write to")

    /// The data directory at `path` could not be created.
    public func cannotCreateDirectory(_ path: String, _ reason: String) -> String {
        "Could not create the data directory \(path): \(reason). Create it (its parent must exist), or \(elsewhere)."
    }

    /// The file at `path` could not be opened or read.
    public func unreadable(_ path: String, _ reason: String) -> String {
        "Could not read the \(file) \(path): \(reason). Check that you may read and write it and its directory, or "
            + "\(elsewhere)."
    }

    /// The file at `path` is not a usable SQLite database, and was left
    /// untouched.
    public func damaged(_ path: String, _ reason: String) -> String {
        "The \(file) \(path) is not a usable SQLite database (\(reason)); it was left untouched. \(startAnew), or "
            + "\(elsewhere)."
    }
}

/// The rules of opening an app's SQLite file.
public enum SQLiteFile {
    /// The first 16 bytes of every SQLite database file.
    public static let header = Array("SQLite format 3\0".utf8)

    /// Creates the directory at `path` (private to the user, as the XDG
    /// specification asks) unless it exists; never creates its parents.
    public static func createDirectory(atPath path: String) throws(SQLiteFileProblem) {
        if isDirectory(atPath: path) { return }
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        // Another process may have created it meanwhile.
        if isDirectory(atPath: path) { return }
        let reason = code == EEXIST ? "a file that is not a directory is in its place" : message(code)
        throw .cannotCreateDirectory(path: path, reason: reason)
    }

    /// Checks, without writing to it, that the file at `path` is absent,
    /// empty (SQLite makes an empty file a new database) or a well-formed
    /// SQLite database: its header, then `PRAGMA quick_check` through a
    /// read-only connection. Side files (`-wal`, `-shm`) that the check
    /// leaves next to a refused file are removed; those that were there
    /// before are kept. Any failure other than a verdict of corruption (a
    /// lock held too long, a read-only directory) is left for the pool to
    /// report: it does not write into a file SQLite cannot read.
    public static func checkExisting(atPath path: String, busyTimeout: TimeInterval) throws(SQLiteFileProblem) {
        let prefix: [UInt8]
        switch readPrefix(ofFileAtPath: path, count: header.count) {
        case .missing:
            return
        case .failed(let reason):
            throw .unreadable(path: path, reason: reason)
        case .read(let bytes):
            prefix = bytes
        }
        if prefix.isEmpty { return }
        guard prefix == header else {
            throw .damaged(path: path, reason: "it does not begin with the SQLite header; it is not an SQLite database")
        }
        let sideFiles = [path + "-wal", path + "-shm"].filter { !FileManager.default.fileExists(atPath: $0) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        var problems: [String] = []
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            problems = try queue.read { db in
                try String.fetchAll(db, sql: "PRAGMA quick_check(5)").filter { $0 != "ok" }
            }
            try queue.close()
        } catch let error as DatabaseError where isCorruption(error) {
            for sideFile in sideFiles { try? FileManager.default.removeItem(atPath: sideFile) }
            throw .damaged(path: path, reason: reason(error, busyTimeout: busyTimeout))
        } catch {
            return
        }
        guard problems.isEmpty else {
            for sideFile in sideFiles { try? FileManager.default.removeItem(atPath: sideFile) }
            throw .damaged(path: path, reason: "it is malformed: " + problems.joined(separator: "; "))
        }
    }

    /// Opens a pool with `configuration` and `migrate`s it, again while
    /// SQLite answers "busy", until `busyTimeout` has passed; any other
    /// error is thrown as it is, for the store to report in its words.
    ///
    /// SQLite answers "busy" at once, without waiting, to all but one of
    /// several connections that turn a new file to WAL mode at the same
    /// moment: a terminal app and a server started together on a new data
    /// directory would otherwise see "database is locked".
    public static func openPool(
        path: String, configuration: Configuration, busyTimeout: TimeInterval,
        migrate: (DatabasePool) throws -> Void
    ) throws -> DatabasePool {
        var configuration = configuration
        configuration.busyMode = .timeout(busyTimeout)
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        var attempts = 0
        while true {
            attempts += 1
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrate(pool)
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && .now < deadline {
                Thread.sleep(forTimeInterval: 0.002 * Double(min(attempts, 25)))
            }
        }
    }

    /// Applies `migrator`'s migrations not yet applied. Another process
    /// opening the file at the same moment may have applied them first:
    /// then all is well. "Busy" is rethrown as it is, for
    /// ``openPool(path:configuration:busyTimeout:migrate:)`` to try again.
    public static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        do {
            try migrator.migrate(pool)
        } catch {
            if (try? pool.read { try migrator.hasCompletedMigrations($0) }) == true { return }
            throw error
        }
    }

    /// Whether SQLite found the file not to be a database, or a malformed one.
    public static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// A reason for a person: SQLite's message and its code, and for
    /// "busy", how long the store waited.
    public static func reason(_ error: DatabaseError, busyTimeout: TimeInterval) -> String {
        let reason = "\(error.message ?? "SQLite failed") (SQLite error \(error.extendedResultCode.rawValue))"
        guard error.resultCode == .SQLITE_BUSY else { return reason }
        return reason + "; another program kept it locked for more than \(Int(busyTimeout)) seconds"
    }

    // MARK: File system

    /// The first bytes of a file, or why they could not be read.
    public enum Prefix: Equatable, Sendable {
        /// No file (nor directory) is at the path.
        case missing
        /// The file could not be opened or read.
        case failed(reason: String)
        /// Up to the bytes asked for: fewer if the file is shorter.
        case read([UInt8])
    }

    /// Reads up to `count` bytes from the start of the file at `path`,
    /// without writing anything; failures in the system's own words
    /// ("Permission denied").
    public static func readPrefix(ofFileAtPath path: String, count: Int) -> Prefix {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            return code == ENOENT ? .missing : .failed(reason: message(code))
        }
        defer { _ = close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes[filled...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if result > 0 {
                filled += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                return .failed(reason: message(errno))
            }
        }
        return .read(Array(bytes[..<filled]))
    }

    /// Whether a directory (or a link to one) is at `path`.
    public static func isDirectory(atPath path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The system's description of the error `code`, such as "No such file
    /// or directory".
    public static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
