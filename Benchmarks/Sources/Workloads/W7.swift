// W7: the cost of one asserted step of OakTesting's TransducerTester (a
// `send` with one state assertion, against a real run with no isolation, as
// in a test function that is not on an actor), next to one plain call of the
// same `update`. Target: at most 20 µs per asserted step, so that thousands
// of tests run in seconds.

import BenchSupport
import Oak
import OakTesting

enum Ticker: Transducer {
    typealias State = CounterState
    enum Event: Sendable { case tick }

    static func update(_ state: inout State, event: Event) {
        _ = counterUpdate(&state, .increment)
    }
}

/// W7: tester steps, and plain update calls.
public enum W7Workload {
    /// `n` asserted steps of one tester, then its end; the tester and its
    /// run have no isolation, as in a test function that is not on an
    /// actor.
    public static func tester(n: Int) async {
        let tester = TransducerTester(Ticker.self, initialState: CounterState(limit: n + 1))
        for _ in 0..<n {
            await tester.send(.tick) {
                $0.count += 1
                $0.processed += 1
            }
        }
        await tester.finish()
    }

    /// `n` calls of the update.
    public static func update(n: Int) -> Int {
        var state = CounterState(limit: n + 1)
        for _ in 0..<n { Ticker.update(&state, event: .tick) }
        return state.count
    }
}
