// The README's EffectCounter, tested exhaustively with a test clock: every
// state change, every event its operations send back, nothing left running,
// and no real time spent waiting.

import Clocks
import Oak
import OakTesting
import Testing

/// No actor: the tester and its run have the test's isolation, none here
/// (the fastest on Linux, where the main actor is slow to hop to).
@Suite("README EffectCounter, tested with TransducerTester")
struct EffectCounterTests {
    @Test func incrementsAfterItsServiceAnswers() async {
        let clock = TestClock()
        let tester = TransducerTester(
            EffectCounter.self, initialState: EffectCounter.initialState, env: .waiting(on: clock))

        await tester.send(.increment) { $0.pending = .increment }
        await clock.advance(by: .seconds(1))
        await tester.receive(.incrementReady) {
            $0.value = 1
            $0.pending = .none
        }

        await tester.send(.decrement) { $0.pending = .decrement }
        // Events during a pending operation are ignored.
        await tester.send(.increment)
        await clock.advance(by: .seconds(1))
        await tester.receive(.decrementReady) {
            $0.value = 0
            $0.pending = .none
        }
        await tester.finish()
    }

    @Test func resetDuringAnIncrementLeavesTheOperationRunning() async {
        let clock = TestClock()
        let tester = TransducerTester(
            EffectCounter.self, initialState: EffectCounter.initialState, env: .waiting(on: clock))

        await tester.send(.increment) { $0.pending = .increment }
        await tester.send(.reset) { $0.pending = .none }
        // The increment's operation still answers; in state `.none` its
        // event changes nothing.
        await clock.advance(by: .seconds(1))
        await tester.receive(.incrementReady)
        await tester.finish()
    }
}
