// The stand-ups' provider explored by OakTesting's StateGraph: loading,
// changes written in order, a store that is away for two writes (tried
// again with "Try again"), one unreachable for two loads (tried again on
// the explorer's clock), a damaged file
// started over, edits that conflict and changes made elsewhere — every
// transition found and taken again by the runtime. Each run has a fresh
// in-memory store, so a path always meets the same answers.

import Clocks
import Foundation
import Models
import OakTesting
import StandupsProvider
import Synchronization
import Testing

@Suite("The provider, every transition", .timeLimit(.minutes(2)))
@MainActor
struct StandupsProviderGraphTests {
    static let daily = Standup(id: UUID(number: 0xDA), title: "Daily", attendees: [Attendee(id: UUID(number: 0xDB))])
    static let retro = Standup(id: UUID(number: 0x7E), title: "Retro", attendees: [Attendee(id: UUID(number: 0x7F))])
    static var renamed: Standup {
        var standup = daily
        standup.title = "Daily sync"
        return standup
    }

    static let events: [StandupsProvider.Event] = [
        .load, .apply(.add(retro)), .apply(.edit(renamed, from: daily)), .apply(.delete(retro.id)),
        .conflicted([EditConflict(standup: daily.id, conflicts: [.title(theirs: "Stand-up")])]),
        .dismissConflicts(daily.id), .retry, .retryLoad, .startOver(withSamples: false), .updated([daily]),
    ]

    static func node(_ state: StandupsProvider.State) -> String {
        var parts: [String]
        switch state.phase {
        case .idle: parts = ["idle"]
        case .loading: parts = ["loading"]
        case .loaded: parts = ["loaded"]
        case .failed(let failure): parts = [failure.isDamaged ? "damaged" : "unreachable"]
        }
        if !state.writing.isEmpty { parts.append("writing") }
        if !state.queued.isEmpty { parts.append("queued") }
        if state.failure != nil { parts.append("write failed") }
        if !state.conflicts.isEmpty { parts.append("conflicts") }
        return parts.joined(separator: " · ")
    }

    static func name(_ event: StandupsProvider.Event) -> String {
        switch event {
        case .load: "load"
        case .loaded: "loaded"
        case .loadFailed: "loadFailed"
        case .apply(.add): "add"
        case .apply(.delete): "delete"
        case .apply: "edit"
        case .wrote: "wrote"
        case .conflicted: "conflicted"
        case .dismissConflicts: "dismissConflicts"
        case .writeFailed: "writeFailed"
        case .retry: "retry"
        case .retryLoad: "retryLoad"
        case .startOver: "startOver"
        case .updated: "updated"
        }
    }

    /// A store holding the daily stand-up, whose first `failingLoads`
    /// loads and first `failingWrites` writes fail (transiently), or whose
    /// file is damaged until started over.
    static func store(
        failingLoads: Int = 0, failingWrites: Int = 0, damaged: Bool = false, clock: any Clock<Duration>
    )
        -> StandupsProvider.Dependencies
    {
        let away = StoreFailure(summary: "The database is away.", detail: "The database is away.")
        let store = MockStandupsStore(
            [daily],
            loadFailure: damaged
                ? StoreFailure(summary: "The file is damaged.", detail: "The file is damaged.", isDamaged: true) : nil,
            saveFailures: Array(repeating: away, count: failingWrites))
        let mock = StandupsProvider.Dependencies.mock(store, clock: clock)
        let loads = Mutex(failingLoads)
        return StandupsProvider.Dependencies(
            load: { () throws(StoreFailure) -> [Standup] in
                let fails = loads.withLock { loads in
                    defer { loads -= 1 }
                    return loads > 0
                }
                if fails { throw away }
                return try await mock.load()
            },
            save: mock.save, startOver: mock.startOver, updates: mock.updates, clock: clock)
    }

    @Test(arguments: ["working", "away", "unreachable", "damaged"])
    func everyTransitionIsTaken(store: String) async {
        let clock = TestClock()
        let graph = await StateGraph.explore(
            StandupsProvider.self, from: StandupsProvider.State(), events: Self.events,
            env: {
                switch store {
                // Its retries' timer never fires (a clock nobody runs):
                // "Try again" (`retry`) is what writes again.
                case "away": Self.store(failingWrites: 2, clock: TestClock())
                case "unreachable": Self.store(failingLoads: 2, clock: clock)
                case "damaged": Self.store(damaged: true, clock: clock)
                default: Self.store(clock: clock)
                }
            },
            clock: store == "away" ? nil : clock, node: Self.node, eventName: Self.name,
            allowing: { state, event in
                // Conflicts reported add up, and so do changes waiting
                // for a store that is away: a few are enough.
                if case .conflicted = event { return state.conflicts.isEmpty }
                if case .apply = event { return state.queued.count < 2 }
                return true
            }, maxStates: 3_000, maxDepth: 30)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage (\(store)): \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 5)
    }
}
