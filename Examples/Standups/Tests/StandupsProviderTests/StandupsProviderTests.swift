// The stand-ups provider, exhaustively, over the in-memory store: loading,
// every change applied at once and written in order, batches coalesced,
// writing stopped by a failure until retried (by the user, or by the
// provider itself after a back-off on a test clock), a failed load and a
// way on,
// and changes made elsewhere merged under the ones not yet written.

import Clocks
import Foundation
import IdentifiedCollections
import Models
import Oak
import OakTesting
import StandupsProvider
import StandupsTestSupport
import Testing

@Suite("The stand-ups provider")
struct StandupsProviderTests {
    let failure = StoreFailure(summary: "The disk is full.", detail: "Could not write /tmp/x: disk full.")

    func tester(
        _ store: MockStandupsStore, clock: WatchedClock = WatchedClock()
    ) -> (TransducerTester<StandupsProvider>, Expected) {
        let initial = StandupsProvider.State()
        let tester = TransducerTester(StandupsProvider.self, initialState: initial, env: .mock(store, clock: clock))
        return (tester, Expected(initial))
    }

    /// The state the test expects, followed step by step for the outputs.
    final class Expected {
        var state: StandupsProvider.State
        init(_ state: StandupsProvider.State) { self.state = state }
        func callAsFunction(_ change: (inout StandupsProvider.State) -> Void) -> StandupsProvider.State {
            change(&state)
            return state
        }
    }

    @Test func loadsAndSavesEveryChange() async {
        let store = MockStandupsStore([.mock])
        let (tester, expected) = tester(store)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        await tester.receive(
            .loaded([.mock]),
            output: expected {
                $0.phase = .loaded
                $0.standups = [.mock]
            }
        ) {
            $0.phase = .loaded
            $0.standups = [.mock]
        }
        var edited = Standup.mock
        edited.title = "Design review"
        await tester.send(
            .apply(.update(edited)),
            output: expected {
                $0.standups[id: edited.id]?.title = "Design review"
                $0.writing = [.update(edited)]
            }
        ) {
            $0.standups[id: edited.id]?.title = "Design review"
            $0.writing = [.update(edited)]
        }
        await tester.receive(.wrote, output: expected { $0.writing = [] }) { $0.writing = [] }
        #expect(tester.state.isSaved)
        #expect(store.standups == [edited])
        // Following others' changes goes on while the provider runs.
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func changesMadeWhileWritingGoIntoOneNextBatch() {
        var state = StandupsProvider.State(phase: .loaded, standups: [.mock])
        let first = Meeting(id: UUID(number: 1), date: Date(timeIntervalSince1970: 1), transcript: "one")
        let second = Meeting(id: UUID(number: 2), date: Date(timeIntervalSince1970: 2), transcript: "two")
        _ = StandupsProvider.update(&state, event: .apply(.delete(Standup.engineeringMock.id)))  // not there
        #expect(state.isSaved)
        _ = StandupsProvider.update(&state, event: .apply(.addMeeting(first, to: Standup.mock.id)))
        #expect(state.writing == [.addMeeting(first, to: Standup.mock.id)])
        _ = StandupsProvider.update(&state, event: .apply(.addMeeting(second, to: Standup.mock.id)))
        _ = StandupsProvider.update(&state, event: .apply(.deleteMeeting(first.id, from: Standup.mock.id)))
        #expect(state.queued.count == 2)
        #expect(state.standups[id: Standup.mock.id]?.meetings.first == second)
        let (effect, _) = StandupsProvider.update(&state, event: .wrote)
        #expect(effect != nil)
        #expect(
            state.writing == [
                .addMeeting(second, to: Standup.mock.id), .deleteMeeting(first.id, from: Standup.mock.id),
            ])
        #expect(state.queued.isEmpty)
    }

