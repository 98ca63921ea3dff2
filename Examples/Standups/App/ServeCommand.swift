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

struct Serve: AsyncParsableCommand {
    /// The variables that give its options: `STANDUPS_PORT`, and one for
    /// each of its own.
    static let variables = ServeVariables(
        prefix: "STANDUPS_",
        adding: [
            EnvironmentOption("no-speech", .flag), EnvironmentOption("max-recordings"),
            EnvironmentOption("public-url"), EnvironmentOption("data-dir"), EnvironmentOption("database"),
            EnvironmentOption("speed"),
        ])
    static let configuration = variables.configuration

    @OptionGroup var server: ServeOptions
    @Flag(help: "Do not record meetings (no recogniser runs, pages offer no microphone).")
    var noSpeech = false
    @Option(help: "The most meetings recorded at once (each recogniser holds about 100 MB while someone speaks).")
    var maxRecordings = 16
    @Option(
        help: ArgumentHelp(
            "The address other processes of the app send this one's meeting viewers to, with --database "
                + "(default: the address it serves on).", valueName: "http(s)://host[:port]"))
    var publicURL: String?
    @OptionGroup var options: StoreOptions

    func validate() throws {
        guard maxRecordings > 0 else { throw ValidationError("--max-recordings takes a number from 1.") }
        if let publicURL {
            guard let url = URL(string: publicURL), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw ValidationError("--public-url takes an http(s) address, such as http://10.0.0.2:8080.") }
        }
    }

    func run() async throws {
        AppLogs.bootstrap(.info)
        ProcessLimits.allowMostOpenFiles()
        let storage = try await options.storage()
        // A meeting hears its viewers' browsers: whoever turns on their
        // microphone first holds the meeting's floor. The server's own
        // sound card plays nothing: each page plays its tones.
        let microphones = RemoteMicrophones()
        let clock = options.clock
        let noSpeech = self.noSpeech
        let recordings = RecordingLimit(maxRecordings)
        let speech: @Sendable (UUID) -> SpeechClient = { standupID in
            noSpeech
                ? .unavailable(.denied) : .live(microphones: microphones, meeting: standupID, recordings: recordings)
        }
        // With several processes on one database, each stand-up's meetings
        // run in the process that claimed them; the others send their
        // viewers there.
        let address = Mutex(publicURL ?? "")
        let homes: PostgresMeetingHomes?
        if let database = storage.postgres?.database {
            do {
                homes = try await PostgresMeetingHomes.open(database, address: { address.withLock { $0 } })
            } catch {
                await storage.close()
                throw CommandError("\(error)")
            }
        } else {
            homes = nil
        }
        let env = AppFeature.Env(
            standups: storage.standups,
            detail: StandupDetail.Env(speech: speech(UUID())),
            meetings: { standupID in
                RecordMeeting.Env(
                    clock: clock, speech: speech(standupID), sound: .silent, now: { Date() }, uuid: { UUID() })
            }, checkpoints: storage.checkpoints, homes: homes?.port ?? .here)
        // The meetings that were in progress when the server last stopped
        // go on (or are saved, when their time ran out meanwhile).
        do throws(StoreFailure) {
            try await env.meetings.resume(now: Date())
        } catch {
            Logger(label: "oak.standups.web").error(
                "The meetings in progress could not be read; none was resumed.", metadata: ["reason": "\(error)"])
        }
        let host: WebHost<StandupsWeb>
        do {
            host = try await WebHost.start(
                app: StandupsWeb(env: env, microphones: microphones, homes: homes?.port ?? .here), port: server.port,
                limits: server.limits,
                // The public address's name is one the server is reached by.
                allowedHosts: AllowedHosts(
                    server.allowedHosts + [publicURL.flatMap { URL(string: $0)?.host }].compactMap { $0 }),
                logger: Logger(label: "oak.standups.web"))
        } catch {
            await env.meetings.stop()
            await env.standups.close(waitingAtMost: .seconds(2))
            await homes?.close()
            await storage.close()
            throw error
        }
        address.withLock { if $0.isEmpty { $0 = host.baseURL } }
        // Failover: with several processes on one database, a meeting whose
        // process died (its claim went with its connection) is resumed by
        // the first live process to look, from its last checkpoint.
        let failover: Task<Void, Never>? =
            storage.postgres == nil
            ? nil
            : Task {
                while !Task.isCancelled {
                    guard (try? await Task.sleep(for: .seconds(2))) != nil else { return }
                    _ = try? await env.meetings.resume(now: Date())
                }
            }
        // SIGTERM (a deploy) and Ctrl-C stop it gracefully, from the moment
        // its address is printed: the sessions end, the meetings write their
        // last checkpoints, the stand-ups' provider writes what is left, then
        // the claims and the storage close; the process exits 0.
        do {
            try await host.serve {
                // Written at once, not buffered: a script waits for this line.
                FileHandle.standardOutput.write(Data("Oak Standups: \(host.baseURL)/  (Ctrl-C stops)\n".utf8))
            }
        } catch {
            failover?.cancel()
            await env.meetings.stop()
            await env.standups.close(waitingAtMost: .seconds(2))
            await homes?.close()
            await storage.close()
            throw error
        }
        failover?.cancel()
        await failover?.value
        // Each meeting in progress writes its last checkpoint (the next
        // process resumes it), and every change is durable, before the
        // storage closes — within 5 seconds: a store that does not answer
        // does not keep the process from exiting. What it did not take is
        // in the log, change by change (a meeting's checkpoint stays: the
        // next process saves it).
        let logger = Logger(label: "oak.standups.web")
        if await within(.seconds(2), { await env.meetings.stop() }) == nil {
            logger.error(
                """
                The meetings' last checkpoints could not be written within 2 seconds of the stop; \
                the next process resumes each from the one written before.
                """)
        }
        let unsaved = await within(.seconds(3)) { await env.standups.close(waitingAtMost: .milliseconds(2_500)) }
        Self.report(unsaved, to: logger)
        await homes?.close()
        await storage.close()
    }

    /// Logs what the store did not take before the stop: each change, or
    /// (`nil`) that the provider did not answer.
    static func report(_ unsaved: [StandupChange]?, to logger: Logger) {
        guard let unsaved else {
            logger.error("The stand-ups' provider did not end within 3 seconds of the stop; exiting anyway.")
            return
        }
        for change in unsaved {
            logger.error(
                "Not saved: the store did not take this change before the stop; make it again.",
                metadata: ["change": "\(change.summary)"])
        }
    }
}
