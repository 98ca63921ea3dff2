// The list explored by OakTesting's StateGraph: selecting, and the sheet
// that adds a stand-up (opened, typed into, confirmed or dismissed), every
// transition found and taken again by the runtime.

import Foundation
import Models
import OakTesting
import StandupForm
import StandupsList
import Testing

@Suite("The list, every transition", .timeLimit(.minutes(3)))
@MainActor
struct StandupsListGraphTests {
    static let events: [StandupsList.Event] = [
        .select(0, count: 3), .select(2, count: 3), .select(5, count: 3),
        .add(UUID(number: 0x51), attendee: UUID(number: 0x52)),
        .form(.setTitle("Retro")), .form(.focusNext), .confirmAdd, .dismissAdd,
    ]

    static func node(_ state: StandupsList.State) -> String {
        guard let form = state.adding else { return "list, card \(state.selection + 1)" }
        return form.standup.title.isEmpty ? "adding, untitled" : "adding, titled"
    }

    static func name(_ event: StandupsList.Event) -> String {
        switch event {
        case .select(let index, _): "select \(index + 1)"
        case .add: "add"
        case .form(.setTitle): "type a title"
        case .form: "next field"
        case .confirmAdd: "confirmAdd"
        case .dismissAdd: "dismissAdd"
        }
    }

    @Test func everyTransitionIsTaken() async {
        let graph = await StateGraph.explore(
            StandupsList.self, from: StandupsList.State(), events: Self.events, node: Self.node,
            eventName: Self.name, maxStates: 200)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage: \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 8)
        #expect(graph.deadEnds.isEmpty)
    }
}
