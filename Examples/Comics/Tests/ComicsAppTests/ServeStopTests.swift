// `comics serve` stopped as a deploy stops it (SIGTERM) and as Ctrl-C does
// (SIGINT), with a browser's page open: it tells the page, ends its
// sessions, the page's stream ends, and the process exits 0 within its
// grace period (5 s); the next server opens the same data (WebTesting's
// `GracefulStop`, the check every app's `serve` passes).

import Foundation
import TerminalTesting
import Testing
import WebTesting

@Suite("comics serve stops gracefully", .timeLimit(.minutes(1)))
struct ServeStopTests {
    @Test(arguments: GracefulStop.signals)
    func aSignalStopsTheServerWithStatusZeroAndEndsOpenPages(signal: Int32) async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // The server first (its sessions end), then the favourites list
        // its sessions shared (it lets go of the store's changes), then the
        // offline catalog it read from (the SQLite store needs no closing).
        try await GracefulStop.check(
            comics, arguments: ["serve", "--port", "0", "--data-dir", scratch.path("data").path], signal: signal,
            stops: ["the web server", "the favourites list", "the offline catalog"])
    }
}
