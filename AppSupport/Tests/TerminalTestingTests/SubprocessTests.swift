// Running programs for tests: a program that overruns its time is stopped,
// and one that leaves a child behind holding its descriptors (a daemon)
// does not hang the test waiting for an exit report that never comes.

import Foundation
import TerminalTesting
import Testing

@Suite("Running programs", .timeLimit(.minutes(1)))
struct SubprocessTests {
    @Test func aProgramThatEndsReportsItsStatusAndOutput() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let finished = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "echo hello; exit 3"], scratch: scratch.url)
        #expect(finished.exited(with: 3))
        #expect(finished.output == "hello\n")
    }

    @Test func aProgramThatLeavesAChildHoldingItsDescriptorsDoesNotHangTheTest() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let start = ContinuousClock.now
        // The shell exits at once; its child keeps what it inherited for 40 s.
        let finished = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "sleep 40 >/dev/null 2>&1 </dev/null & exit 0"],
            scratch: scratch.url, timeout: .seconds(1))
        #expect(ContinuousClock.now - start < .seconds(20), "\(finished)")
        _ = try? await Subprocess.run(URL(fileURLWithPath: "/usr/bin/pkill"), ["-f", "sleep 40"], scratch: scratch.url)
    }
}
