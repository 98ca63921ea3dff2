// `standups serve`: the same features, hosted per browser session by the
// web front end (StandupsWeb), over the same store as the terminal app.
// Options and injection only.

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
import StandupDetail
import StandupsProvider
import StandupsWeb
import Synchronization
import WebHost

/// What `standups serve` serves: the options `STANDUPS_PORT`,
/// `STANDUPS_NO_SPEECH`… may give too.
enum StandupsServed: ServedApp {
    static let variablePrefix = "STANDUPS_"
    static let variables = [
        EnvironmentOption("no-speech", .flag), EnvironmentOption("max-recordings"), EnvironmentOption("public-url"),
        EnvironmentOption("data-dir"), EnvironmentOption("database"), EnvironmentOption("speed"),
    ]

    /// The public address's name is one the server is reached by.
    static func allowedHosts(_ options: ServeAppOptions) -> [String] {
        [options.publicURL.flatMap { URL(string: $0)?.host }].compactMap { $0 }
    }

    /// Opened in order, stopped in reverse when the server has stopped: the
    /// meetings write their last checkpoints, the provider writes what is
    /// left, then the claims and the storage close.
    static func web(_ options: ServeAppOptions, services: inout AppServices) async throws -> StandupsWeb {
        let logger = Logger(label: "oak.standups.web")
        let storage = try await options.store.storage()
        let database = storage.postgres?.database
        services.closing("the storage") { await database?.close() }
        // A meeting hears its viewers' browsers: whoever turns on their
        // microphone first holds the meeting's floor. The server's own
        // sound card plays nothing: each page plays its tones.
        let microphones = RemoteMicrophones()
        let clock = options.store.clock
        let noSpeech = options.noSpeech
        let recordings = RecordingLimit(options.maxRecordings)
        let speech: @Sendable (UUID) -> SpeechClient = { standupID in
            noSpeech
                ? .unavailable(.denied) : .live(microphones: microphones, meeting: standupID, recordings: recordings)
        }
        // With several processes on one database, each stand-up's meetings
        // run in the process that claimed them; the others send their
        // viewers to its public address, else the one it serves on.
        let address = Address(options.publicURL ?? "")
        services.whenServing { address.setIfEmpty($0) }
        var homes: PostgresMeetingHomes?
        if let database {
            do {
                homes = try await PostgresMeetingHomes.open(database, address: { address.value })
            } catch {
                throw CommandError("\(error)")
            }
        }
        if let homes { services.closing("the meetings' claims") { await homes.close() } }
        let env = AppFeature.Env(
            standups: storage.standups,
            detail: StandupDetail.Env(speech: speech(UUID())),
            meetings: { standupID in
                RecordMeeting.Env(
                    clock: clock, speech: speech(standupID), sound: .silent, now: { Date() }, uuid: { UUID() })
            }, checkpoints: storage.checkpoints, homes: homes?.port ?? .here)
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
        return StandupsWeb(env: env, microphones: microphones, homes: homes?.port ?? .here)
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

/// `serve`'s own options, and where the stand-ups are kept.
struct ServeAppOptions: ParsableArguments {
    @Flag(help: "Do not record meetings (no recogniser runs, pages offer no microphone).")
    var noSpeech = false
    @Option(help: "The most meetings recorded at once (each recogniser holds about 100 MB while someone speaks).")
    var maxRecordings = 16
    @Option(
        help: ArgumentHelp(
            "The address other processes of the app send this one's meeting viewers to, with --database "
                + "(default: the address it serves on).", valueName: "http(s)://host[:port]"))
    var publicURL: String?
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard maxRecordings > 0 else { throw ValidationError("--max-recordings takes a number from 1.") }
        if let publicURL {
            guard let url = URL(string: publicURL), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw ValidationError("--public-url takes an http(s) address, such as http://10.0.0.2:8080.") }
        }
    }
}

/// The address other processes send this one's meeting viewers to: the
/// public one given, else the one it serves on, known once it listens.
private final class Address: Sendable {
    private let address: Mutex<String>

    init(_ address: String) {
        self.address = Mutex(address)
    }

    var value: String { address.withLock { $0 } }

    func setIfEmpty(_ address: String) {
        self.address.withLock { if $0.isEmpty { $0 = address } }
    }
}
