// The stop every app's `serve` must make gracefully, as a deploy stops it
// (SIGTERM) and as Ctrl-C does (SIGINT), with a browser's page open.

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Checks a server's graceful stop: written once for every app's `serve`.
public enum GracefulStop {
    /// The signals a server must stop gracefully on: SIGTERM, as a deploy,
    /// `docker stop` or systemd sends it, and SIGINT, as Ctrl-C does.
    public static let signals: [Int32] = [SIGTERM, SIGINT]

    /// Starts `program` with `arguments` (a `serve` on port 0), opens a page,
    /// and stops the server with `signal`: it must tell the page before its
    /// stream ends (the page shows it until it reconnects), send nothing
    /// after, and exit 0 within its grace period. Then the program is
    /// started again with the same arguments and must serve: nothing of the
    /// first was left half-closed (a data file, a lock, the port's
    /// database).
    ///
    /// With `stops`, the server's log must say it stopped those services,
    /// in that order (`Stopped the web server.` …: AppCommands'
    /// `AppServices` logs each).
    ///
    /// Failures are recorded at `sourceLocation`, the caller's.
    public static func check(
        _ program: URL, arguments: [String], signal: Int32, stops: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("oak-stop-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try await ServerProcess.start(program, arguments: arguments, errorLog: log)
        let client = WebClient(base: server.baseURL)
        let page = try await client.get("/")
        #expect(page.status == 200, sourceLocation: sourceLocation)
        let pages = client.events()
        _ = try await pages.first(where: { _ in true }, "the open page's first push")

        let status = await server.signal(signal, within: .seconds(10))
        #expect(
            status == 0, "the server exits 0 on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")",
            sourceLocation: sourceLocation)
        _ = try await pages.first(
            where: { $0.contains("The server is stopping or restarting") }, "the page told the server is stopping")
        await #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
            _ = try await pages.first(where: { _ in true }, "nothing after the stop")
        }
        if !stops.isEmpty {
            #expect(
                stopped(in: server.errorOutput) == stops, "the services stop in order:\n\(server.errorOutput)",
                sourceLocation: sourceLocation)
        }

        let next = try await ServerProcess.start(program, arguments: arguments)
        let again = try await WebClient(base: next.baseURL).get("/")
        #expect(again.status == 200, "the next server serves the same data", sourceLocation: sourceLocation)
        #expect(await next.signal(SIGTERM, within: .seconds(10)) == 0, sourceLocation: sourceLocation)
    }

    /// The services a log says were stopped, in order: "the web server"
    /// for a line `… Stopped the web server.`.
    public static func stopped(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "] Stopped ") ?? line.range(of: ": Stopped ") else { return nil }
            let rest = line[range.upperBound...]
            return String(rest.hasSuffix(".") ? rest.dropLast() : rest)
        }
    }
}
