// Checkpoints of a shared run: the versioned format (a checkpoint of another
// version is refused, not misread), the schedule (first state, milestones,
// the interval), and the writer loop: milestones and the final state
// written, a failed write tried again with the next state, and a store that
// hangs never holding the run up.

import Clocks
import Foundation
import Synchronization
import Testing

@testable import Oak

@Suite("Checkpoints of a shared run", .timeLimit(.minutes(1)))
struct CheckpointTests {
    struct Tally: Codable, Equatable, Sendable {
        var count: Int
    }

    @Test func aCheckpointIsReadOnlyByTheVersionThatWroteIt() throws {
        let one = CheckpointFormat<Tally>(version: 1)
        let two = CheckpointFormat<Tally>(version: 2)
        let data = try one.encode(Tally(count: 7))
        #expect(try one.decode(data) == Tally(count: 7))
        #expect(throws: CheckpointError.otherVersion(found: 1, expected: 2)) { try two.decode(data) }
        let newer = try two.encode(Tally(count: 1))
        #expect(throws: CheckpointError.otherVersion(found: 2, expected: 1)) { try one.decode(newer) }
        #expect(CheckpointError.otherVersion(found: 1, expected: 2).description.contains("version 1"))
        #expect {
            try one.decode(Data("not json".utf8))
        } throws: { error in
            guard case .unreadable = error as? CheckpointError else { return false }
            return true
        }
        #expect {
            try one.decode(Data(#"{"version":1,"value":{"total":3}}"#.utf8))
        } throws: { error in
            guard case .unreadable = error as? CheckpointError else { return false }
            return true
        }
        // The same value is the same bytes.
        #expect(try one.encode(Tally(count: 7)) == data)
    }

    @Test func theFirstStateAMilestoneAndAStateAnIntervalAfterTheLastWriteAreDue() {
        let clock = TestClock<Duration>()
        var schedule = CheckpointSchedule<Int, TestClock<Duration>.Instant>(interval: .seconds(5)) {
            $0 / 10 != $1 / 10
        }
        let start = clock.now
        #expect(schedule.isDue(0, at: start))
        schedule.didWrite(0, at: start)
        #expect(!schedule.isDue(3, at: start.advanced(by: .seconds(4))))
        #expect(schedule.isDue(3, at: start.advanced(by: .seconds(5))))
        #expect(schedule.isDue(12, at: start.advanced(by: .seconds(1))))
        schedule.didWrite(12, at: start.advanced(by: .seconds(1)))
        #expect(!schedule.isDue(15, at: start.advanced(by: .seconds(5))))
        #expect(schedule.isDue(15, at: start.advanced(by: .seconds(6))))
    }

    /// What the writer was asked to write, told to the test as it happens.
    final class Writes: Sendable {
        let (attempts, attempted) = AsyncStream<Int>.makeStream()
        let failing = Mutex<Set<Int>>([])
        let written = Mutex<[Int]>([])

        func write(_ count: Int) throws {
            attempted.yield(count)
            if failing.withLock({ $0.remove(count) != nil }) { throw CancellationError() }
            written.withLock { $0.append(count) }
        }
    }

    @Test func theFirstStateEveryMilestoneAndTheFinalStateAreWritten() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let writes = Writes()
        let keeper = Task {
            await shared.keepCheckpoints(
                of: { $0.count }, every: .seconds(5), at: { $0.count / 10 != $1.count / 10 }, clock: TestClock(),
                write: { try writes.write($0) })
        }
        let run = Task { try await shared.run() }
        var attempts = writes.attempts.makeAsyncIterator()
        #expect(await attempts.next() == 0)
        await shared.proxy.send(.add(5))
        await shared.proxy.send(.add(10))
        #expect(await attempts.next() == 15)
        await shared.proxy.send(.add(1))
        await shared.proxy.send(.stop)
        _ = try await run.value
        await keeper.value
        #expect(writes.written.withLock { $0 } == [0, 15, 16])
    }

    @Test func aFailedWriteIsTriedAgainWithTheNextState() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let writes = Writes()
        writes.failing.withLock { $0 = [0] }
        let keeper = Task {
            await shared.keepCheckpoints(
                of: { $0.count }, every: .seconds(5), clock: TestClock(), write: { try writes.write($0) })
        }
        let run = Task { try await shared.run() }
        var attempts = writes.attempts.makeAsyncIterator()
        #expect(await attempts.next() == 0)
        await shared.proxy.send(.add(1))
        #expect(await attempts.next() == 1)
        await shared.proxy.send(.stop)
        _ = try await run.value
        await keeper.value
        #expect(writes.written.withLock { $0 } == [1])
    }

    @Test func aStoreThatHangsNeverHoldsTheRunUpAndGetsTheLatestStateAfter() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let (gate, open) = AsyncStream<Void>.makeStream()
        let written = Mutex<[Int]>([])
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let keeper = Task {
            await shared.keepCheckpoints(
                of: { $0.count }, every: .zero, clock: TestClock(),
                write: { count in
                    if count == 0 {
                        didStart.yield()
                        for await _ in gate { break }
                    }
                    written.withLock { $0.append(count) }
                })
        }
        let run = Task { try await shared.run() }
        var starts = started.makeAsyncIterator()
        await starts.next()
        for _ in 1...100 { await shared.proxy.send(.add(1)) }
        await shared.proxy.send(.stop)
        // The run ended while its first checkpoint was still being written.
        #expect(try await run.value == 100)
        open.yield()
        await keeper.value
        #expect(written.withLock { $0 } == [0, 100])
    }
}
