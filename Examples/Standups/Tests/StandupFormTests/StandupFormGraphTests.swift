// The form explored by OakTesting's StateGraph: every transition between
// its fields found from a new stand-up's form and taken again by the
// runtime. Text grows without end, so the sample events are bounded where
// they would make new text for ever: a title is typed once, a second
// attendee added once, the length and the theme moved one step each way.

import Common
import Foundation
import Models
import OakTesting
import StandupForm
import Testing

// Its exploration takes about 40 s beside the other suites on 2 cores, over
// a minute under CI's load: the limit catches a hang, not slowness.
@Suite("The form, every transition", .timeLimit(.minutes(3)))
@MainActor
struct StandupFormGraphTests {
    static let second = UUID(number: 0xF2)

    static let events: [StandupForm.Event] = [
        .focusNext, .focusPrevious, .focus(.theme), .edit(.insert("R")), .edit(.deleteBackward),
        .setTitle("Retro"), .changeMinutes(by: 1), .changeMinutes(by: -1), .changeTheme(by: 1),
        .addAttendee(second), .removeAttendee(second), .fill(StandupForm.Fields(title: "Retro", minutes: 10)),
    ]

    /// Nodes: the focused field and how many attendees there are.
    static func node(_ state: StandupForm.State) -> String {
        let field =
            switch state.focus {
            case .title: "title"
            case .length: "length"
            case .theme: "theme"
            case .attendee(let id): id == second ? "second attendee" : "first attendee"
            }
        return "\(field) · \(state.standup.attendees.count) attendee(s)"
    }

    static func name(_ event: StandupForm.Event) -> String {
        switch event {
        case .fill: "fill"
        case .focus(let field): "focus \(field)"
        case .focusNext: "focusNext"
        case .focusPrevious: "focusPrevious"
        case .edit(.insert): "type"
        case .edit: "delete"
        case .setTitle: "setTitle"
        case .setName: "setName"
        case .setMinutes: "setMinutes"
        case .changeMinutes(let step): "minutes \(step > 0 ? "+" : "-")"
        case .setTheme: "setTheme"
        case .changeTheme: "nextTheme"
        case .addAttendee: "addAttendee"
        case .removeAttendee: "removeAttendee"
        }
    }

    /// Keeps the text and numbers from growing: at most one typed
    /// character, minutes within one step of the first, one theme step.
    static func allowing(_ state: StandupForm.State, _ event: StandupForm.Event) -> Bool {
        let first = StandupForm.State(standup: Standup(id: UUID(number: 0xF0)), blankAttendee: UUID(number: 0xF1))
        switch event {
        case .edit(.insert): return (state.focusedText?.text.count ?? 0) == 0
        case .changeMinutes(let step):
            return abs(state.standup.durationSeconds / 60 + step - first.standup.durationSeconds / 60) <= 1
        case .changeTheme: return state.standup.theme == first.standup.theme
        default: return true
        }
    }

    @Test func everyTransitionIsTaken() async {
        let graph = await StateGraph.explore(
            StandupForm.self,
            from: StandupForm.State(standup: Standup(id: UUID(number: 0xF0)), blankAttendee: UUID(number: 0xF1)),
            events: Self.events, node: Self.node, eventName: Self.name, allowing: Self.allowing,
            maxStates: 3_000, maxDepth: 16)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage: \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 20)
        #expect(graph.deadEnds.isEmpty)
    }
}
