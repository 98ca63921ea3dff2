// Merging an edit into a stand-up changed elsewhere meanwhile: the rules
// field by field and attendee by attendee, checked exhaustively on small
// cases, and on random edits: what only one side changed is that side's,
// what both changed is the edit's and reported, nothing else is reported.

import Foundation
import IdentifiedCollections
import Models
import Testing

@Suite("Merging an edit")
struct StandupEditTests {
    static let base = Standup(
        id: UUID(number: 1), title: "Daily", durationSeconds: 300, theme: .bubblegum,
        attendees: [Attendee(id: UUID(number: 11), name: "Ann"), Attendee(id: UUID(number: 12), name: "Bo")],
        meetings: [Meeting(id: UUID(number: 21), date: Date(timeIntervalSince1970: 0), transcript: "kept")])

    @Test func whatOnlyOneSideChangedIsThatSidesAndNothingIsReported() {
        var mine = Self.base
        mine.title = "Daily sync"
        var current = Self.base
        current.theme = .navy
        current.meetings = []
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: current)
        #expect(conflicts.isEmpty)
        #expect(merged.title == "Daily sync" && merged.theme == .navy)
        // The meetings are the stored ones, whatever the edit carried.
        #expect(merged.meetings.isEmpty)
    }

    @Test func whatBothChangedToOneValueIsNotAConflict() {
        var mine = Self.base
        mine.durationSeconds = 600
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: mine)
        #expect(conflicts.isEmpty && merged.durationSeconds == 600)
    }

    @Test func whatBothChangedDifferentlyKeepsTheEditAndNamesTheirs() {
        var mine = Self.base
        mine.title = "Mine"
        mine.durationSeconds = 600
        mine.theme = .navy
        mine.attendees[0].name = "Anna"
        var current = Self.base
        current.title = "Theirs"
        current.durationSeconds = 900
        current.theme = .orange
        current.attendees[0].name = "Annie"
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: current)
        #expect(merged.title == "Mine" && merged.durationSeconds == 600 && merged.theme == .navy)
        #expect(merged.attendees[0].name == "Anna")
        #expect(
            conflicts == [
                .title(theirs: "Theirs"), .length(theirsSeconds: 900), .theme(theirs: .orange),
                .attendee(UUID(number: 11), mine: "Anna", theirs: "Annie"),
            ])
        // "Use theirs" puts every other value back.
        #expect(merged.takingTheirs(conflicts).title == "Theirs")
        #expect(merged.takingTheirs(conflicts).attendees[0].name == "Annie")
        #expect(merged.takingTheirs(conflicts).durationSeconds == 900)
    }

    @Test func attendeesAddedOnBothSidesAreAllKeptTheirsInPlaceMineAtTheEnd() {
        var mine = Self.base
        mine.attendees.append(Attendee(id: UUID(number: 13), name: "Cy"))
        var current = Self.base
        current.attendees.insert(Attendee(id: UUID(number: 14), name: "Di"), at: 0)
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: current)
        #expect(conflicts.isEmpty)
        #expect(merged.attendees.map(\.name) == ["Di", "Ann", "Bo", "Cy"])
    }

    @Test func anAttendeeRemovedOnOneSideAndRenamedOnTheOtherIsReported() {
        // Removed here, renamed there: removed (the edit's way), reported.
        var mine = Self.base
        mine.attendees.remove(id: UUID(number: 12))
        var current = Self.base
        current.attendees[1].name = "Bob"
        var (merged, conflicts) = Standup.merge(mine, from: Self.base, into: current)
        #expect(merged.attendees.map(\.name) == ["Ann"])
        #expect(conflicts == [.attendee(UUID(number: 12), mine: nil, theirs: "Bob")])
        #expect(merged.takingTheirs(conflicts).attendees.map(\.name) == ["Ann", "Bob"])
        // Renamed here, removed there: kept with the edit's name, reported.
        (merged, conflicts) = Standup.merge(current, from: Self.base, into: mine)
        #expect(merged.attendees.map(\.name) == ["Ann", "Bob"])
        #expect(conflicts == [.attendee(UUID(number: 12), mine: "Bob", theirs: nil)])
        #expect(merged.takingTheirs(conflicts).attendees.map(\.name) == ["Ann"])
        // Removed on one side, untouched on the other: removed, silently.
        (merged, conflicts) = Standup.merge(mine, from: Self.base, into: Self.base)
        #expect(merged.attendees.map(\.name) == ["Ann"] && conflicts.isEmpty)
        (merged, conflicts) = Standup.merge(Self.base, from: Self.base, into: mine)
        #expect(merged.attendees.map(\.name) == ["Ann"] && conflicts.isEmpty)
    }

    @Test func anEditOfAStandupDeletedMeanwhileAddsItBackWithoutMeetingsAndSaysSo() {
        var mine = Self.base
        mine.title = "Kept"
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: nil)
        #expect(merged.title == "Kept" && merged.meetings.isEmpty)
        #expect(conflicts == [.deletedElsewhere])
        var list = IdentifiedArrayOf<Standup>()
        let changed = list.apply(.edit(mine, from: Self.base))
        #expect(changed)
        #expect(list.first?.title == "Kept")
    }

    @Test func twoAttendeesRemovedByBothSidesLeaveOneBlankSpeaker() {
        var mine = Self.base
        mine.attendees.remove(id: UUID(number: 11))
        var current = Self.base
        current.attendees.remove(id: UUID(number: 12))
        let (merged, _) = Standup.merge(mine, from: Self.base, into: current)
        // Validated: a meeting always has a speaker.
        #expect(merged.attendees.count == 1)
    }

    /// Random edits of both sides: the merge takes what only one side
    /// changed from that side, reports exactly the fields both changed
    /// differently, and merging an edit into the stand-up it began from
    /// is the edit.
    @Test(arguments: 0..<200)
    func randomEditsMergeByTheRules(seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        let titles = ["Daily", "A", "B"]
        let lengths = [300, 600, 900]
        let themes: [Theme] = [.bubblegum, .navy, .orange]
        func edit(_ standup: Standup) -> Standup {
            var edited = standup
            edited.title = titles[Int(random.next() % 3)]
            edited.durationSeconds = lengths[Int(random.next() % 3)]
            edited.theme = themes[Int(random.next() % 3)]
            if random.next() % 2 == 0 { edited.attendees[0].name = ["Ann", "X", "Y"][Int(random.next() % 3)] }
            return edited
        }
        let mine = edit(Self.base)
        let current = edit(Self.base)
        let (merged, conflicts) = Standup.merge(mine, from: Self.base, into: current)
        func expect<Value: Equatable>(_ field: KeyPath<Standup, Value>, _ conflict: StandupConflict) {
            let (m, b, c) = (mine[keyPath: field], Self.base[keyPath: field], current[keyPath: field])
            #expect(merged[keyPath: field] == (m != b ? m : c))
            #expect(conflicts.contains(conflict) == (m != b && c != b && m != c))
        }
        expect(\.title, .title(theirs: current.title))
        expect(\.durationSeconds, .length(theirsSeconds: current.durationSeconds))
        expect(\.theme, .theme(theirs: current.theme))
        expect(
            \.attendees[0].name,
            .attendee(UUID(number: 11), mine: mine.attendees[0].name, theirs: current.attendees[0].name))
        #expect(Standup.merge(mine, from: Self.base, into: Self.base) == (mine, []))
    }
}

/// A small deterministic generator (SplitMix64): a failing seed replays.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
