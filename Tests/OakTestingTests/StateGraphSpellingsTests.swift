// A replayed event takes its transition whether the change came within the
// event's own step or with the answer it received next: the scheduler
// decides which, not the transducer (a flaky CI failure of Standups' root
// graph, stop 47, where `open` showed the screen one step later).

import Testing

@testable import OakTesting

@Suite("A replay's transitions, spelled either way")
struct StateGraphSpellingsTests {
    typealias Edge = StateGraph<Door, String>.Edge

    @Test func anAnswerThatCameAStepLaterStillTakesTheTransition() {
        let taken = [
            Edge(from: "list", event: "open", to: "list"),
            Edge(from: "list", event: "open (received)", to: "list > stand-up"),
        ]
        let spellings = StateGraph<Door, String>.spellings(of: taken)
        #expect(spellings.contains(Edge(from: "list", event: "open", to: "list > stand-up")))
        #expect(spellings.contains(taken[0]) && spellings.contains(taken[1]))
    }

    @Test func anEventThatChangedSomethingIsTakenOnlyAsItWas() {
        let taken = [
            Edge(from: "idle", event: "load", to: "loading"),
            Edge(from: "loading", event: "load (received)", to: "loaded"),
        ]
        #expect(StateGraph<Door, String>.spellings(of: taken) == taken)
        #expect(StateGraph<Door, String>.spellings(of: [taken[0]]) == [taken[0]])
    }
}
