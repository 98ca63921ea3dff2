// WebTesting's WebDriver ends chromedriver's process group only while the
// group is still its watchdog's: Foundation makes every process it starts
// the leader of a group of its own, so a group number that was freed can
// be another test's server by the time a driver is ended.

import Foundation
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
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sh")
        other.arguments = ["-c", "read line; exit 7"]
        other.standardInput = input
        try other.run()
        #expect(getpgid(other.processIdentifier) == other.processIdentifier)
        #expect(!WebDriver.isWatchdog(other.processIdentifier))
        WebDriver.killGroup(other.processIdentifier)
        // Alive still, it reads the line and exits with its own status.
        input.fileHandleForWriting.write(Data("go\n".utf8))
        await Self.waitUntilExit(other)
        #expect(
            other.terminationReason == .exit && other.terminationStatus == 7,
            "a process that is not a driver's watchdog was killed")
    }

    @Test func aWatchdogsGroupIsKilled() async throws {
        #if os(Linux)
        // As the driver's watchdog does, it says so once it runs (before,
        // the process is still the test's own fork).
        let output = Pipe()
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", "echo ready; sleep 30", "oak-webdriver", "/bin/true", String(getpid())]
        watchdog.standardOutput = output
        try watchdog.run()
        let said = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: output.fileHandleForReading.availableData)
            }
        }
        #expect(String(decoding: said, as: UTF8.self).hasPrefix("ready"))
        #expect(WebDriver.isWatchdog(watchdog.processIdentifier))
        WebDriver.killGroup(watchdog.processIdentifier)
        await Self.waitUntilExit(watchdog)
        #expect(watchdog.terminationReason == .uncaughtSignal && watchdog.terminationStatus == SIGKILL)
        #endif
    }

    @Test func anEndedProcessIsNoWatchdog() async throws {
        let ended = try Self.start("/bin/true", [])
        await Self.waitUntilExit(ended)
        #expect(!WebDriver.isWatchdog(ended.processIdentifier))
    }

    private static func start(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        return process
    }

    private static func waitUntilExit(_ process: Process) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }
}
