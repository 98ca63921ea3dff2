// The form, transition by transition (a pure transducer: its update is
// called as the parent embedding it calls it). SyncUps' form scenarios,
// and editing text with the keys of a terminal.

import Common
import Foundation
import Models
import StandupForm
import Testing

@Suite("The stand-up form")
struct StandupFormTests {
    func send(_ state: inout StandupForm.State, _ events: StandupForm.Event...) {
        for event in events { StandupForm.update(&state, event: event) }
    }

    // SyncUps: addAttendee, focus_AddAttendee.
    @Test func aNewFormHasOneBlankAttendeeAndAddingOneFocusesIt() {
        var state = StandupForm.State(
            standup: Standup(id: UUID(number: 9), title: "Engineering"), blankAttendee: UUID(number: 0))
        #expect(state.standup.attendees.elements == [Attendee(id: UUID(number: 0))])
        #expect(state.focus == .title)
        send(&state, .addAttendee(UUID(number: 1)))
        #expect(state.standup.attendees.ids.elements == [UUID(number: 0), UUID(number: 1)])
        #expect(state.focus == .attendee(UUID(number: 1)))
    }

    // SyncUps: focusAfterRemovingAttendee.
    @Test func removingAnAttendeeFocusesTheNextOrThePreviousAndTheLastStaysBlank() {
        let (a, b, c, d) = (UUID(number: 1), UUID(number: 2), UUID(number: 3), UUID(number: 4))
        var state = StandupForm.State(
            standup: Standup(
                id: UUID(number: 9),
                attendees: [
                    Attendee(id: a, name: "A"), Attendee(id: b, name: "B"), Attendee(id: c, name: "C"),
                    Attendee(id: d, name: "D"),
                ]))
        send(&state, .removeAttendee(a))
        #expect(state.standup.attendees.ids.elements == [b, c, d])
        #expect(state.focus == .attendee(b))
        send(&state, .removeAttendee(c))
        #expect(state.standup.attendees.ids.elements == [b, d])
        #expect(state.focus == .attendee(d))
        send(&state, .removeAttendee(d))
        #expect(state.standup.attendees.ids.elements == [b])
        #expect(state.focus == .attendee(b))
        send(&state, .removeAttendee(b))
        #expect(state.standup.attendees.elements == [Attendee(id: b, name: "")])
        #expect(state.focus == .attendee(b))
    }

    @Test func keysEditTheFocusedFieldAndMoveTheFocus() {
        var state = StandupForm.State(standup: Standup(id: UUID(number: 9)), blankAttendee: UUID(number: 1))
        send(&state, .edit(.insert("Desgn")), .edit(.left), .edit(.left), .edit(.insert("i")))
        #expect(state.standup.title == "Design")
        #expect(state.cursor == 4)
        send(&state, .focusNext)
        #expect(state.focus == .length)
        send(&state, .edit(.insert("x")), .changeMinutes(by: 1))
        #expect(state.standup.minutes == 6)
        send(&state, .changeMinutes(by: -9))
        #expect(state.standup.minutes == Standup.minMinutes)
        send(&state, .focusNext, .changeTheme(by: -1))
        #expect(state.standup.theme == .yellow)
        send(&state, .focusNext, .edit(.insert("Blob")), .edit(.deleteBackward))
        #expect(state.standup.attendees[0].name == "Blo")
        send(&state, .focusNext)
        #expect(state.focus == .title)
        send(&state, .focusPrevious)
        #expect(state.focus == .attendee(UUID(number: 1)))
        #expect(state.cursor == 3)
    }

    @Test func wholeValuesAreCleanedAndBounded() {
        var state = StandupForm.State(standup: Standup(id: UUID(number: 9)), blankAttendee: UUID(number: 1))
        send(
            &state, .setTitle("Team\u{1B}[31m " + String(repeating: "x", count: 200)),
            .setName("Blob\n", of: UUID(number: 1)), .setName("Ghost", of: UUID(number: 7)), .setMinutes(99))
        #expect(state.standup.title.count == Standup.maxTitleLength)
        #expect(!state.standup.title.contains("\u{1B}"))
        #expect(state.standup.attendees.elements == [Attendee(id: UUID(number: 1), name: "Blob ")])
        #expect(state.standup.minutes == Standup.maxMinutes)
    }

    @Test func aPostedFormIsOneEventWhateverTheNumberOfItsFields() {
        var state = StandupForm.State(standup: Standup(id: UUID(number: 9)), blankAttendee: UUID(number: 1))
        for number in 2...12 { send(&state, .addAttendee(UUID(number: number))) }
        var names: [Attendee.ID: String] = [:]
        for number in 1...12 { names[UUID(number: number)] = "Person \(number)" }
        names[UUID(number: 99)] = "Ghost"
        send(&state, .fill(StandupForm.Fields(title: "Everyone", minutes: 99, theme: .sky, names: names)))
        #expect(state.standup.title == "Everyone")
        #expect(state.standup.minutes == Standup.maxMinutes)
        #expect(state.standup.theme == .sky)
        #expect(state.standup.attendees.map(\.name) == (1...12).map { "Person \($0)" })

        // A field not posted is kept.
        send(&state, .fill(StandupForm.Fields(names: [UUID(number: 3): "Three"])))
        #expect(state.standup.title == "Everyone")
        #expect(state.standup.theme == .sky)
        #expect(state.standup.attendees[2].name == "Three")
        #expect(state.standup.attendees[3].name == "Person 4")
    }
}
