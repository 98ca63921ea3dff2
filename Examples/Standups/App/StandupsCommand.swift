// The shell: the commands, their options and the terminal front end (the
// default; `serve` is in ServeCommand.swift, what they run with in Injection.swift).

import AppCommands
import ArgumentParser
import Logging
import StandupsTerminal
import TerminalUI

@main
struct StandupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standups",
        abstract: "Run your daily stand-up meetings: a timer per speaker and a live transcript.",
        // The default command's everyday options, which the root's help would hide.
        discussion: Meet.optionsText(
            intro: "With no subcommand, standups runs in your terminal (standups meet):",
            outro: "standups serve --port 8080 serves the app to browsers."),
        subcommands: [Meet.self, ServeCommand<StandupsServed>.self], defaultSubcommand: Meet.self)

    /// Runs the command; `serve`'s options may come from the environment too.
    static func main() async {
        await main(ServeCommand<StandupsServed>.variables.arguments())
    }
}

/// Where the stand-ups are kept, and how fast meetings run.
struct StoreOptions: ParsableArguments {
    @OptionGroup var storage: StorageOptions<StandupsCommand>
    @OptionGroup var speed: SpeedOption
}

extension StandupsCommand: StorageNaming {
    static let dataFolder = "oak-standups"
    static let kept = "stand-ups"
}

struct Meet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meet", abstract: "Run the app in your terminal (the default).")

    @OptionGroup var options: StoreOptions
    @OptionGroup var speech: SpeechOptions
    @OptionGroup var inspect: InspectOption

    @MainActor func run() async throws {
        // Nothing may write on the screen the app draws on.
        AppLogs.bootstrap(nil)
        guard Terminal.isInteractive else {
            throw CommandError("standups is a full-screen program: run it in a terminal (or use `standups serve`).")
        }
        let (terminal, unsaved) = (Terminal(), Unsaved())
        // The services close in reverse order when the app ends, however it ends.
        try await inspect.run(app: "standups") {
            try await AppServices.with(logger: Logger(label: "oak.standups")) { services in
                let env = try await Injection.terminal(
                    options, speech: speech, terminal: terminal, unsaved: unsaved, services: &services)
                do {
                    try await MainTerminalApp(terminal: terminal).run(env: env)
                } catch let error as TerminalError {
                    throw CommandError("\(error) Or run `standups serve` and use the app in a browser.")
                }
            }
        }
        // The app waits for every change to be durable before it quits,
        // unless its user quits at once: then the program ends with 1.
        try unsaved.check()
    }
}
