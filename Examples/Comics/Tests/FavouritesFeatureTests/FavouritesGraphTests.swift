// The Favourites feature explored by OakTesting's StateGraph: loading,
// moving the selection, opening and removing, against the in-memory
// favourites (a fresh copy, and a fresh shared list, per run) and against
// favourites that cannot be changed or read — every transition found and taken again by the runtime.

import Foundation
import OakTesting
import Testing

@testable import FavouritesFeature

@Suite("Favourites, every transition", .timeLimit(.minutes(1)))
@MainActor
struct FavouritesGraphTests {
    static let events: [Favourites.Event] = [.load, .up, .down, .open, .remove]

    static func node(_ state: Favourites.State) -> String {
        let phase =
            switch state.phase {
            case .loading: "loading"
            case .list(let favourites):
                favourites.isEmpty ? "empty" : "\(favourites.count) kept, #\(state.selection + 1)"
            case .unavailable: "unavailable"
            }
        return state.notice == nil ? phase : phase + " · notice"
    }

    static func name(_ event: Favourites.Event) -> String {
        switch event {
        case .load: "load"
        case .up: "up"
        case .down: "down"
        case .open: "open"
        case .remove: "remove"
        case .answer(let answer):
            switch answer.kind {
            case .attached: "attached"
            case .didFail: "didFail"
            case .didRemove: "didRemove"
            }
        }
    }

    /// The kept favourites, read once and removed one by one.
    static var kept: FavouritesEnv { .mock }

    /// Favourites that are read but cannot be removed.
    nonisolated static var readOnly: FavouritesEnv {
        let favourites = FavouritesEnv.mock
        return FavouritesEnv(
            all: favourites.all,
            remove: { (_: Int) throws(FavouritesError) in throw FavouritesError("The disk is read-only.") })
    }

    @Test(arguments: ["kept", "read-only", "unavailable"])
    func everyTransitionIsTaken(favourites: String) async {
        let env: () -> FavouritesEnv =
            switch favourites {
            case "kept": { Self.kept }
            case "read-only": { Self.readOnly }
            default: { .unavailable("The favourites file is damaged.") }
            }
        // The list is the port's shared run: a step ends once it has read
        // and taken what it was sent.
        let graph = await StateGraph.explore(
            Favourites.self, from: Favourites.State(), events: Self.events, env: env, identity: Self.node,
            children: { _ in [] },
            isAtRest: { state in state.list.map { $0.isAtRest && $0.state.phase != .loading } ?? true },
            node: Self.node, eventName: Self.name, maxStates: 200)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage (\(favourites)): \(coverage)")
        // Unreadable: loading → unavailable, and "retry" that stays there.
        #expect(coverage.covered == coverage.found && coverage.found >= (favourites == "unavailable" ? 2 : 10))
    }
}
