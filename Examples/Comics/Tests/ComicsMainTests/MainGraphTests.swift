// The root feature explored by OakTesting's StateGraph: scenes, the help
// screen, the number typed after "g", quitting — with the Comics and
// Favourites features running as its children over their mocks, every
// transition of Main found and taken again by the runtime. The children's
// own transitions are covered by their graph tests.

import ComicsMain
import Oak
import OakTesting
import Testing

@Suite("Main, every transition", .timeLimit(.minutes(2)))
@MainActor
struct MainGraphTests {
    static let events: [Main.Event] = [
        .start, .showComics, .showFavourites, .toggleHelp, .quit, .beginGoTo, .typeDigit(7), .deleteDigit,
        .submitGoTo, .cancelGoTo, .marksStored, .openComic(2),
    ]

    /// What Main itself keeps: which children run (their handles are new
    /// in every run), then its own fields.
    struct Identity: Hashable {
        var runsComics: Bool
        var runsFavourites: Bool
        var scene: Main.Scene
        var isHelpShown: Bool
        var prompt: String?
        var isQuitting: Bool
        var hasQuit: Bool

        init(_ state: Main.State) {
            runsComics = state.comics != nil
            runsFavourites = state.favourites != nil
            scene = state.scene
            isHelpShown = state.isHelpShown
            prompt = state.prompt
            isQuitting = state.isQuitting
            hasQuit = state.hasQuit
        }
    }

    static func node(_ state: Main.State) -> String {
        if state.hasQuit { return "quit" }
        var parts = [state.comics == nil ? "not started" : state.scene == .comics ? "comics" : "favourites"]
        if state.isHelpShown { parts.append("help") }
        if let prompt = state.prompt { parts.append(prompt.isEmpty ? "typing" : "typed \(prompt)") }
        if state.isQuitting { parts.append("quitting") }
        return parts.joined(separator: " · ")
    }

    static func name(_ event: Main.Event) -> String {
        switch event {
        case .typeDigit: "typeDigit"
        case .openComic: "openComic"
        default: "\(event)"
        }
    }

    /// The children Main's state holds.
    static func children(_ state: Main.State) -> [any ExploredChild] {
        var children: [any ExploredChild] = []
        if let comics = state.comics { children.append(comics) }
        if let favourites = state.favourites { children.append(favourites) }
        return children
    }

    @Test func everyTransitionIsTaken() async {
        let graph = await StateGraph.explore(
            Main.self, from: Main.State(), events: Self.events, env: { .mock }, identity: Identity.init,
            children: Self.children,
            node: Self.node, eventName: Self.name, maxStates: 200)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage: \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found >= 10)
    }
}
