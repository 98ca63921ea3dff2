// What every app's `serve` must take from its environment, checked once for
// all of them: a variable for every option (its help lists each), and a
// server configured by the environment alone.

import Foundation
import TerminalTesting
import Testing

/// Checks that a `serve` command reads its options from the environment.
public enum ServeEnvironment {
    /// Checks that `program serve --help` names a variable `PREFIX_NAME`
    /// for every option `--name` (at least `count` of them).
    ///
    /// Failures are recorded at `sourceLocation`, the caller's.
    public static func checkEveryOptionHasAVariable(
        _ program: URL, prefix: String, atLeast count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let help = try await Subprocess.run(program, ["serve", "--help"], scratch: scratch.url)
        #expect(help.exited(with: 0), "\(help)", sourceLocation: sourceLocation)
        let options = CommandHelp.options(in: help.output)
        #expect(options.count >= count, "\(help)", sourceLocation: sourceLocation)
        for option in options {
            let variable = prefix + option.dropFirst(2).uppercased().replacing("-", with: "_")
            #expect(
                help.output.contains("\(variable) for \(option)"), "\(option) has no variable: \(help.output)",
                sourceLocation: sourceLocation)
        }
    }

    /// Starts `program serve` with no option but `environment` and a port of
    /// its own (`PREFIX_PORT`), checks that it serves a page there and that
    /// `PREFIX_DATA_DIR` is the data directory used, and stops it. Then
    /// checks that `refused` (a variable and its value) is refused with
    /// `message`, as the option typed would be.
    ///
    /// Failures are recorded at `sourceLocation`, the caller's.
    public static func checkServerTakesItsEnvironment(
        _ program: URL, prefix: String, environment: [String: String] = [:],
        refused: (variable: String, value: String, message: String),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data").path
        // A port of its own (another program may hold it: tried again with
        // another).
        var server: ServerProcess?
        var port = 0
        for _ in 0..<5 where server == nil {
            port = Int.random(in: 40_000..<60_000)
            server = try? await ServerProcess.start(
                program, arguments: ["serve"],
                environment: environment.merging([prefix + "PORT": "\(port)", prefix + "DATA_DIR": data]) { $1 })
        }
        let started = try #require(server, sourceLocation: sourceLocation)
        #expect(started.baseURL.hasSuffix(":\(port)"), "\(started.baseURL)", sourceLocation: sourceLocation)
        #expect(try await WebClient(base: started.baseURL).get("/").status == 200, sourceLocation: sourceLocation)
        #expect(
            FileManager.default.fileExists(atPath: data), "the data directory given", sourceLocation: sourceLocation)
        #expect(await started.stop() == 0, sourceLocation: sourceLocation)

        let answer = try await Subprocess.run(
            program, ["serve"], environment: [refused.variable: refused.value, "PATH": "/usr/bin:/bin"],
            scratch: scratch.url)
        #expect(answer.exited(with: 64), "\(answer)", sourceLocation: sourceLocation)
        #expect(answer.errors.contains(refused.message), "\(answer)", sourceLocation: sourceLocation)
    }
}
