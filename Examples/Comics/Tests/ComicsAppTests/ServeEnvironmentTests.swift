// `comics serve` configured by its environment alone, as a container or a
// service manager starts it (WebTesting's `ServeEnvironment`, the check
// every app's `serve` passes).

import Testing
import WebTesting

@Suite("comics serve takes its options from the environment", .timeLimit(.minutes(1)))
struct ServeEnvironmentTests {
    @Test func everyOptionOfServeHasAVariable() async throws {
        try await ServeEnvironment.checkEveryOptionHasAVariable(try ComicsProgram.url(), prefix: "COMICS_", atLeast: 7)
    }

    @Test func theEnvironmentConfiguresTheServer() async throws {
        try await ServeEnvironment.checkServerTakesItsEnvironment(
            try ComicsProgram.url(), prefix: "COMICS_",
            refused: ("COMICS_MAX_SESSIONS", "0", "--max-sessions takes a number from 1."))
    }
}
