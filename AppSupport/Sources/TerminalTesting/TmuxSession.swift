// A program in a real pseudo-terminal: a detached tmux session of a fixed
// size on a tmux server of its own (its own socket, `tmux -L`), so tests
// run side by side and never touch a user's tmux. Tests type keys into it
// and poll its screen until what they expect appears, with a deadline.

import Foundation
import Testing

/// A program in a detached tmux session of its own server.
public struct TmuxSession: Sendable {
    /// The tmux program, when it is on PATH.
    public static let program = Subprocess.find("tmux")

    /// Whether tests that need tmux can run.
    public static var isAvailable: Bool { program != nil }

    /// The tmux program.
    public let executable: URL
    /// The name of the session's tmux server socket (`tmux -L`).
    public let socket: String
    /// The session's name.
    public let name: String
    /// Where the session keeps its configuration and what tmux prints.
    public let scratch: URL
    /// The session's tmux server, run in the foreground (`tmux -D`) as a
    /// child of the tests, so that its end can be awaited. (A server that
    /// `new-session` forks off would keep the descriptors that
    /// swift-corelibs-foundation's Process watches for its client's exit,
    /// and that client would never be seen to end.)
    public let server: Launched

    /// Starts `command` (a shell command line) in a new detached session of
    /// `width`×`height`. Should the command end, its pane stays, dead,
    /// until `kill()`, so that what it printed last can be seen.
    public static func start(
        _ command: String, width: Int = 100, height: Int = 30, scratch: URL
    ) async throws -> TmuxSession {
        let executable = try #require(program, "tmux is not on PATH")
        let id = UUID().uuidString.prefix(8).lowercased()
        let socket = "oak-tests-\(id)"
        try """
        set-option -g remain-on-exit on
        set-option -g status off
        set-option -g default-terminal screen

        """.write(to: configuration(socket, scratch), atomically: true, encoding: .utf8)

        let log = scratch.appendingPathComponent("\(socket).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-L", socket, "-f", configuration(socket, scratch).path, "-D"]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let session = TmuxSession(
            executable: executable, socket: socket, name: "oak-\(id)", scratch: scratch,
            server: try await Launched.start(process))
        // Tests that crash or are killed leave no tmux server (and app)
        // behind: on SIGTERM tmux ends its sessions, and their programs
        // get the hang-up of their terminal.
        try? Watchdog.process(ending: process.processIdentifier, with: "TERM").run()
        do {
            // Until the server answers, asked with a command that never
            // starts a server of its own.
            _ = try await session.poll("the tmux server to start", timeout: .seconds(10)) {
                let answer = try await session.run(["show-options", "-g", "remain-on-exit"])
                let serverLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return (answer.exited(with: 0), "\(answer)\n--- the server's output\n\(serverLog)")
            }
            try await session.tmux(
                "new-session", "-d", "-s", session.name, "-x", "\(width)", "-y", "\(height)", command)
            return session
        } catch {
            await session.kill()
            throw error
        }
    }

    /// Runs `body` with a session running `command`, and kills the session's
    /// server afterwards, also when `body` throws.
    public static func with<R>(
        running command: String, width: Int = 100, height: Int = 30, scratch: URL,
        _ body: (TmuxSession) async throws -> R
    ) async throws -> R {
        let session = try await start(command, width: width, height: height, scratch: scratch)
        do {
            let result = try await body(session)
            await session.kill()
            return result
        } catch {
            await session.kill()
            throw error
        }
    }

    /// Types keys: tmux key names ("Left", "Enter", "Escape") or characters.
    public func send(keys: String...) async throws {
        try await send(keys: keys)
    }

    /// Types keys, all in one go (as fast as a paste).
    public func send(keys: [String]) async throws {
        try await tmux(["send-keys", "-t", name] + keys)
    }

    /// Makes the session's window `width` × `height`: the program sees the
    /// terminal change size (SIGWINCH).
    public func resize(width: Int, height: Int) async throws {
        try await tmux("resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)")
    }

