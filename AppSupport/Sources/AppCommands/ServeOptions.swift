// The options every app's `serve` command takes, validated once: the port,
// the sessions' limits and the host names the server answers for.

import ArgumentParser
import Foundation
import Logging
import OakInspector
import WebHost

/// The options of a web server: `@OptionGroup var server: ServeOptions`.
public struct ServeOptions: ParsableArguments {
    // The numbers are parsed unconditionally: `--port -1` is a value to
    // refuse with its range, not an option in the place of the value
    // ("Missing value for '--port <port>'").

    /// The port to listen on (0: any free port).
    @Option(parsing: .unconditional, help: "The port to listen on (0: any free port).")
    public var port = 8080

    /// The most sessions at once.
    @Option(parsing: .unconditional, help: "The most browser sessions at once.")
    public var maxSessions = 1_000

    /// Minutes a session lives without a request.
    @Option(parsing: .unconditional, help: "Minutes a session lives without a request (fractions allowed).")
    public var idleMinutes = 30.0

    /// Names browsers may reach the server by, beside its address.
    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A name browsers may reach the server by, beside its address and localhost (a reverse proxy's, say); "
                + "repeat for several; a leading dot allows subdomains. Requests for other names get 421.",
            valueName: "name"))
    public var allowedHosts: [String] = []

    /// The address browsers reach the server by, when a proxy stands in
    /// front of it.
    @Option(
        help: ArgumentHelp(
            "The address browsers reach the server by, when a proxy stands in front of it (default: the address "
                + "it serves on); the server answers for its name (as for --allowed-host names).",
            valueName: "http(s)://host[:port]"))
    public var publicURL: String?

    /// The options as parsed.
    public init() {}

    /// These options as the environment may give them
    /// (``EnvironmentArguments``).
    public static let environment: [EnvironmentOption] = [
        EnvironmentOption("port"), EnvironmentOption("max-sessions"), EnvironmentOption("idle-minutes"),
        EnvironmentOption("allowed-host", .list), EnvironmentOption("public-url"),
    ]

    /// Refuses values out of range, saying which are allowed.
    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard maxSessions > 0 else { throw ValidationError("--max-sessions takes a number from 1.") }
        guard idleMinutes > 0, idleMinutes <= 10_080 else {
            throw ValidationError("--idle-minutes takes a number of minutes above 0, at most a week (10080).")
        }
        for name in allowedHosts where AllowedHosts.name(of: name) == nil {
            throw ValidationError("--allowed-host takes a host name such as app.example.com (no scheme, no port).")
        }
        if publicURL != nil, publicHost == nil {
            throw ValidationError("--public-url takes an http(s) address, such as https://app.example.com.")
        }
    }

    /// ``publicURL``, if it is an http(s) address.
    private var publicAddress: URL? {
        guard let publicURL, let url = URL(string: publicURL), url.scheme == "http" || url.scheme == "https"
        else { return nil }
        return url
    }

    /// The host name of ``publicURL``, if it is an http(s) address.
    var publicHost: String? { publicAddress?.host }

    /// Whether the session cookie is sent over HTTPS only: when browsers
    /// reach the server by an `https` ``publicURL``.
    public var secureCookies: Bool { publicAddress?.scheme == "https" }

    /// The sessions' limits these options set.
    public var limits: SessionLimits {
        SessionLimits(maxSessions: maxSessions, idleTimeout: .milliseconds(Int(idleMinutes * 60_000)))
    }

    /// The host names the server answers for, beside its address: those
    /// allowed, and the public address's.
    public var allowed: AllowedHosts { AllowedHosts(allowedHosts + [publicHost].compactMap { $0 }) }
}

/// The variables that give a `serve` command's options: ``ServeOptions``'
/// and the app's own, named with the app's prefix (`STANDUPS_PORT`).
public struct ServeVariables: Sendable {
    /// The start of every variable's name.
    public let prefix: String
    /// Every option of the command that the environment may give.
    public let options: [EnvironmentOption]

    /// The variables of ``ServeOptions`` and of `more` options, named with
    /// `prefix`.
    public init(prefix: String, adding more: [EnvironmentOption]) {
        self.prefix = prefix
        self.options = ServeOptions.environment + InspectOption.variables + more
    }

