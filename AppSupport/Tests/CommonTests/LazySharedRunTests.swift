// A shared run started on demand: nothing runs before the first attach;
// every attach gets the one run, started once with its first event; close
// ends it, and does nothing when nobody attached.

import Common
import Oak
import Synchronization
import Testing

/// Counts the loads it was sent; each load is one event.
private enum Loads: Transducer {
    struct State: NonTerminal, Equatable, Sendable { var loads = 0 }
    enum Event: Sendable { case load }
    typealias Proxy = SyncSuspendingProxy<Event>
    typealias Output = Void

    static func update(_ state: inout State, event: Event) {
        state.loads += 1
    }
}

@Suite("A shared run started by the first that attaches", .timeLimit(.minutes(1)))
struct LazySharedRunTests {
    private static func make() -> LazySharedRun<Loads> {
        LazySharedRun(SharedRun(initialState: Loads.State(), proxy: Loads.Proxy(bufferSize: 8)), env: (), first: .load)
    }

    @Test func nothingRunsBeforeTheFirstAttach() {
        let lazy = Self.make()
        #expect(!lazy.hasStarted && !lazy.run.hasStarted)
        #expect(lazy.run.state.loads == 0)
    }

    @Test func everyAttachGetsTheOneRunStartedOnceWithItsFirstEvent() async {
        let lazy = Self.make()
        let runs = await withTaskGroup(of: SharedRun<Loads>.self) { group in
            for _ in 0..<50 { group.addTask { lazy.attach() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.allSatisfy { $0 === lazy.run })
        for await state in lazy.run.states where state.loads > 0 { break }
        await lazy.run.proxy.send(.load)
        // The first event was sent once: the one sent after it is the second.
        #expect(lazy.run.state.loads == 2)
        await lazy.close()
    }

    @Test func closeEndsTheRun() async {
        let lazy = Self.make()
        _ = lazy.attach()
        await lazy.close()
        #expect(lazy.run.ending != nil)
        #expect(lazy.attach() === lazy.run && lazy.run.ending != nil)
    }

    @Test func closingWhatNobodyAttachedToDoesNothing() async {
        let lazy = Self.make()
        await lazy.close()
        #expect(!lazy.hasStarted && !lazy.run.hasStarted)
    }
}
