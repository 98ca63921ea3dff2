// What every app's command does the same way around its features: where
// its data is kept (`--data-dir` or `--database`, validated alike), where
// its logs go, and how a failure it reports in its own words ends it.

import ArgumentParser
import Common
import Foundation
import Logging
import PostgresSupport

/// A failure a command reports in its own words: printed after
/// ArgumentParser's `Error: ` as it is (no type name, no usage), and the
/// program ends with 1.
///
/// ```swift
/// throw CommandError("The database cannot be reached: …. Check that PostgreSQL runs there.")
/// ```
public struct CommandError: Error, CustomStringConvertible, Sendable {
    /// What the program prints: what went wrong and what to do.
    public let description: String

    /// A failure told as `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// Where an app keeps its data, as its options give it: a directory of its
/// own (`--data-dir`, or the platform's data directory), or a PostgreSQL
/// database that several processes share (`--database`, else
/// `DATABASE_URL`).
///
/// ```swift
/// func validate() throws {
///     _ = try StoragePlace(dataDir: dataDir, database: database, app: "oak-comics", keeping: "favourites")
/// }
/// ```
public enum StoragePlace: Sendable, Equatable {
    /// A directory the app owns.
    case directory(URL)
    /// A PostgreSQL database.
    case database(PostgresLocation)

    /// The place `dataDir` and `database` (the options' values) name, or
    /// the default directory `app` (such as `oak-comics`) in the platform's
    /// data directory; `environment` gives `DATABASE_URL` and the data
    /// directory's variables.
    ///
    /// - Parameters:
    ///   - dataDir: `--data-dir`'s value, if given.
    ///   - database: `--database`'s value, if given.
    ///   - app: The name of the app's default data directory.
    ///   - what: What is kept, for the messages ("favourites").
    ///   - environment: Where `DATABASE_URL` and the data directory's
    ///     variables are read.
    /// - Throws: `ValidationError` saying what to change: both options
    ///   given, or a database URL that is not one.
    public init(
        dataDir: String?, database: String?, app: String, keeping what: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ValidationError) {
        if dataDir != nil, database != nil {
            throw ValidationError("Give --data-dir or --database, not both: the \(what) are kept in one place.")
        }
        if dataDir?.isEmpty == true {
            throw ValidationError("--data-dir is empty: give the directory where the \(what) are kept.")
        }
        let location: PostgresLocation?
        do {
            location = try PostgresLocation.given(option: database, environment: environment)
        } catch {
            throw ValidationError("\(database == nil ? "DATABASE_URL" : "--database"): \(error)")
        }
        // `--data-dir` wins over DATABASE_URL from the environment.
        if let location, dataDir == nil {
            self = .database(location)
        } else {
            self = .directory(DataDirectory.resolve(named: app, override: dataDir, environment: environment))
        }
    }

    /// Makes the parent of `directory`, the app's default data directory:
    /// a fresh machine may have no `~/.local/share` yet (the store makes
    /// the directory itself, private to the user).
    ///
    /// - Throws: ``CommandError`` saying where and why it could not.
    public static func makeParent(of directory: URL, keeping what: String) throws(CommandError) {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw CommandError("Cannot create \(parent.path) for the \(what): \(error.localizedDescription)")
        }
    }

    /// Checks that `directory` is one, or can be made (the store makes it):
    /// not a file, nor under one, nor under a directory nobody may write
    /// in — said before a server starts serving pages that could never
    /// keep anything.
    ///
    /// - Throws: ``CommandError`` saying where and what to change.
    public static func check(_ directory: URL, keeping what: String) throws(CommandError) {
        var isDirectory: ObjCBool = false
        let path = directory.path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandError("\(path) is a file: give --data-dir a directory for the \(what).")
            }
            return
        }
        var ancestor = directory.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory),
            ancestor.path != "/", !ancestor.path.isEmpty
        {
            ancestor = ancestor.deletingLastPathComponent()
        }
        guard isDirectory.boolValue else {
            throw CommandError(
                "Cannot make \(path) for the \(what): \(ancestor.path) is a file. Give --data-dir a directory.")
        }
        guard FileManager.default.isWritableFile(atPath: ancestor.path) else {
            throw CommandError(
                "Cannot make \(path) for the \(what): \(ancestor.path) may not be written in. Give --data-dir a directory."
            )
        }
    }

    /// Opens the database, or ends the command with the server's reason.
    ///
    /// - Throws: ``CommandError`` saying why it cannot be reached.
    public static func open(
        _ location: PostgresLocation, logger: Logger
    ) async throws(CommandError)
        -> PostgresAppDatabase
    {
        do {
            return try await PostgresAppDatabase.open(location, logger: logger)
        } catch {
            throw CommandError("\(error)")
        }
    }
}