    /// The screen as text, one line a row; with `escapes`, also the
    /// attributes and colours, as escape sequences.
    public func capture(escapes: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : []))
    }

    /// One of tmux's formats for the pane, such as `#{pane_title}`.
    public func display(_ format: String) async throws -> String {
        try await tmux("display-message", "-p", "-t", name, format)
            .trimmingCharacters(in: .newlines)
    }

    /// Sends `signal` to the program the pane's shell runs (a child of the
    /// pane's first process, as ``BuiltProgram/script(running:_:pipeOutput:locale:terminal:scratch:)``
    /// starts it): as a deploy (`SIGTERM`) or a closed terminal
    /// (`SIGHUP`) would.
    public func signalProgram(_ signal: Int32) async throws {
        guard let shell = Int32(try await display("#{pane_pid}")) else {
            throw TmuxError.noProgram("the pane has no process")
        }
        let children = try Self.children(of: shell)
        guard !children.isEmpty else { throw TmuxError.noProgram("the pane's shell (\(shell)) runs nothing") }
        for child in children { _ = Foundation.kill(child, signal) }
    }

    /// The processes whose parent is `parent`.
    static func children(of parent: Int32) throws -> [Int32] {
        #if os(Linux)
        // /proc/PID/stat: "PID (name) state PPID …"; the name may hold
        // spaces and parentheses, so the fields are read after the last ")".
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
        #else
        throw TmuxError.noProgram("finding a process's children needs /proc")
        #endif
    }

    /// Polls the screen until it shows every one of `texts`, and returns it;
    /// fails with the last screen after `timeout`.
    @discardableResult
    public func waitFor(
        _ texts: String..., timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        try await poll("the screen to show \(texts)", timeout: timeout, sourceLocation: sourceLocation) {
            let screen = try await capture()
            return (texts.allSatisfy(screen.contains), screen)
        }
    }

    /// Ends the session's server, and so the session and its programs, and
    /// removes the server's socket (tmux leaves it).
    public func kill() async {
        let socketPath = try? await run(["display-message", "-p", "-t", name, "#{socket_path}"])
            .output.trimmingCharacters(in: .newlines)
        _ = try? await run(["kill-server"])
        let ending = await server.exit(timeout: .seconds(10))
        #expect(!ending.timedOut, "the tmux server did not end")
        if let socketPath, socketPath.hasSuffix("/\(socket)") {
            try? FileManager.default.removeItem(atPath: socketPath)
        }
    }

    /// Polls `probe` every 50 ms until it is done; fails with what it saw
    /// last after `timeout`.
    private func poll(
        _ what: String, timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation,
        _ probe: () async throws -> (done: Bool, seen: String)
    ) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var (done, seen) = try await probe()
        while !done, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            (done, seen) = try await probe()
        }
        try #require(
            done, "Gave up after \(timeout) waiting for \(what); last seen:\n\(seen)", sourceLocation: sourceLocation)
        return seen
    }

    private static func configuration(_ socket: String, _ scratch: URL) -> URL {
        scratch.appendingPathComponent("\(socket).conf")
    }

    /// The tests' environment without a user's $TMUX.
    private static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TMUX_PANE"] = nil
        return environment
    }

    @discardableResult
    private func tmux(_ arguments: String...) async throws -> String {
        try await tmux(arguments)
    }

    /// Runs a tmux command, failing the test unless it succeeds.
    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let finished = try await run(arguments)
        try #require(finished.exited(with: 0), "tmux \(arguments.joined(separator: " ")): \(finished)")
        return finished.output
    }

    /// Runs a tmux command on this session's server.
    private func run(_ arguments: [String]) async throws -> Finished {
        try await Subprocess.run(
            executable, ["-L", socket, "-f", Self.configuration(socket, scratch).path] + arguments,
            environment: Self.environment,
            scratch: scratch, timeout: .seconds(10))
    }
}

/// What a tmux session could not do for a test.
public enum TmuxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pane runs no program to signal: why.
    case noProgram(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .noProgram(let reason): "No program to signal in the tmux pane: \(reason)."
        }
    }
}
