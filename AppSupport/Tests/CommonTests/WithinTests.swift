// `within(_:_:)`: the caller gets on at the limit, even when the work does
// not end when cancelled; work that ends in time gives its value or error.

import Common
import Foundation
import Testing

@Suite("Waiting within a limit", .timeLimit(.minutes(1)))
struct WithinTests {
    struct Refused: Error, Equatable {}

    @Test func workThatIgnoresCancellationDoesNotHoldTheLimit() async {
        // Goes on for 30 s whatever its cancellation (awaiting a detached
        // task is not cancelled with the awaiting one). The bound is far
        // from both the limit and the work: a loaded machine (CI, tests in
        // parallel) once took a second to wake a 50 ms timer.
        let start = ContinuousClock.now
        let value = await within(.milliseconds(50)) {
            await Task.detached { try? await Task.sleep(for: .seconds(30)) }.value
            return 1
        }
        #expect(value == nil)
        #expect(ContinuousClock.now - start < .seconds(15))
    }

    @Test func workThatEndsInTimeGivesItsValueOrItsError() async throws {
        #expect(await within(.seconds(5)) { 42 } == 42)
        await #expect(throws: Refused()) {
            _ = try await within(.seconds(5)) { () throws(Refused) -> Int in throw Refused() }
        }
    }
}