/// What an app keeps, and where by default: the names ``StorageOptions``
/// speaks in.
///
/// ```swift
/// enum Notes: StorageNaming {
///     static let dataFolder = "oak-notes"
///     static let kept = "notes"
/// }
/// ```
public protocol StorageNaming {
    /// The app's folder in the platform's data directory (`oak-comics`).
    static var dataFolder: String { get }
    /// What is kept, for help and messages (`favourites`).
    static var kept: String { get }
}

/// `--data-dir` and `--database`: where an app keeps its data, as every
/// app of this repository says it (validated alike; `DATABASE_URL` when
/// neither is given). Add it to a command with
/// `@OptionGroup var storage: StorageOptions<Notes>`.
public struct StorageOptions<App: StorageNaming>: ParsableArguments, Sendable {
    /// The directory given, if one is.
    @Option(
        help: ArgumentHelp(
            "Where the \(App.kept) are kept (default: $XDG_DATA_HOME/\(App.dataFolder), else "
                + "~/.local/share/\(App.dataFolder))."))
    public var dataDir: String?

    /// The database's URL given, if one is.
    @Option(
        help: ArgumentHelp(
            "Keep the \(App.kept) in PostgreSQL instead (default: $DATABASE_URL, if set), shared by every process "
                + "that names it.", valueName: "postgres://user[:password]@host[:port]/database"))
    public var database: String?

    /// No place given: the default.
    public init() {}

    /// The options' environment variables, for a served app's `variables`.
    public static var variables: [EnvironmentOption] {
        [EnvironmentOption("data-dir"), EnvironmentOption("database")]
    }

    /// Refuses options that cannot go together, or a URL that is not a
    /// database's, saying what to change.
    public func validate() throws {
        _ = try place()
    }

    /// Where the data is kept.
    ///
    /// - Throws: `ValidationError` saying what to change.
    public func place() throws(ValidationError) -> StoragePlace {
        try StoragePlace(dataDir: dataDir, database: database, app: App.dataFolder, keeping: App.kept)
    }

    /// Where the data is kept, made ready: the default directory's parent
    /// made (unless `writing` is false: a reader makes nothing), or the
    /// database opened and added to `services`, which close it last.
    ///
    /// - Throws: ``CommandError`` saying why the database cannot be
    ///   reached or the directory made.
    public func open(
        writing: Bool = true, services: inout AppServices, logger: Logger
    ) async throws -> OpenedStorage {
        switch try place() {
        case .directory(let directory):
            if dataDir == nil, writing { try StoragePlace.makeParent(of: directory, keeping: App.kept) }
            if writing { try StoragePlace.check(directory, keeping: App.kept) }
            return .directory(directory)
        case .database(let location):
            let database = try await StoragePlace.open(location, logger: logger)
            services.closing("the storage") { await database.close() }
            return .database(database)
        }
    }
}

/// Where an app's data is kept, ready to open its stores in
/// (``StorageOptions/open(writing:services:logger:)``).
public enum OpenedStorage: Sendable {
    /// A directory the app owns, its parent made.
    case directory(URL)
    /// An open PostgreSQL database, closed by the command's services.
    case database(PostgresAppDatabase)
}

/// Where a program's logs go.
public enum AppLogs {
    /// Logs at `level` and above to standard error; nowhere when `nil` (a
    /// full-screen program: nothing may write on the screen it draws).
    /// Once per process, before the first logger is made.
    public static func bootstrap(_ level: Logger.Level?) {
        LoggingSystem.bootstrap { label in
            guard let level else { return SwiftLogNoOpLogHandler(label) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

extension ParsableCommand {
    /// This command's options as its own help lists them, under `intro`
    /// and above `outro`: for the root command's `discussion` when this
    /// is its default subcommand, whose options ArgumentParser's root
    /// help does not show.
    ///
    /// ```swift
    /// static let configuration = CommandConfiguration(
    ///     commandName: "notes",
    ///     discussion: Browse.optionsText(intro: "With no subcommand, notes runs in your terminal (notes browse):"),
    ///     subcommands: [Browse.self, ServeCommand<NotesApp>.self], defaultSubcommand: Browse.self)
    /// ```
    public static func optionsText(intro: String, outro: String? = nil) -> String {
        let help = helpMessage(columns: 80)
        guard let start = help.range(of: "OPTIONS:\n") else {
            return ([intro] + [outro].compactMap { $0 }).joined(separator: "\n")
        }
        let options = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("-h, --help") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return ([intro] + options.map(String.init) + [outro].compactMap { $0 }).joined(separator: "\n")
    }
}