    @Test func aFailedWriteStopsWritingUntilRetriedAndKeepsTheOrder() async {
        let store = MockStandupsStore([], saveFailures: [failure])
        let (tester, expected) = tester(store)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        await tester.receive(.loaded([]), output: expected { $0.phase = .loaded }) { $0.phase = .loaded }
        await tester.send(
            .apply(.add(.mock)),
            output: expected {
                $0.standups = [.mock]
                $0.writing = [.add(.mock)]
            }
        ) {
            $0.standups = [.mock]
            $0.writing = [.add(.mock)]
        }
        await tester.receive(
            .writeFailed(failure),
            output: expected {
                $0.writing = []
                $0.queued = [.add(.mock)]
                $0.failure = failure
                $0.failedWrites = 1
            }
        ) {
            $0.writing = []
            $0.queued = [.add(.mock)]
            $0.failure = failure
            $0.failedWrites = 1
        }
        // Shown at once, written after the failed one.
        await tester.send(
            .apply(.add(.engineeringMock)),
            output: expected {
                $0.standups.append(.engineeringMock)
                $0.queued.append(.add(.engineeringMock))
            }
        ) {
            $0.standups.append(.engineeringMock)
            $0.queued.append(.add(.engineeringMock))
        }
        #expect(store.standups.isEmpty)
        await tester.send(
            .retry,
            output: expected {
                $0.failure = nil
                $0.writing = [.add(.mock), .add(.engineeringMock)]
                $0.queued = []
            }
        ) {
            $0.failure = nil
            $0.writing = [.add(.mock), .add(.engineeringMock)]
            $0.queued = []
        }
        await tester.receive(
            .wrote,
            output: expected {
                $0.writing = []
                $0.failedWrites = 0
            }
        ) {
            $0.writing = []
            $0.failedWrites = 0
        }
        #expect(store.standups == [.mock, .engineeringMock])
        #expect(store.batches == [[.add(.mock), .add(.engineeringMock)]])
        // Following others' changes goes on while the provider runs.
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func aFailedLoadOffersToStartOverWithTheSamples() async {
        let damaged = StoreFailure(summary: "The file is damaged.", detail: "…", isDamaged: true)
        let store = MockStandupsStore(loadFailure: damaged)
        let (tester, expected) = tester(store)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        await tester.receive(.loadFailed(damaged), output: expected { $0.phase = .failed(damaged) }) {
            $0.phase = .failed(damaged)
        }
        // Changes wait for the stand-ups: nothing to change yet.
        await tester.send(.apply(.add(.mock)), output: expected { _ in })
        await tester.send(.startOver(withSamples: true), output: expected { $0.phase = .loading }) {
            $0.phase = .loading
        }
        await tester.receive(
            .loaded(Standup.samples),
            output: expected {
                $0.phase = .loaded
                $0.standups = IdentifiedArrayOf(uniqueElements: Standup.samples)
            }
        ) {
            $0.phase = .loaded
            $0.standups = IdentifiedArrayOf(uniqueElements: Standup.samples)
        }
        #expect(store.standups == Standup.samples)
        // Following others' changes goes on while the provider runs.
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func changesMadeElsewhereAreMergedUnderTheOnesNotYetWritten() {
        var state = StandupsProvider.State(phase: .loaded, standups: [.mock])
        var renamed = Standup.mock
        renamed.title = "Mine"
        _ = StandupsProvider.update(&state, event: .apply(.update(renamed)))
        // Someone else added a stand-up; ours is still being written.
        _ = StandupsProvider.update(&state, event: .updated([.mock, .engineeringMock]))
        #expect(state.standups.map(\.title) == ["Mine", "Engineering"])
        _ = StandupsProvider.update(&state, event: .wrote)
        _ = StandupsProvider.update(&state, event: .updated([renamed, .engineeringMock]))
        #expect(state.standups.elements == [renamed, .engineeringMock])
    }

    @Test func othersChangesArriveThroughTheUpdates() async {
        let store = MockStandupsStore([.mock])
        let (tester, expected) = tester(store)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        await tester.receive(
            .loaded([.mock]),
            output: expected {
                $0.phase = .loaded
                $0.standups = [.mock]
            }
        ) {
            $0.phase = .loaded
            $0.standups = [.mock]
        }
        store.changeElsewhere(.add(.productMock))
        await tester.receive(
            .updated([.mock, .productMock]), output: expected { $0.standups.append(.productMock) }
        ) { $0.standups.append(.productMock) }
        // Following others' changes goes on while the provider runs.
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func aFailedWriteIsTriedAgainByItselfLaterAndLaterUntilItIsWritten() async {
        let clock = WatchedClock()
        let store = MockStandupsStore([], saveFailures: [failure, failure])
        let (tester, expected) = tester(store, clock: clock)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        await tester.receive(.loaded([]), output: expected { $0.phase = .loaded }) { $0.phase = .loaded }
        await tester.send(
            .apply(.add(.mock)),
            output: expected {
                $0.standups = [.mock]
                $0.writing = [.add(.mock)]
            }
        ) {
            $0.standups = [.mock]
            $0.writing = [.add(.mock)]
        }
        func failed(_ count: Int) -> (inout StandupsProvider.State) -> Void {
            {
                $0.writing = []
                $0.queued = [.add(.mock)]
                $0.failure = self.failure
                $0.failedWrites = count
            }
        }
        func retried(_ state: inout StandupsProvider.State) {
            state.failure = nil
            state.writing = [.add(.mock)]
            state.queued = []
        }
        await tester.receive(.writeFailed(failure), output: expected(failed(1)), assert: failed(1))
        // Nothing before its time: one second after the first failure.
        await clock.waitForSleeps(1)
        clock.moveForward(by: .milliseconds(999))
        #expect(store.batches.isEmpty && tester.state.failure == failure)
        clock.moveForward(by: .milliseconds(1))
        await tester.receive(.retry, output: expected(retried), assert: retried)
        await tester.receive(.writeFailed(failure), output: expected(failed(2)), assert: failed(2))
        // Two seconds after the second.
        await clock.waitForSleeps(2)
        clock.moveForward(by: .milliseconds(1_999))
        #expect(store.batches.isEmpty)
        clock.moveForward(by: .milliseconds(1))
        await tester.receive(.retry, output: expected(retried), assert: retried)
        await tester.receive(
            .wrote,
            output: expected {
                $0.writing = []
                $0.failedWrites = 0
            }
        ) {
            $0.writing = []
            $0.failedWrites = 0
        }
        #expect(store.standups == [.mock])
        #expect(store.batches == [[.add(.mock)]])
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func theWaitBeforeARetryDoublesUpToHalfAMinute() {
        let delays = (1...8).map { StandupsProvider.retryDelay(after: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { .seconds($0) })
        #expect(StandupsProvider.retryDelay(after: 0) == .seconds(1))
        #expect(StandupsProvider.retryDelay(after: .max) == .seconds(30))
    }

    @Test func aStoreThatIsAwayAtStartIsLoadedAgainByItselfAndOffersNoStartOver() async {
        let locked = StoreFailure(summary: "The stand-ups are locked.", detail: "database is locked")
        let clock = WatchedClock()
        let store = MockStandupsStore([.mock], loadFailure: locked)
        let (tester, expected) = tester(store, clock: clock)
        await tester.send(.load, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        func failed(_ state: inout StandupsProvider.State) {
            state.phase = .failed(locked)
            state.failedLoads = 1
        }
        await tester.receive(.loadFailed(locked), output: expected(failed), assert: failed)
        // Starting over would replace stand-ups that are still there: refused.
        await tester.send(.startOver(withSamples: false), output: expected { _ in })
        #expect(store.standups == [.mock])
        // The lock goes; a second later the provider loads by itself.
        store.loadFails(with: nil)
        await clock.waitForSleeps(1)
        clock.moveForward(by: .seconds(1))
        await tester.receive(.retryLoad, output: expected { $0.phase = .loading }) { $0.phase = .loading }
        func loaded(_ state: inout StandupsProvider.State) {
            state.phase = .loaded
            state.standups = [.mock]
            state.failedLoads = 0
        }
        await tester.receive(.loaded([.mock]), output: expected(loaded), assert: loaded)
        await tester.skipInFlightEffects()
        await tester.finish()
    }
}
