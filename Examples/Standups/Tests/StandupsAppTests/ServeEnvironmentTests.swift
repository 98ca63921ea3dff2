// `standups serve` configured by its environment alone, as a container or
// a service manager starts it: every option has a variable (the help lists
// each), the values reach the server (its port, its data directory) and
// are validated as typed ones are; the command line wins.

import Foundation
import TerminalTesting
import Testing
import WebTesting

@Suite("standups serve takes its options from the environment", .timeLimit(.minutes(1)))
struct ServeEnvironmentTests {
    @Test func everyOptionOfServeHasAVariable() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let help = try await Subprocess.run(standups, ["serve", "--help"], scratch: scratch.url)
        #expect(help.exited(with: 0), "\(help)")
        let options = Set(
            help.output.split(whereSeparator: { " \n,[]".contains($0) })
                .filter { $0.hasPrefix("--") && $0 != "--help" }.map { String($0) })
        #expect(options.count >= 10, "\(help)")
        for option in options {
            let variable = "STANDUPS_" + option.dropFirst(2).uppercased().replacing("-", with: "_")
            #expect(help.output.contains("\(variable) for \(option)"), "\(option) has no variable: \(help.output)")
        }
    }

    @Test func theEnvironmentConfiguresTheServer() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // A port of its own, from the environment (another program may
        // hold it: tried again with another).
        var server: ServerProcess?
        var port = 0
        for _ in 0..<5 where server == nil {
            port = Int.random(in: 40_000..<60_000)
            server = try? await ServerProcess.start(
                standups, arguments: ["serve"],
                environment: [
                    "STANDUPS_PORT": "\(port)", "STANDUPS_NO_SPEECH": "1",
                    "STANDUPS_DATA_DIR": scratch.path("data").path,
                ])
        }
        let started = try #require(server)
        #expect(started.baseURL.hasSuffix(":\(port)"), "\(started.baseURL)")
        #expect(try await WebClient(base: started.baseURL).get("/").status == 200)
        // The data directory given is the one used.
        #expect(FileManager.default.fileExists(atPath: scratch.path("data").path))
        #expect(await started.stop() == 0)

        // A value from the environment is refused as one typed.
        let refused = try await Subprocess.run(
            standups, ["serve"], environment: ["STANDUPS_IDLE_MINUTES": "-1", "PATH": "/usr/bin:/bin"],
            scratch: scratch.url)
        #expect(refused.exited(with: 64), "\(refused)")
        #expect(refused.errors.contains("--idle-minutes takes a number of minutes above 0"), "\(refused)")
        // The command line wins over the environment.
        let typed = try await Subprocess.run(
            standups, ["serve", "--idle-minutes", "0"], environment: ["STANDUPS_IDLE_MINUTES": "5"],
            scratch: scratch.url)
        #expect(typed.exited(with: 64), "\(typed)")
    }
}
