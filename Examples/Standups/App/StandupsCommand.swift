// The injector: parses options, builds the adapters (the SQLite store, or
// PostgreSQL with --database; the speech recogniser, the clock, the terminal's bell), injects them into the
// features' ports and starts a front end: the terminal (the default) or the
// web host (`standups serve`). No feature logic lives here.

import AppCommands
import AppFeature
import ArgumentParser
import Common
import Devices
import Foundation
import LiveProviders
import Logging
import Models
import PostgresStandups
import PostgresSupport
import RecordMeeting
import SpeechRecognizer
import StandupDetail
import StandupsProvider
import StandupsStore
import StandupsTerminal
import Synchronization
import TerminalUI

@main
struct StandupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standups",
        abstract: "Run your daily stand-up meetings: a timer per speaker and a live transcript.",
        // The everyday options, which belong to the default command and
        // which the root's help would not show (a test keeps the list
        // whole).
        discussion: """
            With no subcommand, standups runs in your terminal (standups meet):
              --data-dir <dir>   Where the stand-ups are kept
                                 (default: ~/.local/share/oak-standups).
              --database <url>   Keep them in PostgreSQL instead.
              --audio <file>     Transcribe a recorded meeting (a WAV file).
              --no-speech        Do not recognise speech.
              --speed <factor>   Run meetings faster (a demo: 60).
            standups serve --port 8080 serves the app to browsers.
            """,
        subcommands: [Meet.self, ServeCommand<StandupsServed>.self], defaultSubcommand: Meet.self)

    /// Parses the command line, with `serve`'s options the environment
    /// gives (`STANDUPS_PORT=9000 standups serve`), and runs the command.
    static func main() async {
        await main(ServeCommand<StandupsServed>.variables.arguments())
    }
}

/// Where the stand-ups are kept, and how fast meetings run.
struct StoreOptions: ParsableArguments {
    @Option(
        help: "Where the stand-ups are kept (default: $XDG_DATA_HOME/oak-standups, else ~/.local/share/oak-standups).")
    var dataDir: String?

    // Parsed unconditionally: `--speed -1` is a value to refuse with the
    // range, not an option that takes the place of the value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many times as fast as real time meetings run (a demo: 60 makes a minute pass in a second).",
            valueName: "factor"))
    var speed: Double = 1

    @Option(
        help: ArgumentHelp(
            "Keep the stand-ups in PostgreSQL instead (default: $DATABASE_URL, if set), shared by every process "
                + "that names it.", valueName: "postgres://user[:password]@host[:port]/database"))
    var database: String?

    func validate() throws {
        guard speed.isFinite, speed >= 1, speed <= 600 else {
            throw ValidationError("--speed takes a factor from 1 (real time) to 600; \(speed) is not one.")
        }
        _ = try place()
    }

    /// Where the stand-ups are kept.
    func place() throws -> StoragePlace {
        try StoragePlace(dataDir: dataDir, database: database, app: "oak-standups", keeping: "stand-ups")
    }

    /// The stand-ups' store: the database's, or the data directory's file.
    func storage() async throws -> Storage {
        switch try place() {
        case .directory(let directory):
            if dataDir == nil { try StoragePlace.makeParent(of: directory, keeping: "stand-ups") }
            let store = StandupsStore(directory: directory)
            return Storage(standups: .live(store), checkpoints: .live(store), postgres: nil)
        case .database(let location):
            let logger = Logger(label: "oak.standups.database")
            let database = try await StoragePlace.open(location, logger: logger)
            do throws(StoreFailure) {
                let store = try await PostgresStandups.open(database, logger: logger)
                // Meetings in progress are kept in the database too; the
                // process that holds a stand-up's claim resumes its meeting
                // (see ServeCommand's failover).
                return Storage(
                    standups: .postgres(store), checkpoints: .postgres(store), postgres: (database, store))
            } catch {
                await database.close()
                throw CommandError(error.detail)
            }
        }
    }

    /// The meetings' clock.
    var clock: ScaledClock<ContinuousClock> { ScaledClock(base: ContinuousClock(), factor: speed) }
}

/// Where the stand-ups are kept, as the provider's port; the database to
/// close at the end, if they are in PostgreSQL.
struct Storage {
    var standups: StandupsProvider.Dependencies
    /// Where meetings in progress are kept while they run (resumed by the
    /// next process).
    var checkpoints: MeetingCheckpoints
    /// The database to close at the end.
    var postgres: (database: PostgresAppDatabase, store: PostgresStandups)?
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
        let unsaved = Mutex<[StandupChange]>([])
        // Closed in reverse order when the app ends, however it ends.
        try await AppServices.with(logger: Logger(label: "oak.standups")) { services in
            let storage = try await options.storage()
            let database = storage.postgres?.database
            services.closing("the storage") { await database?.close() }
            let clock = options.clock
            let terminal = Terminal()
            let speech = await LiveSpeech.client(audio: audio, optedOut: noSpeech, clock: clock)
            // On a database that servers share, the terminal app claims the
            // meetings it runs too, and says where one runs elsewhere.
            var homes: PostgresMeetingHomes?
            if let database {
                let host = ProcessInfo.processInfo.hostName
                homes = try? await PostgresMeetingHomes.open(database, address: { "the terminal app on \(host)" })
            }
            if let homes { services.closing("the meetings' claims") { await homes.close() } }
            let env = AppFeature.Env(
                standups: storage.standups,
                detail: StandupDetail.Env(speech: speech),
                meeting: RecordMeeting.Env(
                    clock: clock, speech: speech,
                    sound: SoundPlayer { await MainActor.run { terminal.ring() } },
                    now: { Date() }, uuid: { UUID() }),
                checkpoints: storage.checkpoints, homes: homes?.port ?? .here)
            // The app itself waits for every change to be durable before it
            // quits ("Saving before quitting…"), unless its user quits at
            // once: what the store has not taken then (a write in flight is
            // given a second) is said below.
            services.closing("the stand-ups' provider") {
                let left = await env.standups.close(waitingAtMost: .seconds(1))
                unsaved.withLock { $0 = left }
            }
            // A meeting in progress is kept (its last checkpoint) for the
            // next start.
            services.closing("the meetings") { await env.meetings.stop() }
            // The meetings that were in progress when the app last stopped
            // go on (or are saved, when their time ran out meanwhile). On a
            // database servers share, the servers resume them: their viewers
            // can reach a server, not a terminal.
            if database == nil { _ = try? await env.meetings.resume(now: Date()) }
            do {
                try await StandupsTerminalApp(terminal: terminal).run(env: env)
            } catch let error as TerminalError {
                throw CommandError("\(error) Or run `standups serve` and use the app in a browser.")
            }
        }
        let left = unsaved.withLock { $0 }
        guard left.isEmpty else {
            throw CommandError(
                "The store did not take these changes before the app ended; they are not saved:\n"
                    + left.map { "  - \($0.summary)" }.joined(separator: "\n"))
        }
    }
}
