// A server program the tests start as a process of its own (an app's
// `serve` command), as its users do: it is ready when it prints its address
// on a line of its own; it is stopped as Ctrl-C does, or killed outright.

import Dispatch
import Foundation
import Synchronization
import TerminalTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends `signal` to the process `pid`.
private func send(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// A server process, started and ready.
public final class ServerProcess: @unchecked Sendable {
    // Safety: `process` is set up before it starts and only signalled and
    // waited for afterwards.
    private let process: Process
    /// The file the server's standard error goes to, if the test gave one.
    private let errorLog: URL?
    /// The address the server printed, without a trailing slash
    /// (`http://127.0.0.1:PORT`).
    public let baseURL: String

    private init(process: Process, errorLog: URL?, baseURL: String) {
        self.process = process
        self.errorLog = errorLog
        self.baseURL = baseURL
    }

    /// What the server wrote to its standard error so far, when it was
    /// started with an `errorLog`; else empty.
    public var errorOutput: String {
        guard let errorLog, let data = FileManager.default.contents(atPath: errorLog.path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `executable` with `arguments` (and `environment` added to
    /// this process's), and waits up to `timeout` for a line of its
    /// standard output holding `http://`: the address it serves on. With
    /// `errorLog`, its standard error is written to that file (made anew),
    /// for ``errorOutput``: a file, not a pipe, so nothing has to read it
    /// while the server runs.
    ///
    /// - Throws: ``ServerProcessError`` when the program ends first or
    ///   prints no address in time (it is killed then).
    public static func start(
        _ executable: URL, arguments: [String], environment: [String: String] = [:],
        errorLog: URL? = nil, timeout: Duration = .seconds(60)
    ) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        // Standard error is read as it comes (a server that logs must never
        // block on a full pipe); its last 16 kB say why it did not start.
        // Once it serves, a server that stops at a `fatalError` or a failed
        // precondition says why there, and a test that then finds it gone
        // would not know: that is written to the test's own standard error
        // (the CI log), with the server's name and process.
        let name = executable.lastPathComponent
        let errors = Pipe()
        let said = Mutex((text: Data(), pid: Int32?.none))
        var errorsReading: PipeReader?
        if let errorLog {
            guard FileManager.default.createFile(atPath: errorLog.path, contents: nil) else {
                throw ServerProcessError.notReady(name, "cannot write \(errorLog.path)")
            }
            let log = try FileHandle(forWritingTo: errorLog)
            process.standardError = log
            defer { try? log.close() }  // the server writes to its own copy
            try process.run()
        } else {
            process.standardError = errors
            errorsReading = PipeReader.start(errors.fileHandleForReading) { chunk in
                let serving = said.withLock { said in
                    said.text = (said.text + chunk).suffix(16_384)
                    return said.pid
                }
                guard let pid = serving else { return }
                let text = String(decoding: chunk, as: UTF8.self)
                guard text.contains("Fatal error") else { return }
                FileHandle.standardError.write(Data("\(name) (process \(pid)) stopped: \(text)\n".utf8))
            }
            try process.run()
        }
        // A test run that crashed or was killed leaves no server running
        // (and holding its port and database) behind.
        try? Watchdog.process(ending: process.processIdentifier, with: "KILL").run()
        // The rest of its output is read and dropped, so that it never
        // blocks on a full pipe.
        let (addresses, found) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        // What it wrote until the address; `nil` once it was found.
        let seen = Mutex(Data?.some(Data()))
        PipeReader.start(output.fileHandleForReading) { chunk in
            let address = seen.withLock { seen -> String? in
                guard var written = seen else { return nil }
                written.append(chunk)
                let address = Self.address(in: written)
                seen = address == nil ? written : nil
                return address
            }
            if let address { found.yield(address) }
        } onEnd: {
            found.finish()
        }
        guard let address = await firstAddress(of: process, in: addresses, within: timeout) else {
            process.terminate()
            process.waitUntilExit()
            await errorsReading?.end()
            let told =
                errorLog.flatMap { FileManager.default.contents(atPath: $0.path) } ?? said.withLock { $0.text }
            throw ServerProcessError.notReady(name, String(decoding: told.suffix(16_384), as: UTF8.self))
        }
        said.withLock { $0.pid = process.processIdentifier }
        return ServerProcess(process: process, errorLog: errorLog, baseURL: address)
    }

    /// The process's identifier.
    public var pid: Int32 { process.processIdentifier }

    /// Stops the server as Ctrl-C does and waits until it has ended;
    /// returns its exit status.
    @discardableResult
    public func stop() async -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        send(SIGINT, to: process.processIdentifier)
        return await waitUntilExit()
    }

    /// Sends the server `signal` — `SIGTERM` as a deploy does, `SIGINT` as
    /// Ctrl-C does — and waits until it has ended; returns its exit status,
    /// or `nil` when it had not ended within `timeout` (it is killed then).
    public func signal(_ signal: Int32, within timeout: Duration) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        send(signal, to: process.processIdentifier)
        let pid = process.processIdentifier
        let killer = Task {
            try await Task.sleep(for: timeout)
            send(SIGKILL, to: pid)
        }
        let status = await waitUntilExit()
        killer.cancel()
        if case .success = await killer.result { return nil }
        return status
    }

    /// Kills the server outright (SIGKILL: no code of its own runs) and
    /// waits until it has ended.
    public func kill() async {
        guard process.isRunning else { return }
        send(SIGKILL, to: process.processIdentifier)
        _ = await waitUntilExit()
    }

    private func waitUntilExit() async -> Int32 {
        let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    /// The first `http://` address of the complete lines of `output`,
    /// without a trailing slash.
    static func address(in output: Data) -> String? {
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines.dropLast() {
            guard let start = line.range(of: "http://") else { continue }
            let address = line[start.lowerBound...].prefix { !$0.isWhitespace }
            return String(address.hasSuffix("/") ? address.dropLast() : address)
        }
        return nil
    }

    /// The first address of `addresses` (found in what `process` wrote),
    /// or `nil` when its output ends or `timeout` passes first (then it is
    /// stopped, which ends its output).
    private static func firstAddress(
        of process: Process, in addresses: AsyncStream<String>, within timeout: Duration
    ) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await address in addresses { return address }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { process.terminate() }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Why a server process could not be used.
public enum ServerProcessError: Error, CustomStringConvertible {
    /// It ended, or printed no address in time; what it wrote on standard
    /// error.
    case notReady(String, String)

    /// What happened.
    public var description: String {
        switch self {
        case .notReady(let name, let said): "\(name) printed no address to serve on; it said: \(said)"
        }
    }
}
