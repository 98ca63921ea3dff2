import SQLiteSupport

/// Why the favourites could not be opened, read or saved.
///
/// Each description says what happened and what to do about it, in words a
/// user of the `comics` program can act on.
public enum PersistenceError: Error, Equatable, CustomStringConvertible {
    /// The data directory at `path` did not exist and could not be created
    /// (its parent is missing, or may not be written to, or a file is in
    /// its place). Only the directory itself is ever created, never its
    /// parents.
    case cannotCreateDirectory(path: String, reason: String)

    /// The file at `path` is not an SQLite database, or is a malformed one.
    /// The store never writes into such a file.
    case corrupt(path: String, reason: String)

    /// The file at `path` could not be opened or read (permissions, a
    /// directory in its place, an I/O error, another program locking it).
    case unreadable(path: String, reason: String)

    /// A change could not be written (disk full, read-only file system,
    /// permissions, another program holding the write lock too long); the
    /// database was left as it was before the change.
    case writeFailed(reason: String)

    /// The favourites' database server at `database` (a URL without its
    /// password) did not answer in time, or refused the connection; it was
    /// tried again meanwhile. Whether a change being made was written is
    /// not known: read the favourites again once it answers.
    case unreachable(database: String, reason: String)

    /// The favourites' database server refused a statement (`reason` is the
    /// server's); nothing was changed.
    case refused(database: String, reason: String)

    /// What happened and what to do about it.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): Self.words.cannotCreateDirectory(path, reason)
        case .corrupt(let path, let reason): Self.words.damaged(path, reason)
        case .unreadable(let path, let reason): Self.words.unreadable(path, reason)
        case .writeFailed(let reason):
            "Could not write the favourites: \(reason). Nothing was changed; check the free disk space and that "
                + "you may write to the data directory, then try again, or pass --data-dir."
        case .unreachable(let database, let reason):
            "The favourites database \(database) cannot be reached (\(reason)). Check that PostgreSQL runs there and "
                + "that --database (or DATABASE_URL) names it and a user who may connect, then try again."
        case .refused(let database, let reason):
            "The favourites database \(database) refused the change: \(reason). Nothing was changed; check that "
                + "the database's user may write to it."
        }
    }

    /// How the messages of the problems every SQLite store shares speak of
    /// the favourites file.
    static let words = SQLiteFileWords(file: "favourites file", startAnew: "Move it away to start with no favourites")

    /// What happened, naming no file: for a person who does not own the
    /// machine's files (a browser's user). The ``description`` has the
    /// paths, for the machine's user and the logs.
    public var summary: String {
        switch self {
        case .cannotCreateDirectory: "The data directory could not be created."
        case .corrupt: "The favourites file is damaged; it was left untouched."
        case .unreadable: "The favourites file could not be read."
        case .writeFailed: "The favourites could not be saved; nothing was changed."
        case .unreachable: "The favourites database cannot be reached; try again later."
        case .refused: "The favourites database refused the change; nothing was changed."
        }
    }
}
