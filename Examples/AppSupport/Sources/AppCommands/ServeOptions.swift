// The options every app's `serve` command takes, validated once: the port,
// the sessions' limits and the host names the server answers for.

import ArgumentParser
import WebHost

/// The options of a web server: `@OptionGroup var server: ServeOptions`.
public struct ServeOptions: ParsableArguments {
    /// The port to listen on (0: any free port).
    @Option(help: "The port to listen on (0: any free port).")
    public var port = 8080

    /// The most sessions at once.
    @Option(help: "The most browser sessions at once.")
    public var maxSessions = 1_000

    /// Minutes a session lives without a request.
    @Option(help: "Minutes a session lives without a request (fractions allowed).")
    public var idleMinutes = 30.0

    /// Names browsers may reach the server by, beside its address.
    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A name browsers may reach the server by, beside its address and localhost (a reverse proxy's, say); "
                + "repeat for several; a leading dot allows subdomains. Requests for other names get 421.",
            valueName: "name"))
    public var allowedHosts: [String] = []

    /// The options as parsed.
    public init() {}

    /// These options as the environment may give them
    /// (``EnvironmentArguments``).
    public static let environment: [EnvironmentOption] = [
        EnvironmentOption("port"), EnvironmentOption("max-sessions"), EnvironmentOption("idle-minutes"),
        EnvironmentOption("allowed-host", .list),
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
    }

    /// The sessions' limits these options set.
    public var limits: SessionLimits {
        SessionLimits(maxSessions: maxSessions, idleTimeout: .milliseconds(Int(idleMinutes * 60_000)))
    }

    /// The host names the server answers for, beside its address.
    public var allowed: AllowedHosts { AllowedHosts(allowedHosts) }
}
