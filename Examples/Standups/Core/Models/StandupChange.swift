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
    case edit(Standup, from: Standup)
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
