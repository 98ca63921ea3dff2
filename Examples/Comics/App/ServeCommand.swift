// `comics serve`: the same features, hosted per browser session by the web
// front end (WebServer). Options and injection only.

import ArgumentParser
import Foundation
import Logging
import WebHost
import WebServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the app to browsers on 127.0.0.1 (one session per browser).")

    @Option(help: "The port to listen on (0: any free port).") var port = 8080
    @Option(help: "The most browser sessions at once.") var maxSessions = 1_000
    @Option(help: "Minutes a session lives without a request (fractions allowed).") var idleMinutes = 30.0
    @OptionGroup var sources: Sources
    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A name browsers may reach the server by, beside its address and localhost (a reverse proxy's, say); "
                + "repeat for several; a leading dot allows subdomains. Requests for other names get 421.",
            valueName: "name"))
    var allowedHosts: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard maxSessions > 0 else { throw ValidationError("--max-sessions takes a number from 1.") }
        guard idleMinutes > 0, idleMinutes <= 10_080 else {
            throw ValidationError("--idle-minutes takes a number of minutes above 0, at most a week (10080).")
        }
        for name in allowedHosts where AllowedHosts.name(of: name) == nil {
            throw ValidationError("--allowed-host takes a host name such as app.example.com (no scheme, no port).")
        }
    }

    func run() async throws {
        Logs.bootstrap(.info)
        ProcessLimits.allowMostOpenFiles()
        try await sources.withEnv(loadsImages: true) { env in
            let host = try await WebHost.start(
                app: ComicsWeb(env: env), port: port,
                limits: SessionLimits(maxSessions: maxSessions, idleTimeout: .milliseconds(Int(idleMinutes * 60_000))),
                allowedHosts: AllowedHosts(allowedHosts),
                logger: Logger(label: "oak.comics.web"))
            // SIGTERM (a deploy) and Ctrl-C stop it gracefully, from the
            // moment its address is printed; the command then returns, and
            // the process exits 0.
            try await host.serve {
                // Written at once, not buffered: a script waits for this line.
                FileHandle.standardOutput.write(Data("Oak Comics: \(host.baseURL)/  (Ctrl-C stops)\n".utf8))
            }
        }
    }
}
