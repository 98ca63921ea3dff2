// Heap growth had been seen for runs cancelled with events still buffered
// (about 18 MB over 400,000 runs, measured inside a test). The runtime
// releases everything such a run holds; the growth was Swift Testing's: it
// caches a backtrace for every error thrown while a test runs (it hooks
// `swift_willThrow`) and flushes the cache only between tests, and each
// cancelled run throws. This test measures the runtime alone, in a child
// process with that cache turned off.

import Foundation
import Oak
import Testing

/// A counter whose runs are cancelled with events still in the buffer.
enum BufferedCounter: Transducer {
    struct State: NonTerminal {
        var count = 0
    }

    enum Event: Sendable {
        case tick([UInt8])
    }

    static func update(_ state: inout State, event: Event) -> Int {
        state.count += 1
        return state.count
    }
}

@Suite("Memory of cancelled runs", .serialized, .timeLimit(.minutes(5)))
struct CancelledRunMemoryTests {
    static let runsPerRound = 25_000

    nonisolated static let isMemoryChild = ProcessInfo.processInfo.environment["OAK_CANCELLED_RUNS_CHILD"] == "1"

    /// Starts `runsPerRound` runs, 100 at a time, each with 4 events of 64
    /// bytes waiting, and cancels them: half through the proxy, half by
    /// cancelling the task that awaits `run`.
    static func cancelBufferedRuns() async {
        for _ in 0..<(runsPerRound / 100) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let proxy = BufferedCounter.Proxy(bufferSize: 8)
                        let run = Task {
                            try await BufferedCounter.run(initialState: .init(), proxy: proxy, output: NoCallback())
                        }
                        for _ in 0..<4 { try? proxy.send(.tick([UInt8](repeating: 1, count: 64))) }
                        if index.isMultiple(of: 2) { proxy.cancel() } else { run.cancel() }
                        _ = await run.result
                    }
                }
            }
        }
    }

    /// Runs ``residentMemoryOfCancelledRuns()`` in a child process, alone,
    /// with Swift Testing's backtrace cache off. Not under a sanitizer, whose
    /// allocator keeps freed memory on purpose.
    @Test(.enabled(if: !isMemoryChild && !isSanitized))
    func residentMemoryReturnsToItsBaseline() async throws {
        try await runInChildProcess("residentMemoryOfCancelledRuns", environment: ["OAK_CANCELLED_RUNS_CHILD": "1"])
    }

    /// After a first round that fills the allocator's pools, four more
    /// rounds (100,000 cancelled runs with 400,000 events left in their
    /// buffers) must not grow resident memory by more than 2 MiB: a leak of
    /// one event per run, or of 21 bytes per run, would.
    @Test(.enabled(if: isMemoryChild))
    func residentMemoryOfCancelledRuns() async throws {
        await Self.cancelBufferedRuns()
        let baseline = try #require(residentMemory())
        for _ in 0..<4 { await Self.cancelBufferedRuns() }
        let growth = try #require(residentMemory()) - baseline
        print("resident memory growth over \(4 * Self.runsPerRound) cancelled runs: \(growth) bytes")
        #expect(growth < 2 << 20, "resident memory grew by \(growth) bytes over \(4 * Self.runsPerRound) runs")
    }
}
