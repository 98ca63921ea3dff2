// `standups serve` stopped as a deploy stops it (SIGTERM) and as Ctrl-C does
// (SIGINT), with a browser's page open: it tells the page, ends its
// sessions, closes its storage and exits 0 within its grace period (5 s);
// the next server opens the same data. (A meeting in progress goes on in
// the next server: MeetingSurvivesRestartTests.)

import Foundation
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("standups serve stops gracefully", .timeLimit(.minutes(1)))
struct ServeStopTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheServerWithStatusZeroAndKeepsWhatWasSaved(signal: Int32) async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let arguments = ["serve", "--port", "0", "--no-speech", "--data-dir", scratch.path("data").path]
        let server = try await ServerProcess.start(standups, arguments: arguments)
        let client = WebClient(base: server.baseURL)
        let page = try await client.get("/")
        #expect(page.status == 200)
        let pages = client.events()
        _ = try await pages.first(where: { _ in true }, "the open page's first push")

        let status = await server.signal(signal, within: .seconds(10))
        #expect(status == 0, "the server exits 0 on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
        // The page was told before its stream ended (its script shows the
        // words until it reconnects), and nothing came after.
        _ = try await pages.first(
            where: { $0.contains("The server is stopping or restarting") }, "the page told the server is stopping")
        await #expect(throws: (any Error).self) {
            _ = try await pages.first(where: { _ in true }, "nothing after the stop")
        }

        // The next server opens the same data: nothing was left half-closed.
        let next = try await ServerProcess.start(standups, arguments: arguments)
        let again = try await WebClient(base: next.baseURL).get("/")
        #expect(again.status == 200)
        #expect(await next.signal(SIGTERM, within: .seconds(10)) == 0)
    }
}
