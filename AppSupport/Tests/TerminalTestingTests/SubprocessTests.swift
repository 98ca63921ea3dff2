// Running programs for tests: a program that overruns its time is stopped,
// and one that leaves a child behind holding its descriptors (a daemon)
// does not hang the test waiting for an exit report that never comes; what
// a program writes to a pipe is read, in order, to its end, and pipes come
// and go by the hundred without a Dispatch source to leave behind.

import Foundation
import Synchronization
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

    @Test func aPipeIsReadInOrderToItsEnd() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf one; printf ' two'; seq 1 20000 | tr -d '\\n' | head -c 100000; exit 0"]
        let output = Pipe()
        process.standardOutput = output
        let read = Mutex(Data())
        let reading = PipeReader.start(output.fileHandleForReading) { chunk in read.withLock { $0.append(chunk) } }
        try process.run()
        await reading.end()
        #expect(reading.hasEnded)
        let text = String(decoding: read.withLock { $0 }, as: UTF8.self)
        #expect(text.hasPrefix("one two12345"))
        #expect(text.count == "one two".count + 88_894)
    }

    /// Short-lived programs whose pipes are read and dropped, many at once
    /// (what a test run's servers and browsers do): each reading ends with
    /// its program, and the pipes go without a trace in Dispatch (a
    /// readability handler's teardown crashed the test process on Linux).
    @Test func manyPipesComeAndGo() async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments = ["-c", "echo \(index); echo error >&2"]
                    let output = Pipe()
                    let errors = Pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    let count = Mutex(0)
                    let reading = PipeReader.start(output.fileHandleForReading) { chunk in
                        count.withLock { $0 += chunk.count }
                    }
                    let errorsReading = PipeReader.start(errors.fileHandleForReading) { _ in }
                    try process.run()
                    await reading.end()
                    await errorsReading.end()
                    return count.withLock { $0 }
                }
            }
            var total = 0
            for try await count in group { total += count }
            // "0\n" … "99\n": 10 of 2 bytes, 90 of 3.
            #expect(total == 10 * 2 + 90 * 3)
        }
    }
}
