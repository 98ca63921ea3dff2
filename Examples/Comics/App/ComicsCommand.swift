// The shell: the program's commands and options, and the terminal front
// end. What they run with is built by the injector (Injection.swift); the
// text commands are in TextCommands.swift. No feature logic lives here.

import AppCommands
import ArgumentParser
import ComicsScene
import Foundation
import MainScene
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
