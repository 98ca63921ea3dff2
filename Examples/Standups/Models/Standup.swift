// A stand-up: a team's daily meeting, its attendees, its length and colour,
// and the meetings held. Values only: the rules they keep (at least one
// attendee, names trimmed, a length of whole seconds) are checked where
// they are made, so no feature can divide by zero attendees.

import Foundation
import IdentifiedCollections

/// A team's daily meeting.
public struct Standup: Identifiable, Equatable, Hashable, Codable, Sendable {
    /// Identifies it everywhere (store, screens, web sessions).
    public let id: UUID
    /// "Design", "Engineering".
    public var title: String
    /// The meeting's length, in whole seconds (the form offers 5 to 30
    /// minutes; tests use seconds).
    public var durationSeconds: Int
    /// Its colours.
    public var theme: Theme
    /// Who speaks, in order; never empty once ``validated()``.
    public var attendees: IdentifiedArrayOf<Attendee>
    /// The meetings held, the newest first.
    public var meetings: IdentifiedArrayOf<Meeting>

    /// The longest title kept, in characters.
    public static let maxTitleLength = 80
    /// The shortest length the form offers, in minutes.
    public static let minMinutes = 5
    /// The longest length the form offers, in minutes.
    public static let maxMinutes = 30

    /// A stand-up; by default five minutes long, bubblegum, with no
    /// attendees yet (``validated()`` adds the one it needs).
    public init(
        id: UUID, title: String = "", durationSeconds: Int = 5 * 60, theme: Theme = .bubblegum,
        attendees: IdentifiedArrayOf<Attendee> = [], meetings: IdentifiedArrayOf<Meeting> = []
    ) {
        self.id = id
        self.title = title
        self.durationSeconds = durationSeconds
        self.theme = theme
        (self.attendees, self.meetings) = (attendees, meetings)
    }

    /// The stand-up as it is saved: the title trimmed and cut to
    /// ``maxTitleLength``, attendees with blank names dropped, and — when
    /// none is left — one blank attendee kept (the first one, or a new one
    /// with `fallbackAttendee`), so that a meeting always has a speaker.
    public func validated(fallbackAttendee: UUID? = nil) -> Standup {
        var standup = self
        standup.title = String(title.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maxTitleLength))
        standup.durationSeconds = max(durationSeconds, 1)
        var kept = IdentifiedArrayOf<Attendee>()
        for var attendee in attendees {
            attendee.name = String(
                attendee.name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Attendee.maxNameLength))
            if !attendee.name.isEmpty { kept.append(attendee) }
        }
        if kept.isEmpty {
            if let first = attendees.first {
                kept.append(Attendee(id: first.id, name: ""))
            } else {
                kept.append(Attendee(id: fallbackAttendee ?? id, name: ""))
            }
        }
        standup.attendees = kept
        return standup
    }

    /// The meeting's plan: when each speaker starts.
    public var schedule: SpeakerSchedule {
        SpeakerSchedule(durationSeconds: durationSeconds, speakers: attendees.count)
    }

    /// The length in whole minutes, rounded down (at least 1 for a
    /// non-empty length).
    public var minutes: Int { max(durationSeconds / 60, durationSeconds > 0 ? 1 : 0) }
}

/// One person who speaks at a stand-up.
public struct Attendee: Identifiable, Equatable, Hashable, Codable, Sendable {
    /// Identifies the attendee within the stand-up.
    public let id: UUID
    /// Their name; may be blank while a form is edited.
    public var name: String

    /// The longest name kept, in characters.
    public static let maxNameLength = 60

    /// An attendee.
    public init(id: UUID, name: String = "") {
        self.id = id
        self.name = name
    }
}

/// A meeting that was held: when, and what was said.
public struct Meeting: Identifiable, Equatable, Hashable, Codable, Sendable {
    /// Identifies the meeting.
    public let id: UUID
    /// When it ended.
    public var date: Date
    /// The transcript: what the speech recogniser heard (empty when the
    /// meeting was not recorded).
    public var transcript: String

    /// A meeting.
    public init(id: UUID, date: Date, transcript: String) {
        self.id = id
        self.date = date
        self.transcript = transcript
    }
}

/// When each speaker of a meeting starts: speaker `i` of `n` starts at
/// `⌊i × length ÷ n⌋` seconds, so the turns cover the whole meeting however
/// the length divides (SyncUps' `length / n` in whole seconds leaves the
/// last seconds of a 5-minute meeting of 7 with no speaker and never ends).
public struct SpeakerSchedule: Equatable, Hashable, Sendable {
    /// The meeting's length in seconds (at least 1).
    public let durationSeconds: Int
    /// How many speakers (at least 1).
    public let speakers: Int

    /// A schedule; lengths and counts below 1 count as 1.
    public init(durationSeconds: Int, speakers: Int) {
        self.durationSeconds = max(durationSeconds, 1)
        self.speakers = max(speakers, 1)
    }

    /// The second at which speaker `index` starts.
    public func start(of index: Int) -> Int {
        let index = min(max(index, 0), speakers)
        return index * durationSeconds / speakers
    }

    /// The speaker whose turn it is `elapsed` seconds into the meeting (the
    /// last one from their start to the end).
    public func speaker(at elapsed: Int) -> Int {
        var index = min(max(elapsed, 0) * speakers / durationSeconds, speakers - 1)
        // Integer division may land one speaker late or early at a boundary.
        while index > 0, start(of: index) > elapsed { index -= 1 }
        while index < speakers - 1, start(of: index + 1) <= elapsed { index += 1 }
        return index
    }

    /// The seconds left in speaker `index`'s turn, `elapsed` seconds in.
    public func remaining(for index: Int, at elapsed: Int) -> Int {
        max(start(of: index + 1) - elapsed, 0)
    }
}
