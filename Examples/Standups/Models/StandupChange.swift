// One change of the stand-ups, as the features ask for it and the store
// writes it: small, ordered, and applied the same way in memory and on disk.

import Foundation
import IdentifiedCollections

/// A change of the stand-ups.
public enum StandupChange: Equatable, Hashable, Sendable {
    /// A new stand-up, appended.
    case add(Standup)
    /// A stand-up's title, length, theme and attendees replaced (its
    /// meetings stay as they are: a meeting saved meanwhile is kept).
    case update(Standup)
    /// A stand-up as edited (its title, length, theme and attendees) from
    /// the stand-up the edit began with: merged into the stand-up as it is
    /// when written, so that an edit made elsewhere meanwhile is kept
    /// (``Standup/merge(_:from:into:)``). What a form's Done saves.
    indirect case edit(Standup, from: Standup)
    /// A stand-up and its meetings removed.
    case delete(Standup.ID)
    /// A meeting of a stand-up, the newest first.
    case addMeeting(Meeting, to: Standup.ID)
    /// A past meeting removed.
    case deleteMeeting(Meeting.ID, from: Standup.ID)

    /// The stand-up it changes.
    public var standupID: Standup.ID {
        switch self {
        case .add(let standup), .update(let standup), .edit(let standup, _): standup.id
        case .delete(let id), .addMeeting(_, let id), .deleteMeeting(_, let id): id
        }
    }

    /// The change in a line a person can act on (what a stopping process
    /// reports when the store did not take it): what it does, to which
    /// stand-up, with the text typed. Titles and names are quoted with
    /// their control characters escaped, so the line is safe to print.
    public var summary: String {
        func describe(_ standup: Standup) -> String {
            let names = standup.attendees.map { String(reflecting: $0.name) }.joined(separator: ", ")
            return "\(String(reflecting: standup.title)) (\(standup.id)), \(standup.durationSeconds / 60) min, "
                + "attendees: \(names.isEmpty ? "none" : names)"
        }
        switch self {
        case .add(let standup): return "add the stand-up " + describe(standup)
        case .update(let standup), .edit(let standup, _): return "edit the stand-up " + describe(standup)
        case .delete(let id): return "delete the stand-up \(id)"
        case .addMeeting(let meeting, let id):
            return "save the meeting \(meeting.id) of the stand-up \(id) (\(meeting.date.formatted(.iso8601)), "
                + "transcript: \(meeting.transcript.count) characters)"
        case .deleteMeeting(let meeting, let id): return "delete the meeting \(meeting) of the stand-up \(id)"
        }
    }
}

extension IdentifiedArray where ID == Standup.ID, Element == Standup {
    /// Applies `change`; returns whether it changed anything (a change of a
    /// stand-up that is not there changes nothing, nor does adding one
    /// twice).
    @discardableResult
    public mutating func apply(_ change: StandupChange) -> Bool {
        switch change {
        case .add(let standup):
            guard self[id: standup.id] == nil else { return false }
            append(standup)
        case .update(let standup):
            guard var current = self[id: standup.id] else { return false }
            current.title = standup.title
            current.durationSeconds = standup.durationSeconds
            current.theme = standup.theme
            current.attendees = standup.attendees
            guard current != self[id: standup.id] else { return false }
            self[id: standup.id] = current
        case .edit(let standup, let base):
            let merged = Standup.merge(standup, from: base, into: self[id: standup.id]).standup
            guard merged != self[id: standup.id] else { return false }
            if self[id: standup.id] == nil { append(merged) } else { self[id: standup.id] = merged }
        case .delete(let id):
            guard remove(id: id) != nil else { return false }
        case .addMeeting(let meeting, let id):
            guard self[id: id] != nil, self[id: id]?.meetings[id: meeting.id] == nil else { return false }
            self[id: id]?.meetings.insert(meeting, at: 0)
        case .deleteMeeting(let meetingID, let id):
            guard self[id: id]?.meetings.remove(id: meetingID) != nil else { return false }
        }
        return true
    }
}
