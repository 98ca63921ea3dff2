// Runs programs for the tests: awaits their exit through the termination
// handler (no thread of the cooperative pool blocks meanwhile), sends what
// they print to files (never to a pipe read synchronously), and ends them
// when they overrun their time.

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a program ended, and what it printed.
public struct Finished: Sendable, CustomStringConvertible {
    /// The exit status, or the signal's number when one ended the program.
    public var status: Int32
    /// Whether it exited or was ended by a signal.
    public var reason: Process.TerminationReason
    /// Whether the tests ended it because it overran its time.
    public var timedOut: Bool
    /// Its standard output.
    public var output: String
    /// Its standard error.
    public var errors: String

    /// Whether it exited by itself with `status`.
    public func exited(with expected: Int32) -> Bool {
        reason == .exit && status == expected && !timedOut
    }

    /// How it ended, then what it printed.
    public var description: String {
        let ending = timedOut ? "timed out" : reason == .exit ? "exited with \(status)" : "ended by signal \(status)"
        return "\(ending)\n--- stdout\n\(output)\n--- stderr\n\(errors)"
    }
}

/// A launched program whose exit can be awaited.
public struct Launched: Sendable {
    /// The program.
    public let process: Process
    /// Its exit, once.
    public let exits: AsyncStream<(status: Int32, reason: Process.TerminationReason)>

    /// Launches `process`; its termination handler reports the exit.
    public static func start(_ process: Process) async throws -> Launched {
        let (exits, continuation) = AsyncStream.makeStream(
            of: (status: Int32, reason: Process.TerminationReason).self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { ended in
            continuation.yield((ended.terminationStatus, ended.terminationReason))
            continuation.finish()
        }
        try await runWithNoSignalBlocked(process)
        return Launched(process: process, exits: exits)
    }

    /// Runs `process` from a new thread that blocks no signal. A child
    /// inherits the signal mask of the thread that spawns it, and on Linux
    /// the threads of the cooperative pool (Dispatch's) block most signals:
    /// a child spawned from one would ignore SIGTERM and never get SIGCHLD
    /// (a tmux server then neither reaps its panes nor ends on kill-server).
    private static func runWithNoSignalBlocked(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                var none = sigset_t()
                sigemptyset(&none)
                pthread_sigmask(SIG_SETMASK, &none, nil)
                do {
                    try process.run()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    /// Awaits the exit; after `timeout` the program is sent SIGTERM (and
    /// the result says so). When no exit is reported 5 seconds after that
    /// (a program that left a child holding what Foundation watches its
    /// exit through), gives up: status -1, timed out.
    public func exit(timeout: Duration) async -> (status: Int32, reason: Process.TerminationReason, timedOut: Bool) {
        let process = process
        let watchdog = Task {
            do { try await Task.sleep(for: timeout) } catch { return false }
            guard process.isRunning else { return false }
            process.terminate()
            return true
        }
        let exits = self.exits
        let ending = await withTaskGroup(of: (status: Int32, reason: Process.TerminationReason)?.self) { group in
            group.addTask {
                var iterator = exits.makeAsyncIterator()
                // The stream ends only after the handler's one report.
                return await iterator.next() ?? (status: -1, reason: .uncaughtSignal)
            }
            group.addTask {
                try? await Task.sleep(for: timeout + .seconds(5))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        watchdog.cancel()
        let timedOut = await watchdog.value
        guard let ending else { return (-1, .uncaughtSignal, true) }
        return (ending.status, ending.reason, timedOut)
    }
}

/// Runs programs for tests.
public enum Subprocess {
    /// Runs `executable` with standard input from /dev/null and standard
    /// output and error to files in `scratch`; `pipeOutput` puts a real
    /// pipe (read by `cat`, which writes the file) between the program and
    /// the file.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, scratch: URL,
        pipeOutput: Bool = false, timeout: Duration = .seconds(20)
    ) async throws -> Finished {
        let name = UUID().uuidString
        let outputFile = scratch.appendingPathComponent("\(name).out")
        let errorFile = scratch.appendingPathComponent("\(name).err")
        let output = try newFile(outputFile)
        defer { try? output.close() }
        let errors = try newFile(errorFile)
        defer { try? errors.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardError = errors

        let ending: (status: Int32, reason: Process.TerminationReason, timedOut: Bool)
        if pipeOutput {
            // Plain file handles for both ends, so that Process closes
            // neither: each child gets its own end only (the others are
            // closed at spawn), and the parent closes both once both run.
            let pipe = Pipe()
            let cat = Process()
            cat.executableURL = URL(fileURLWithPath: "/bin/cat")
            cat.standardInput = pipe.fileHandleForReading
            cat.standardOutput = output
            cat.standardError = errors
            process.standardOutput = pipe.fileHandleForWriting
            let reader: Launched
            let writer: Launched
            do {
                reader = try await Launched.start(cat)
                writer = try await Launched.start(process)
            } catch {
                try? pipe.fileHandleForWriting.close()
                try? pipe.fileHandleForReading.close()
                throw error
            }
            try pipe.fileHandleForWriting.close()
            try pipe.fileHandleForReading.close()
            ending = await writer.exit(timeout: timeout)
            _ = await reader.exit(timeout: timeout)
        } else {
            process.standardOutput = output
            ending = try await Launched.start(process).exit(timeout: timeout)
        }
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        return Finished(
            status: ending.status, reason: ending.reason, timedOut: ending.timedOut,
            output: try String(contentsOf: outputFile, encoding: .utf8),
            errors: try String(contentsOf: errorFile, encoding: .utf8))
    }

    private static func newFile(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return try FileHandle(forWritingTo: url)
    }

    /// The first executable file called `name` in the directories of PATH.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// A fresh directory under the system's temporary directory.
public struct ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Makes a new directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside, not yet created.
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Removes the directory and what is in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// `text` quoted for a POSIX shell.
public func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
