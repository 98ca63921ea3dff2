// A server program that a test started and that ended without the test
// stopping it says so, with its status and the last of its error output;
// one the test stopped says nothing.

import Foundation
import Testing
import WebTesting

@Suite("A server process", .timeLimit(.minutes(1)))
struct ServerProcessTests {
    @Test func aServerThatEndsByItselfSaysSo() async throws {
        let server = try await ServerProcess.start(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "echo http://127.0.0.1:9/; echo 'Fatal error: gone' >&2; exit 3"])
        #expect(server.baseURL == "http://127.0.0.1:9")
        #expect(await server.waitUntilEnded() == 3)
        let end = try #require(server.unexpectedEnd)
        #expect(end.hasPrefix("the server at http://127.0.0.1:9 ended by itself (status 3, an exit)"), "\(end)")
    }

    @Test func aServerTheTestStoppedSaysNothing() async throws {
        let server = try await ServerProcess.start(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo http://127.0.0.1:9/; exec sleep 60"])
        #expect(server.isRunning)
        #expect(server.unexpectedEnd == nil, "it runs")
        await server.kill()
        #expect(!server.isRunning)
        #expect(server.unexpectedEnd == nil, "the test ended it")
    }
}
