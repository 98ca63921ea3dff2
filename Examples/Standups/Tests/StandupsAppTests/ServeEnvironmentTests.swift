// `standups serve` configured by its environment alone, as a container or
// a service manager starts it (WebTesting's `ServeEnvironment`, the check
// every app's `serve` passes); the command line wins.

import Foundation
import TerminalTesting
import Testing
import WebTesting

@Suite("standups serve takes its options from the environment", .timeLimit(.minutes(1)))
struct ServeEnvironmentTests {
    @Test func everyOptionOfServeHasAVariable() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        try await ServeEnvironment.checkEveryOptionHasAVariable(standups, prefix: "STANDUPS_", atLeast: 10)
    }

    @Test func theEnvironmentConfiguresTheServerAndTheCommandLineWins() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        try await ServeEnvironment.checkServerTakesItsEnvironment(
            standups, prefix: "STANDUPS_", environment: ["STANDUPS_NO_SPEECH": "1"],
            refused: ("STANDUPS_IDLE_MINUTES", "-1", "--idle-minutes takes a number of minutes above 0"))
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let typed = try await Subprocess.run(
            standups, ["serve", "--idle-minutes", "0"], environment: ["STANDUPS_IDLE_MINUTES": "5"],
            scratch: scratch.url)
        #expect(typed.exited(with: 64), "\(typed)")
    }
}
