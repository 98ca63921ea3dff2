// WebTesting's WebDriver ends chromedriver's process group only while the
// group is still its watchdog's: Foundation makes every process it starts
// the leader of a group of its own, so a group number that was freed can
// be another test's server by the time a driver is ended.

import Foundation
import TerminalTesting
import Testing

@testable import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("WebDriver's process group", .timeLimit(.minutes(1)))
struct WebDriverGroupTests {
    @Test func aGroupWhoseNumberAnotherProcessTookIsNotKilled() async throws {
        // A process started as a test starts a server: a group leader.
        let input = Pipe()
        let other = try await Self.start(["-c", "read line; exit 7"], input: input)
        #expect(getpgid(other.process.processIdentifier) == other.process.processIdentifier)
        #expect(!WebDriver.isWatchdog(other.process.processIdentifier))
        WebDriver.killGroup(other.process.processIdentifier)
        // Alive still, it reads the line and exits with its own status.
        input.fileHandleForWriting.write(Data("go\n".utf8))
        let ending = await other.exit(timeout: .seconds(30))
        #expect(
            ending.reason == .exit && ending.status == 7, "a process that is not a driver's watchdog was killed")
    }

    @Test func aWatchdogsGroupIsKilled() async throws {
        #if os(Linux)
        // As the driver's watchdog does, it says so once it runs (before,
        // the process is still the test's own fork).
        let output = Pipe()
        let watchdog = try await Self.start(
            ["-c", "echo ready; sleep 30", "oak-webdriver", "/bin/true", String(getpid())], output: output)
        let said = output.fileHandleForReading.availableData
        #expect(String(decoding: said, as: UTF8.self).hasPrefix("ready"))
        #expect(WebDriver.isWatchdog(watchdog.process.processIdentifier))
        WebDriver.killGroup(watchdog.process.processIdentifier)
        let ending = await watchdog.exit(timeout: .seconds(30))
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGKILL)
        #endif
    }

    @Test func anEndedProcessIsNoWatchdog() async throws {
        let ended = try await Self.start(["-c", "exit 0"])
        _ = await ended.exit(timeout: .seconds(30))
        #expect(!WebDriver.isWatchdog(ended.process.processIdentifier))
    }

    /// `/bin/sh` with `arguments`, launched as the tests launch programs.
    private static func start(_ arguments: [String], input: Pipe? = nil, output: Pipe? = nil) async throws -> Launched {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = arguments
        if let input { process.standardInput = input }
        if let output { process.standardOutput = output }
        return try await Launched.start(process)
    }
}
