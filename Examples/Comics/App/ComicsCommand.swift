// The shell: the program's commands and options, and the terminal front
// end. What they run with is built by the injector (Injection.swift); the
// text commands are in TextCommands.swift. No feature logic lives here.

import AppCommands
import ArgumentParser
import ComicsFeature
import ComicsMain
import ComicsTerminal
import Foundation
import TerminalUI

@main
struct ComicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comics", abstract: "Read comics in your terminal; offline by default.",
        // The default command's options, which the root's help would not show.
        discussion: Browse.optionsText(
            intro: "With no subcommand, comics runs in your terminal (comics browse):",
            outro: "comics serve --port 8080 serves the app to browsers."),
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

    @OptionGroup var storage: StorageOptions<ComicsCommand>
}

extension ComicsCommand: StorageNaming {
    static let dataFolder = "oak-comics"
    static let kept = "favourites"
}

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Browse comics (the default; ? lists the keys).")

    @OptionGroup var sources: Sources
    @OptionGroup var inspect: InspectOption

    @MainActor func run() async throws {
        // Nothing may write on the screen the app draws on; the text
        // commands report their errors themselves.
        AppLogs.bootstrap(nil)
        try await inspect.run(app: "comics", diagrams: Inspection.diagrams) { try await browse() }
    }

    @MainActor private func browse() async throws {
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
