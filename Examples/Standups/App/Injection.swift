// The injector: builds the adapters (the SQLite store, or PostgreSQL with
// --database; the speech recogniser, the clock, the terminal's bell) and
// injects them into the features' ports, for the terminal and for the web.
// Each adapter that must be closed is added to the command's services,
// which close them in reverse order when it ends.

import AppCommands
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
import StandupsMain
import StandupsProvider
import StandupsStore
import StandupsWeb
import Synchronization
import TerminalUI

extension StoreOptions {
    /// The stand-ups' store: the database's, or the data directory's file.
    func open(services: inout AppServices) async throws -> Storage {
        let logger = Logger(label: "oak.standups.database")
        switch try await storage.open(services: &services, logger: logger) {
        case .directory(let directory):
            let store = StandupsStore(directory: directory)
            return Storage(standups: .live(store), checkpoints: .live(store), directory: directory, postgres: nil)
        case .database(let database):
            do throws(StoreFailure) {
                let store = try await PostgresStandups.open(database, logger: logger)
                // Meetings in progress are kept in the database too; the
                // process that holds a stand-up's claim resumes its meeting
                // (see the failover in `Injection.web`).
                return Storage(
                    standups: .postgres(store), checkpoints: .postgres(store), directory: nil,
                    postgres: (database, store))
            } catch {
                throw CommandError(error.detail)
            }
        }
    }
}

/// Where the stand-ups are kept, as the provider's port; the database, if
/// they are in PostgreSQL (the command's services close it).
struct Storage {
    var standups: StandupsProvider.Dependencies
    /// Where meetings in progress are kept while they run (resumed by the
    /// next process).
    var checkpoints: MeetingCheckpoints
    /// The data directory, if they are in its file.
    var directory: URL?
    /// The database and its adapter.
    var postgres: (database: PostgresAppDatabase, store: PostgresStandups)?
}

/// What the terminal app's store did not take before it ended.
final class Unsaved: Sendable {
    private let left = Mutex<[StandupChange]>([])

    var changes: [StandupChange] { left.withLock { $0 } }

    func set(_ changes: [StandupChange]) {
        left.withLock { $0 = changes }
    }

    /// Says what the store did not take, if anything: those changes are
    /// not saved.
    func check() throws(CommandError) {
        let changes = changes
        guard changes.isEmpty else {
            throw CommandError(
                "The store did not take these changes before the app ended; they are not saved:\n"
                    + changes.map { "  - \($0.summary)" }.joined(separator: "\n"))
        }
    }
}

enum Injection {
    /// The features' ports for the terminal app: its clock, recogniser
    /// (or a recorded meeting, `speech.audio`) and bell; what it does not write
    /// before it ends goes to `unsaved`.
    @MainActor
    static func terminal(
        _ options: StoreOptions, speech: SpeechOptions, terminal: Terminal, unsaved: Unsaved,
        services: inout AppServices
    ) async throws -> Main.Env {
        let storage = try await options.open(services: &services)
        let database = storage.postgres?.database
        let clock = options.speed.clock
        let speech = await LiveSpeech.client(audio: speech.audio, optedOut: speech.noSpeech, clock: clock)
        // On a database or a data directory that servers share, the
        // terminal app claims the meetings it runs too, and says where one
        // runs elsewhere.
        // The host's name is asked when a meeting is claimed, not at every
        // start (it may wait for a name server).
        let address: @Sendable () -> String = { "the terminal app on \(ProcessInfo.processInfo.hostName)" }
        var homes: PostgresMeetingHomes?
        if let database { homes = try? await PostgresMeetingHomes.open(database, address: address) }
        if let homes { services.closing("the meetings' claims") { await homes.close() } }
        let fileHomes = storage.directory.map { FileMeetingHomes(directory: $0, address: address) }
        if let fileHomes { services.closing("the meetings' claims") { fileHomes.close() } }
        let env = Main.Env(
            standups: storage.standups,
            detail: StandupDetail.Env(speech: speech),
            meeting: RecordMeeting.Env(
                clock: clock, speech: speech,
                sound: SoundPlayer { await MainActor.run { terminal.ring() } },
                now: { Date() }, uuid: { UUID() }),
            checkpoints: storage.checkpoints, homes: homes?.port ?? fileHomes?.port ?? .here)
        // What the store has not taken when the app ends (a write in flight
        // is given a second).
        services.closing("the stand-ups' provider") {
            unsaved.set(await env.standups.close(waitingAtMost: .seconds(1)))
        }
        // A meeting in progress is kept (its last checkpoint) for the next
        // start.
        services.closing("the meetings") { await env.meetings.stop() }
        // The meetings that were in progress when the app last stopped go
        // on (or are saved, when their time ran out meanwhile). On a
        // database servers share, the servers resume them: their viewers
        // can reach a server, not a terminal.
        if database == nil { _ = try? await env.meetings.resume(now: Date()) }
        return env
    }

