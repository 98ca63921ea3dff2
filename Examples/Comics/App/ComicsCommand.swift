// The injector: parses options, builds the adapters (the offline catalog or
// xkcd.com; the SQLite store, or PostgreSQL with --database), injects them
// into the features' ports and starts the front end. No feature logic
// lives here.

import AppCommands
import ArgumentParser
import ComicsScene
import Common
import FavouritesScene
import FixtureServer
import Foundation
import Logging
import MainScene
import Persistence
import PostgresPersistence
import PostgresSupport
import Services
import TerminalUI

@main
struct ComicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comics", abstract: "Read comics in your terminal; offline by default.",
        subcommands: [Browse.self, Show.self, FavouritesCommand.self, Graph.self, ServeCommand<ComicsServed>.self],
        defaultSubcommand: Browse.self)

    /// Parses the command line, with `serve`'s options the environment
    /// gives (`COMICS_PORT=9000 comics serve`), and runs the command.
    static func main() async {
        await main(ServeCommand<ComicsServed>.variables.arguments())
    }
}

/// Where comics and favourites come from.
struct Sources: ParsableArguments {
    @Flag(help: "Read comics from https://xkcd.com instead of the offline catalog.")
    var live = false

    @Option(help: "Where favourites are kept (default: $XDG_DATA_HOME/oak-comics, else ~/.local/share/oak-comics).")
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "Keep favourites in PostgreSQL instead (default: $DATABASE_URL, if set), shared by every process that "
                + "names it.", valueName: "postgres://user[:password]@host[:port]/database"))
    var database: String?

    /// Where the favourites are kept.
    func place() throws -> StoragePlace {
        try StoragePlace(dataDir: dataDir, database: database, app: "oak-comics", keeping: "favourites")
    }

    func validate() throws {
        _ = try place()
    }

    /// Runs `body` with the features' live ports; the offline catalog's
    /// server runs meanwhile. With `readOnly`, a favourites file is opened
    /// for reading only (a read-only data directory works).
    func withEnv<R>(
        loadsImages: Bool = MainTerminalApp.showsImages, readOnly: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (Main.Env) async throws -> R
    ) async throws -> R {
        try await AppServices.with(logger: Logger(label: "oak.comics")) { services in
            try await body(try await env(loadsImages: loadsImages, readOnly: readOnly, services: &services))
        }
    }

    /// The features' live ports; what they use (the offline catalog's
    /// server, the database) is added to `services`, which close it.
    func env(
        loadsImages: Bool = MainTerminalApp.showsImages, readOnly: Bool = false, services: inout AppServices
    ) async throws -> Main.Env {
        var base = URL(string: "https://xkcd.com") ?? URL(fileURLWithPath: "/")
        if !live {
            let server = try await FixtureServer.start()
            services.closing("the offline catalog") { await server.stop() }
            base = URL(string: server.baseURL) ?? base
        }
        let store = try await favourites(readOnly: readOnly, services: &services)
        let comics = ComicsEnv.live(
            source: ComicsSource(base: base), favourites: store, loadsImages: loadsImages, cache: ComicsCache())
        return Main.Env(comics: comics, favourites: .live(store))
    }

    /// The favourites' store: the database's, or the data directory's file.
    /// A database that cannot be reached ends the program (the reason
    /// says what to check); a file that cannot be opened is reported by
    /// the features, which go on without favourites.
    private func favourites(
        readOnly: Bool, services: inout AppServices
    ) async throws -> Result<any FavouritesStorage, PersistenceError> {
        switch try place() {
        case .database(let location):
            let logger = Logger(label: "oak.comics.database")
            let database = try await StoragePlace.open(location, logger: logger)
            services.closing("the database") { await database.close() }
            do throws(PersistenceError) {
                return .success(try await PostgresFavourites.open(database, logger: logger))
            } catch {
                throw CommandError(error.description)
            }
        case .directory(let directory):
            // A parent that cannot be made is the store's to report.
            if dataDir == nil, !readOnly { try? StoragePlace.makeParent(of: directory, keeping: "favourites") }
            return Result { () throws(PersistenceError) -> any FavouritesStorage in
                readOnly ? try FavouritesStore(readingFrom: directory) : try FavouritesStore(directory: directory)
            }
        }
    }
}

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Browse comics (the default; ? lists the keys).")

    @OptionGroup var sources: Sources

    @MainActor func run() async throws {
        // Nothing may write on the screen the app draws on; the text
        // commands report their errors themselves.
        AppLogs.bootstrap(nil)
        try await sources.withEnv { env in
            if Terminal.isInteractive {
                do {
                    try await MainTerminalApp().run(env: env)
                } catch let error as TerminalError {
                    FileHandle.standardError.write(
                        Data("comics: \(error) Or use its text commands (`comics --help`).\n".utf8))
                    throw ExitCode(1)
                }
            } else {
                print(ComicsPlainView.describe(await ComicsPlainView.load(.latest, env: env.comics)))
            }
        }
    }
}

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one comic.")

    @Argument(help: "A comic number, or \"latest\".") var number = "latest"
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var sources: Sources

    func validate() throws {
        guard number == "latest" || Int(number).map(Comic.numbers.contains) == true else {
            throw ValidationError("\"\(number)\" is not a comic number: give a number from 1, or \"latest\".")
        }
    }

    func run() async throws {
        AppLogs.bootstrap(nil)
        let request: Comics.Request = Int(number).map { .number($0) } ?? .latest
        let result = try await sources.withEnv { await ComicsPlainView.load(request, env: $0.comics) }
        let text = json ? try ComicsPlainView.json(result) : ComicsPlainView.describe(result)
        if case .failure = result, !json {  // the error, as text, on standard error
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            print(text)
        }
        if case .failure = result { throw ExitCode(1) }
    }
}

struct FavouritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourites", abstract: "List, add or remove favourites.")

    @Argument(help: "list, add or remove.") var action = "list"
    @Argument(help: "The comic's number, for add and remove.") var number: Int?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var sources: Sources

    func run() async throws {
        AppLogs.bootstrap(nil)
        do {
            try await change()
        } catch let error as FavouritesError {
            // The user of this machine owns the files: where and why, in full.
            throw CommandError(error.detail ?? error.description)
        } catch let error as FavouritesUnavailable {
            throw CommandError(error.detail ?? error.description)
        }
    }

    private func change() async throws {
        // Listing only reads: it works on a read-only data directory.
        try await sources.withEnv(readOnly: action == "list") { env in
            switch (action, number) {
            case ("list", nil):
                let all = try await env.favourites.all()
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                let encoded = String(decoding: try encoder.encode(all), as: UTF8.self)
                print(
                    json
                        ? ComicsPlainView.escapingControlCharacters(encoded)
                        : all.map { "#\($0.number)  \($0.title.plainText)" }.joined(separator: "\n"))
            case ("add", let number?):
                _ = try await ComicsPlainView.addFavourite(number, env: env.comics)
            case ("remove", let number?):
                try await env.favourites.remove(number)
            default:
                throw ValidationError("Use: comics favourites list | add N | remove N")
            }
        }
    }
}

struct Graph: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the state diagram of the Comics feature (Mermaid, or Graphviz DOT).")

    @Flag(help: "Print Graphviz DOT instead of Mermaid.") var dot = false

    func run() async throws {
        // Explored from the transducer by the Comics feature's tests, which
        // keep this copy up to date: the program links no test library.
        print(dot ? ComicsDiagram.dot : ComicsDiagram.mermaid, terminator: "")
    }
}
