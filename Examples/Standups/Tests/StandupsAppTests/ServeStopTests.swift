// `standups serve` stopped as a deploy stops it (SIGTERM) and as Ctrl-C does
// (SIGINT), with a browser's page open: it tells the page, ends its
// sessions, closes its storage and exits 0 within its grace period (5 s);
// the next server opens the same data (WebTesting's `GracefulStop`, the
// check every app's `serve` passes). (A meeting in progress goes on in the
// next server: MeetingSurvivesRestartTests.)

import Foundation
import TerminalTesting
import Testing
import WebTesting

@Suite("standups serve stops gracefully", .timeLimit(.minutes(1)))
struct ServeStopTests {
    @Test(arguments: GracefulStop.signals)
    func aSignalStopsTheServerWithStatusZeroAndKeepsWhatWasSaved(signal: Int32) async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try await GracefulStop.check(
            standups, arguments: ["serve", "--port", "0", "--no-speech", "--data-dir", scratch.path("data").path],
            signal: signal,
            // The server first (its sessions end: nothing changes any more),
            // then the meetings write their checkpoints, then the provider
            // writes what it holds, and the meetings' claims are given up.
            stops: [
                "the web server", "the meetings (each writes its last checkpoint)", "the stand-ups' provider",
                "the meetings' claims",
            ])
    }
}