    /// Opened in order, stopped in reverse when the server has stopped: the
    /// meetings write their last checkpoints, the provider writes what is
    /// left, then the claims and the storage close.
    static func web(_ options: ServeAppOptions, services: inout AppServices) async throws -> StandupsWeb {
        let logger = Logger(label: "oak.standups.web")
        let storage = try await options.store.open(services: &services)
        let database = storage.postgres?.database
        // A meeting hears its viewers' browsers: whoever turns on their
        // microphone first holds the meeting's floor. The server's own
        // sound card plays nothing: each page plays its tones.
        let microphones = RemoteMicrophones()
        let clock = options.store.speed.clock
        let noSpeech = options.noSpeech
        let recordings = RecordingLimit(options.maxRecordings)
        let speech: @Sendable (UUID) -> SpeechClient = { standupID in
            noSpeech
                ? .unavailable(.denied) : .live(microphones: microphones, meeting: standupID, recordings: recordings)
        }
        // With several processes on one database or data directory, each
        // stand-up's meetings run in the process that claimed them; the
        // others send their viewers to its public address (`--public-url`),
        // else the one it serves on.
        let address = services.address
        var homes: PostgresMeetingHomes?
        if let database {
            do {
                homes = try await PostgresMeetingHomes.open(database, address: { address.value ?? "" })
            } catch {
                throw CommandError("\(error)")
            }
        }
        if let homes { services.closing("the meetings' claims") { await homes.close() } }
        let fileHomes = storage.directory.map { FileMeetingHomes(directory: $0, address: { address.value ?? "" }) }
        if let fileHomes { services.closing("the meetings' claims") { fileHomes.close() } }
        let env = Main.Env(
            standups: storage.standups,
            detail: StandupDetail.Env(speech: speech(UUID())),
            meetings: { standupID in
                RecordMeeting.Env(
                    clock: clock, speech: speech(standupID), sound: .silent, now: { Date() }, uuid: { UUID() })
            }, checkpoints: storage.checkpoints, homes: homes?.port ?? fileHomes?.port ?? .here)
        // Every change is durable before the storage closes, within 3
        // seconds: a store that does not answer does not keep the process
        // from exiting. What it did not take is in the log.
        services.closing("the stand-ups' provider", within: .seconds(3)) {
            report(await env.standups.close(waitingAtMost: .milliseconds(2_500)), to: logger)
        }
        // Each meeting in progress writes its last checkpoint; the next
        // process resumes it (from the one before, if this one is late).
        services.closing("the meetings (each writes its last checkpoint)", within: .seconds(2)) {
            await env.meetings.stop()
        }
        // The meetings that were in progress when the server last stopped
        // go on (or are saved, when their time ran out meanwhile).
        do throws(StoreFailure) {
            try await env.meetings.resume(now: Date())
        } catch {
            logger.error(
                "The meetings in progress could not be read; none was resumed.", metadata: ["reason": "\(error)"])
        }
        // Failover: with several processes on one database, a meeting whose
        // process died (its claim went with its connection) is resumed by
        // the first live process to look, from its last checkpoint.
        if database != nil {
            services.running("failover") {
                while (try? await Task.sleep(for: .seconds(2))) != nil {
                    _ = try? await env.meetings.resume(now: Date())
                }
            }
        }
        return StandupsWeb(env: env, microphones: microphones, homes: homes?.port ?? fileHomes?.port ?? .here)
    }

    /// Logs what the store did not take before the stop, change by change.
    static func report(_ unsaved: [StandupChange], to logger: Logger) {
        for change in unsaved {
            logger.error(
                "Not saved: the store did not take this change before the stop; make it again.",
                metadata: ["change": "\(change.summary)"])
        }
    }
}
