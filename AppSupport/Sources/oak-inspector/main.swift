// `oak-inspector`: watch running Oak apps in a browser. Serves on 127.0.0.1
// only, prints the page's address (with the token that guards it) and
// writes where it listens to a file of the user's own, where apps started
// with `--inspect` find it.

import AppCommands
import ArgumentParser
import Foundation
import InspectorServer
import Logging
import OakInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct OakInspectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oak-inspector",
        abstract: "Watch running Oak apps' transducers in a browser: their runs, states and steps.",
        discussion: """
            Start it, open the address it prints, then start an app with --inspect \
            (swift run --package-path Examples/Comics comics --inspect). \
            `oak-inspector open FILE` shows a run a failing test recorded.
            """,
        subcommands: [Watch.self, Open.self],
        defaultSubcommand: Watch.self)

    /// Serves the page on 127.0.0.1:`port` until stopped; `prepare` runs
    /// once it serves and returns what to print.
    static func serve(
        port: Int, logger: Logger, _ prepare: (InspectorServer, inout AppServices) async throws -> String
    ) async throws {
        try await AppServices.run(logger: logger) { services in
            let server: InspectorServer
            do {
                server = try await InspectorServer.start(port: port, logger: logger)
            } catch {
                throw CommandError(
                    "Could not serve on 127.0.0.1:\(port) (\(error)). Is another inspector running? "
                        + "Pass --port 0 for any free port.")
            }
            services.closing("the server") { await server.stop() }
            let announcement = try await prepare(server, &services)
            FileHandle.standardOutput.write(Data(announcement.utf8))
        }
    }

    static var logger: Logger {
        var logger = Logger(label: "oak.inspector")
        logger.logLevel = .notice
        return logger
    }

    static func validate(port: Int) throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535; \(port) is not one.") }
    }
}

/// `oak-inspector [watch]`: the page, for apps started with `--inspect`.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the page and wait for apps started with --inspect (what oak-inspector does by default).")

    @Option(help: "The port to serve on, on 127.0.0.1 (0: any free one).")
    var port = 7700

    func validate() throws { try OakInspectorCommand.validate(port: port) }

    func run() async throws {
        let logger = OakInspectorCommand.logger
        try await OakInspectorCommand.serve(port: port, logger: logger) { server, services in
            let file = InspectorEndpoint.file()
            do {
                try OakInspectorCommand.write(server.endpoint, to: file)
            } catch {
                logger.warning(
                    "Apps will not find this inspector by themselves; give them --inspect \(server.endpoint).",
                    metadata: ["file": "\(file.path)", "reason": "\(error)"])
            }
            services.closing("the endpoint file") { OakInspectorCommand.remove(file, ifItHolds: server.endpoint) }
            return """
                Oak Inspector: open \(server.pageURL)
                Apps started with --inspect find it (or give them --inspect \(server.endpoint)).
                Stop it with Ctrl-C.

                """
        }
    }
}

/// `oak-inspector open FILE`: a recording (a failing test's run), shown at
/// the step where the test failed.
struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a recorded run (a failing OakTesting test names its file) at the step where it failed.")

    @Argument(help: "The recording: the file a failing test's message names.")
    var file: String

    @Option(help: "The port to serve on, on 127.0.0.1 (0: any free one).")
    var port = 0

    func validate() throws { try OakInspectorCommand.validate(port: port) }

    func run() async throws {
        let recording: InspectorRecording
        do {
            recording = try InspectorRecording.read(from: URL(filePath: file))
        } catch {
            throw CommandError(error.description)
        }
        try await OakInspectorCommand.serve(port: port, logger: OakInspectorCommand.logger) { server, _ in
            let app = await server.hub.load(recording)
            let place = recording.failure.map { "#\(app)/\($0.run)/\($0.step)" } ?? ""
            return """
                Oak Inspector: open \(server.pageURL)\(place)
                to see \(recording.title). Stop it with Ctrl-C.

                """
        }
    }
}

extension OakInspectorCommand {
    /// Writes `endpoint` to `file`, readable by this user only.
    static func write(_ endpoint: String, to file: URL) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".endpoint-\(getpid())")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data((endpoint + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission) }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }

    /// Removes `file` if it still names this inspector (another may have
    /// started since).
    static func remove(_ file: URL, ifItHolds endpoint: String) {
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines) == endpoint
        else { return }
        try? FileManager.default.removeItem(at: file)
    }
}
