// `comics serve`: the same features, hosted per browser session by the web
// front end (WebServer). Options and injection only.

import AppCommands
import ArgumentParser
import Foundation
import Logging
import WebHost
import WebServer

struct Serve: AsyncParsableCommand {
    /// Its options from `COMICS_PORT`, `COMICS_LIVE`… as well.
    static let variables = ServeVariables(
        prefix: "COMICS_",
        adding: [
            EnvironmentOption("live", .flag), EnvironmentOption("data-dir"),
            EnvironmentOption("database"),
        ])
    static let configuration = variables.configuration

    @OptionGroup var server: ServeOptions
    @OptionGroup var sources: Sources

    func run() async throws {
        AppLogs.bootstrap(.info)
        ProcessLimits.allowMostOpenFiles()
        try await sources.withEnv(loadsImages: true) { env in
            let host = try await WebHost.start(
                app: ComicsWeb(env: env), port: server.port, limits: server.limits, allowedHosts: server.allowed,
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
