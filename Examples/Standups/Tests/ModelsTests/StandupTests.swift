import Foundation
import Models
import Testing

@Suite("Stand-ups")
struct StandupTests {
    // SyncUps: testAdd_ValidatedAttendees.
    @Test func blankAttendeesAreDroppedAndOneIsAlwaysKept() {
        let standup = Standup(
            id: UUID(number: 1), title: "  Design  ",
            attendees: [Attendee(id: UUID(number: 2), name: ""), Attendee(id: UUID(number: 3), name: "    ")])
        let validated = standup.validated()
        #expect(validated.title == "Design")
        #expect(validated.attendees.elements == [Attendee(id: UUID(number: 2), name: "")])

        let named = Standup(
            id: UUID(number: 1),
            attendees: [Attendee(id: UUID(number: 2), name: " "), Attendee(id: UUID(number: 3), name: " Ada ")])
        #expect(named.validated().attendees.elements == [Attendee(id: UUID(number: 3), name: "Ada")])

        let none = Standup(id: UUID(number: 1)).validated(fallbackAttendee: UUID(number: 9))
        #expect(none.attendees.elements == [Attendee(id: UUID(number: 9), name: "")])
    }

    @Test func titlesAndNamesAreBounded() {
        let long = String(repeating: "x", count: 500)
        let standup = Standup(id: UUID(number: 1), title: long, attendees: [Attendee(id: UUID(number: 2), name: long)])
        let validated = standup.validated()
        #expect(validated.title.count == Standup.maxTitleLength)
        #expect(validated.attendees[0].name.count == Attendee.maxNameLength)
    }

    @Test func turnsCoverTheMeetingWhateverTheCounts() {
        for duration in [1, 6, 7, 60, 299, 300, 1800] {
            for speakers in 1...12 {
                let schedule = SpeakerSchedule(durationSeconds: duration, speakers: speakers)
                #expect(schedule.start(of: 0) == 0)
                #expect(schedule.start(of: speakers) == duration)
                var previous = 0
                for elapsed in 0..<duration {
                    let speaker = schedule.speaker(at: elapsed)
                    #expect(speaker >= previous && speaker < speakers)
                    #expect(schedule.start(of: speaker) <= elapsed && elapsed < schedule.start(of: speaker + 1))
                    previous = speaker
                }
            }
        }
    }

    @Test func themesHaveNamesAndReadableAccents() {
        #expect(Theme.allCases.count == 16)
        #expect(Theme.bubblegum.name == "Bubblegum")
        #expect(Theme.navy.accentColor == RGB(255, 255, 255))
        #expect(Theme.yellow.accentColor == RGB(0, 0, 0))
        #expect(RGB(0xF5, 0x0A, 0xD0).description == "#F50AD0")
    }
}
