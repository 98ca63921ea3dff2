// The program: the shell around the feature. `__name__` runs the list in
// the terminal; `__name__ serve` serves it to browsers (every option also
// from the environment: __NAME___PORT, __NAME___DATA_DIR…). Options and
// injection only: the rules are in the feature, the looks in the views.

import AppCommands
import ArgumentParser
import Common
import Foundation
import TerminalUI
import __Name__Feature
import __Name__Store
import __Name__Views

@main
struct __Name__Command: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "__name__", abstract: "Keep a list of items, in your terminal or in a browser.",
        subcommands: [Run.self, ServeCommand<__Name__Served>.self], defaultSubcommand: Run.self)

    /// Parses the command line, with `serve`'s options the environment
    /// gives, and runs the command.
    static func main() async {
        await main(ServeCommand<__Name__Served>.variables.arguments())
    }
}

/// Where the items are kept.
struct StorageOptions: ParsableArguments {
    @Option(help: "Where the items are kept (default: $XDG_DATA_HOME/oak-__name__, else ~/.local/share/oak-__name__).")
    var dataDir: String?

    /// The feature's port, over the store in the data directory.
    func port() throws -> ItemList.Env {
        let directory = DataDirectory.resolve(
            named: "oak-__name__", override: dataDir, environment: ProcessInfo.processInfo.environment)
        if dataDir == nil { try StoragePlace.makeParent(of: directory, keeping: "items") }
        do {
            return try ItemStore(directory: directory).port
        } catch {
            throw CommandError(error.description)
        }
    }
}

/// `__name__`: the list in the terminal.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Keep the list in your terminal (the default).")

    @OptionGroup var storage: StorageOptions
    @OptionGroup var inspect: InspectOption

    @MainActor func run() async throws {
        // Nothing may write on the screen the app draws on.
        AppLogs.bootstrap(nil)
        let env = try storage.port()
        // With --inspect, oak-inspector shows what the feature does.
        try await inspect.run(app: "__name__") {
            do {
                try await TerminalFrontEnd().run(
                    ItemList.self, initialState: ItemList.State(), env: env, start: { await $0.proxy.send(.start) },
                    isSettled: { !$0.isLoading && !$0.isSaving }
                ) { state, host, context in
                    ItemListTerminalView.screen(state, host: host, context: context)
                }
            } catch let error as TerminalError {
                throw CommandError("\(error) Or run `__name__ serve` and keep the list in a browser.")
            }
        }
    }
}

/// What `__name__ serve` serves.
enum __Name__Served: ServedApp {
    static let variablePrefix = "__NAME___"
    static let variables = [EnvironmentOption("data-dir")]

    static func web(_ storage: StorageOptions, services: inout AppServices) async throws -> __Name__Web {
        __Name__Web(env: try storage.port())
    }
}
