// The list, transition by transition (a pure transducer the app embeds):
// SyncUps' list scenarios and the sheet's dismissal.

import Foundation
import Models
import StandupForm
import StandupsList
import Testing

@Suite("The list")
struct StandupsListTests {
    // SyncUps: testAdd.
    @Test func addingOpensAFormWithOneBlankAttendeeAndConfirmingSavesIt() {
        var state = StandupsList.State()
        #expect(StandupsList.update(&state, event: .add(UUID(number: 0), attendee: UUID(number: 1))) == nil)
        #expect(
            state.adding
                == StandupForm.State(
                    standup: Standup(id: UUID(number: 0), attendees: [Attendee(id: UUID(number: 1))])))
        _ = StandupsList.update(&state, event: .form(.setTitle("Engineering")))
        _ = StandupsList.update(&state, event: .form(.setName("Blob", of: UUID(number: 1))))
        let added = StandupsList.update(&state, event: .confirmAdd)
        #expect(state.adding == nil)
        #expect(
            added
                == Standup(
                    id: UUID(number: 0), title: "Engineering", attendees: [Attendee(id: UUID(number: 1), name: "Blob")])
        )
    }

    // SyncUps: testAdd_ValidatedAttendees.
    @Test func blankAttendeesAreDroppedOnConfirmAndOneIsKept() {
        let id = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF") ?? UUID()
        var state = StandupsList.State(
            adding: StandupForm.State(
                standup: Standup(
                    id: id, title: "Design",
                    attendees: [Attendee(id: UUID(number: 0), name: ""), Attendee(id: UUID(number: 1), name: "    ")])
            ))
        let added = StandupsList.update(&state, event: .confirmAdd)
        #expect(added?.attendees.elements == [Attendee(id: UUID(number: 0), name: "")])
        #expect(state.adding == nil)
    }

    @Test func dismissingDiscardsTheForm() {
        var state = StandupsList.State()
        _ = StandupsList.update(&state, event: .add(UUID(number: 0), attendee: UUID(number: 1)))
        _ = StandupsList.update(&state, event: .form(.setTitle("Lost")))
        #expect(StandupsList.update(&state, event: .dismissAdd) == nil)
        #expect(state == StandupsList.State())
        // Nothing to confirm any more.
        #expect(StandupsList.update(&state, event: .confirmAdd) == nil)
    }

    @Test func theSelectionStaysOnACard() {
        var state = StandupsList.State()
        _ = StandupsList.update(&state, event: .select(5, count: 3))
        #expect(state.selection == 2)
        _ = StandupsList.update(&state, event: .select(-1, count: 3))
        #expect(state.selection == 0)
        _ = StandupsList.update(&state, event: .select(1, count: 0))
        #expect(state.selection == 0)
    }
}