    /// The command's configuration: what it does, and its variables in its
    /// help.
    public var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve", abstract: "Serve the app to browsers on 127.0.0.1 (one session per browser).",
            discussion: EnvironmentArguments.help(options: options, prefix: prefix))
    }

    /// The program's command line (without its name), with the options the
    /// environment gives added when it runs `serve`, and a bare `--inspect`
    /// given its implicit value (``InspectOption/arguments(_:)``).
    public func arguments(
        _ commandLine: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        EnvironmentArguments.merged(
            InspectOption.arguments(commandLine), subcommand: "serve", options: options, prefix: prefix,
            environment: environment)
    }
}

/// An app that ``ServeCommand`` serves: how it opens what its web front end
/// needs, from its own options.
///
/// ```swift
/// enum NotesApp: ServedApp {
///     static let variablePrefix = "NOTES_"
///     static let variables = StorageOptions<Notes>.variables
///
///     static func web(_ options: StorageOptions<Notes>, services: inout AppServices) async throws -> NotesWeb {
///         guard case .directory(let directory) = try await options.open(services: &services, logger: logger)
///         else { throw CommandError("Notes are kept in a directory: give --data-dir.") }
///         let store = try NotesStore(directory: directory)
///         services.closing("the notes") { await store.close() }
///         return NotesWeb(env: .live(store))
///     }
/// }
/// ```
public protocol ServedApp {
    /// The app's own options of `serve` (where its data is kept, …).
    associatedtype Options: ParsableArguments
    /// The web front end.
    associatedtype Web: WebApplication

    /// The start of the environment variables' names (`NOTES_`): `NOTES_PORT`.
    static var variablePrefix: String { get }
    /// The app's own options (``Options``) that the environment may give.
    static var variables: [EnvironmentOption] { get }

    /// Opens what the web front end needs, each with what closes it added
    /// to `services` (which close it when the server has stopped), and
    /// returns the front end.
    static func web(_ options: Options, services: inout AppServices) async throws -> Web

    /// The state diagrams its tests explored, for `--inspect` to show its
    /// runs on (``InspectOption/run(app:diagrams:isolation:_:)``); none by
    /// default.
    static var diagrams: [InspectorDiagram] { get }
}

extension ServedApp {
    /// None.
    public static var diagrams: [InspectorDiagram] { [] }
}

/// `serve`: serves `App` to browsers until `SIGTERM` or Ctrl-C, which stop
/// its services in reverse order (``AppServices``); every option may also
/// come from the environment. Add it to the program's subcommands and parse
/// its command line with ``variables``:
///
/// ```swift
/// static func main() async {
///     await main(ServeCommand<NotesApp>.variables.arguments())
/// }
/// ```
public struct ServeCommand<App: ServedApp>: AsyncParsableCommand {
    /// The variables that give its options: ``ServeOptions``' and the app's.
    public static var variables: ServeVariables {
        ServeVariables(prefix: App.variablePrefix, adding: App.variables)
    }

    /// `serve`, its variables in its help.
    public static var configuration: CommandConfiguration { variables.configuration }

    /// The server's options.
    @OptionGroup public var server: ServeOptions
    /// The app's.
    @OptionGroup public var options: App.Options
    /// `--inspect`.
    @OptionGroup public var inspect: InspectOption

    /// The command, to be parsed.
    public init() {}

    /// Opens the app's services, serves it, and prints
    /// `NAME: ADDRESS/  (Ctrl-C stops)` once a stop signal would stop it
    /// gracefully; returns (the process exits 0) once everything stopped.
    public func run() async throws {
        AppLogs.bootstrap(.info)
        ProcessLimits.allowMostOpenFiles()
        let logger = Logger(label: "oak.web")
        // The sessions of a host started with an inspector are inspected.
        try await inspect.run(
            app: App.variablePrefix.lowercased().trimmingCharacters(in: ["_"]), diagrams: App.diagrams
        ) {
            try await serve(logger: logger)
        }
    }

    private func serve(logger: Logger) async throws {
        try await AppServices.run(logger: logger) { services in
            if let publicURL = server.publicURL { services.address.setPublic(publicURL) }
            let web = try await App.web(options, services: &services)
            let host = try await WebHost.start(
                app: web, port: server.port, limits: server.limits, allowedHosts: server.allowed,
                secureCookies: server.secureCookies, logger: logger)
            let line = "\(web.name): \(host.baseURL)/  (Ctrl-C stops)\n"
            // Written at once, not buffered: a script waits for this line.
            services.serving(host) { FileHandle.standardOutput.write(Data(line.utf8)) }
        }
    }
}
