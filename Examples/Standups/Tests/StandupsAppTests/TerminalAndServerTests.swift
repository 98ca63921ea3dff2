// The terminal app and a `standups serve` on one PostgreSQL database, as a
// person would have them: the terminal in a real pseudo-terminal (tmux),
// the server's pages driven as their script drives them. A stand-up's
// meeting runs in one of them at a time, whichever started it first; the
// other says where it runs and does not start it too — in both directions.
// Against the server OAK_TEST_POSTGRES names (a database of its own);
// skipped without one, saying what to set; on CI it must run.

import Foundation
import PostgresStandups
import PostgresSupport
import PostgresTesting
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite(
    "A terminal and a server, one database", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"),
    .postgres)
struct TerminalAndServerTests {
    @Test func theTerminalAndAServerNeverRunOneMeetingTwice() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let daily = TwoServersTests.daily
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let store = try await PostgresStandups.open(
                database, deadline: PostgresTestServer.deadline, logger: PostgresTestServer.logger)
            try await store.save([.add(daily)])
            let server = try await ServerProcess.start(
                standups, arguments: ["serve", "--port", "0", "--no-speech", "--database", "\(location)"])
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let command = try BuiltProgram.script(
                running: standups, ["--database", "\(location)", "--no-speech"], scratch: scratch)
            do {
                try await TmuxSession.with(running: command, width: 100, height: 30, scratch: scratch.url) { tmux in
                    // The terminal starts Daily's meeting.
                    try await tmux.waitFor("Daily")
                    try await tmux.send(keys: "Enter")
                    try await tmux.waitFor("Oak Standups · Daily", "Start meeting")
                    try await tmux.send(keys: "s")
                    try await tmux.waitFor("Speech recognition is off")
                    try await tmux.send(keys: "c")
                    try await tmux.waitFor("Speaker 1 of 2: Ann")

                    // A browser of the server is told where it runs; it is
                    // not started there too, nor joined by its address.
                    let browser = try await Browser.open(server)
                    try await browser.openStandup(daily.id)
                    #expect(try await browser.send("detail.start") == 204)
                    _ = try await browser.pages.first(where: { $0.contains("detail.continue") }, "the question")
                    #expect(try await browser.send("detail.continue") == 204)
                    let told = try await browser.pages.first(
                        where: { $0.contains("id=\"meeting-elsewhere\"") }, "where the meeting runs")
                    #expect(told.contains("terminal"), "\(told)")
                    let opened = try await WebClient(base: server.baseURL)
                        .get("/standups/\(daily.id.uuidString.lowercased())/meeting")
                    #expect(opened.status == 200 && !opened.body.contains("id=\"meeting\""), "\(opened.body)")

                    // The terminal's meeting ends (discarded): the server may
                    // run the next one, and then the terminal is told.
                    try await tmux.send(keys: "e")
                    try await tmux.waitFor("End meeting?")
                    try await tmux.send(keys: "d")
                    try await tmux.waitFor("Oak Standups · Daily", "Start meeting")
                    #expect(try await browser.send("detail.start") == 204)
                    _ = try await browser.pages.first(
                        where: { $0.contains("detail.continue") && !$0.contains("id=\"meeting-elsewhere\"") },
                        "the question again")
                    #expect(try await browser.send("detail.continue") == 204)
                    _ = try await browser.pages.first(where: { $0.contains("id=\"meeting\"") }, "the meeting, here")
                    try await tmux.send(keys: "s")
                    try await tmux.waitFor("Speech recognition is off")
                    try await tmux.send(keys: "c")
                    try await tmux.waitFor("meeting runs elsewhere")
                    try await tmux.send(keys: "q")
                    try await tmux.waitFor("EXITED 0")

                    #expect(try await browser.send("meeting.end") == 204)
                    _ = try await browser.pages.first(where: { $0.contains("meeting.discard") }, "the question")
                    #expect(try await browser.send("meeting.discard") == 204)
                    _ = try await browser.pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
                }
            } catch {
                _ = await server.signal(SIGINT, within: .seconds(15))
                await database.close()
                throw error
            }
            #expect(await server.signal(SIGINT, within: .seconds(15)) == 0)
            // Nothing was saved: both meetings were discarded.
            #expect(try await store.load().first?.meetings.count == 1)
            await database.close()
        }
    }
}
