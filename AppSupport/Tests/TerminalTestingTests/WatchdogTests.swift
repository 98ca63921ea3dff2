// What the tests start does not outlive them: a watchdog ends it once the
// test process is gone (a crash, a kill), and ends with it otherwise.

import Foundation
import TerminalTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Watchdogs", .timeLimit(.minutes(1)))
struct WatchdogTests {
    /// A program that runs until it is ended.
    static func sleeper() -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        return process
    }

    /// The watchdog of `server` for `parent`, started, once it watches.
    static func watching(_ server: Launched, for parent: Int32) async throws -> Launched {
        let watchdog = Watchdog.process(ending: server.process.processIdentifier, with: "KILL", onceGone: parent)
        let output = Pipe()
        watchdog.standardOutput = output
        let (said, saying) = AsyncStream.makeStream(of: Data.self)
        PipeReader.start(output.fileHandleForReading) {
            saying.yield($0)
        } onEnd: {
            saying.finish()
        }
        let launched = try await Launched.start(watchdog)
        var lines = said.makeAsyncIterator()
        let first = await lines.next()
        #expect(first.map { String(decoding: $0, as: UTF8.self) } == "watching\n")
        return launched
    }

    @Test func aProcessIsEndedOnceItsTestsAreGone() async throws {
        let tests = try await Launched.start(Self.sleeper())
        let server = try await Launched.start(Self.sleeper())
        let watchdog = try await Self.watching(server, for: tests.process.processIdentifier)
        kill(tests.process.processIdentifier, SIGKILL)
        var ended = server.exits.makeAsyncIterator()
        let end = await ended.next()
        #expect(end?.reason == .uncaughtSignal && end?.status == SIGKILL, "\(String(describing: end))")
        var watched = watchdog.exits.makeAsyncIterator()
        #expect(await watched.next()?.status == 0)
    }

    @Test func theWatchdogEndsWithItsProcess() async throws {
        let server = try await Launched.start(Self.sleeper())
        let watchdog = try await Self.watching(server, for: getpid())
        server.process.terminate()
        var watched = watchdog.exits.makeAsyncIterator()
        #expect(await watched.next()?.status == 0)
        var ended = server.exits.makeAsyncIterator()
        #expect(await ended.next()?.status == SIGTERM, "ended by the test, not the watchdog")
    }
}
