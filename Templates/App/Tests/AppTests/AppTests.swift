// The program as a person uses it: in a real terminal (tmux), driven by
// keys; served to a browser over HTTP, its options from the environment,
// stopped by SIGTERM. Each test has a time limit and waits for what it
// needs (the screen, a pushed page), never for time.

import Foundation
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("__name__, as a person uses it", .timeLimit(.minutes(1)))
struct AppTests {
    static func program() throws -> URL {
        try BuiltProgram.url(named: "__name__", packagePath: ".")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal test needs it"))
    func anItemAddedInTheTerminalIsKept() async throws {
        let program = try Self.program()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data").path
        let command = try BuiltProgram.script(running: program, ["--data-dir", data], scratch: scratch)
        try await TmuxSession.with(running: command, width: 80, height: 24, scratch: scratch.url) { tmux in
            try await tmux.waitFor("Oak __Name__", "No items yet")
            try await tmux.send(keys: "a")
            try await tmux.waitFor("New item:")
            try await tmux.send(keys: "Milk", "Enter")
            // Saved: the list again, with the new item selected.
            let screen = try await tmux.waitFor("Milk", "remove")
            #expect(!screen.contains("New item"), "\(screen)")
            try await tmux.send(keys: "q")
            try await tmux.waitFor("EXITED 0")
        }
        // Kept: the server reads it from the same data directory.
        let server = try await ServerProcess.start(program, arguments: ["serve", "--port", "0", "--data-dir", data])
        let page = try await WebClient(base: server.baseURL).get("/")
        #expect(page.body.contains("<span>Milk</span>"), "\(page.body)")
        #expect(await server.signal(SIGTERM, within: .seconds(10)) == 0)
    }

    @Test func anItemAddedInABrowserShowsEscaped() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try await ServerProcess.start(
            try Self.program(), arguments: ["serve", "--port", "0", "--data-dir", scratch.path("data").path])
        let client = WebClient(base: server.baseURL)
        let page = try await client.get("/")
        let token = try #require(WebClient.token(in: page.body))
        let pages = client.events()
        _ = try await pages.first(where: { $0.contains("No items yet") }, "the empty list")
        let added = try await client.intent("add", token: token, fields: [("title", "<b>Bread</b>")])
        #expect(added.status == 204)
        _ = try await pages.first(where: { $0.contains("&lt;b&gt;Bread&lt;/b&gt;") }, "the item, escaped")
        #expect(await server.signal(SIGTERM, within: .seconds(10)) == 0)
    }

    @Test func everyOptionOfServeCanComeFromTheEnvironment() async throws {
        try await ServeEnvironment.checkEveryOptionHasAVariable(try Self.program(), prefix: "__NAME___", atLeast: 5)
    }

    @Test(arguments: GracefulStop.signals)
    func aStopSignalStopsTheServerWithStatusZero(signal: Int32) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try await GracefulStop.check(
            try Self.program(), arguments: ["serve", "--port", "0", "--data-dir", scratch.path("data").path],
            signal: signal)
    }
}
