// The shell: the program's commands and options, and the terminal front
// end (the default; `standups serve` is in ServeCommand.swift). What they
// run with is built by the injector (Injection.swift). No feature logic
// lives here.

import AppCommands
import ArgumentParser
import Common
import Foundation
import Logging
import SpeechRecognizer
import StandupsTerminal
import TerminalUI

@main
struct StandupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standups",
        abstract: "Run your daily stand-up meetings: a timer per speaker and a live transcript.",
        // The everyday options are the default command's, which the
        // root's help would not show (a test keeps the list whole).
        discussion: Meet.optionsText(
            intro: "With no subcommand, standups runs in your terminal (standups meet):",
            outro: "standups serve --port 8080 serves the app to browsers."),
        subcommands: [Meet.self, ServeCommand<StandupsServed>.self], defaultSubcommand: Meet.self)

    /// Parses the command line, with `serve`'s options the environment
    /// gives (`STANDUPS_PORT=9000 standups serve`), and runs the command.
    static func main() async {
        await main(ServeCommand<StandupsServed>.variables.arguments())
    }
}

/// Where the stand-ups are kept, and how fast meetings run.
struct StoreOptions: ParsableArguments {
    @OptionGroup var storage: StorageOptions<StandupsCommand>

    // Parsed unconditionally: `--speed -1` is a value to refuse with the
    // range, not an option that takes the place of the value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many times as fast as real time meetings run (a demo: 60 makes a minute pass in a second).",
            valueName: "factor"))
    var speed: Double = 1

    func validate() throws {
        guard speed.isFinite, speed >= 1, speed <= 600 else {
            throw ValidationError("--speed takes a factor from 1 (real time) to 600; \(speed) is not one.")
        }
    }

    /// The meetings' clock.
    var clock: ScaledClock<ContinuousClock> { ScaledClock(base: ContinuousClock(), factor: speed) }
}

extension StandupsCommand: StorageNaming {
    static let dataFolder = "oak-standups"
    static let kept = "stand-ups"
}

struct Meet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meet", abstract: "Run the app in your terminal (the default).")

    @OptionGroup var options: StoreOptions

    @Option(
        help: ArgumentHelp(
            "A recorded meeting to transcribe instead of the microphone (a WAV file).",
            valueName: "file"))
    var audio: String?

    @Flag(help: "Do not recognise speech: meetings are not recorded.")
    var noSpeech = false

    func validate() throws {
        if let audio {
            do {
                _ = try WAVAudio(contentsOf: URL(fileURLWithPath: audio))
            } catch {
                throw ValidationError("--audio: \(error)")
            }
        }
    }

    @MainActor func run() async throws {
        // Nothing may write on the screen the app draws on.
        AppLogs.bootstrap(nil)
        guard Terminal.isInteractive else {
            throw CommandError("standups is a full-screen program: run it in a terminal (or use `standups serve`).")
        }
        let terminal = Terminal()
        let unsaved = Unsaved()
        // Closed in reverse order when the app ends, however it ends.
        try await AppServices.with(logger: Logger(label: "oak.standups")) { services in
            let env = try await Injection.terminal(
                options, audio: audio, noSpeech: noSpeech, terminal: terminal, unsaved: unsaved, services: &services)
            do {
                try await StandupsTerminalApp(terminal: terminal).run(env: env)
            } catch let error as TerminalError {
                throw CommandError("\(error) Or run `standups serve` and use the app in a browser.")
            }
        }
        // The app itself waits for every change to be durable before it
        // quits ("Saving before quitting…"), unless its user quits at once:
        // what the store has not taken then is said, and the program ends
        // with 1.
        guard unsaved.changes.isEmpty else {
            throw CommandError(
                "The store did not take these changes before the app ended; they are not saved:\n"
                    + unsaved.changes.map { "  - \($0.summary)" }.joined(separator: "\n"))
        }
    }
}
