// Two people edit one stand-up at once (two browsers, a terminal and a
// server, two processes on one database): the second Done must not write
// its whole stale copy over the first one's edit. An edit carries the
// stand-up it began with (its base), and is merged — in the store's write
// transaction, against the stand-up as stored then — field by field: what
// only one side changed is taken from that side; what both changed to
// different values keeps the edit's value and is reported as a conflict
// naming the other value, so that the screen can say so and offer it back.
// Nothing is lost silently: an edit of a stand-up deleted meanwhile adds it
// back (without meetings) and says so.

import Foundation
import IdentifiedCollections

/// A part of a stand-up that an edit and someone else changed at once, with
/// the other side's value (the edit's value was kept).
public enum StandupConflict: Equatable, Hashable, Sendable {
    /// Both changed the title; theirs was this.
    case title(theirs: String)
    /// Both changed the length; theirs was this many seconds.
    case length(theirsSeconds: Int)
    /// Both changed the theme; theirs was this.
    case theme(theirs: Theme)
    /// An attendee changed on both sides: renamed differently, or renamed
    /// on one side and removed on the other (`nil`: removed on that side).
    /// The edit's side was kept.
    case attendee(Attendee.ID, mine: String?, theirs: String?)
    /// The stand-up was deleted while it was edited: the edit added it
    /// back, without its meetings.
    case deletedElsewhere
}

/// What merging an edit found changed elsewhere meanwhile: shown on the
/// stand-up's screen until someone dismisses it.
public struct EditConflict: Equatable, Hashable, Sendable {
    /// The stand-up.
    public var standup: Standup.ID
    /// What both sides changed (the edit's value kept).
    public var conflicts: [StandupConflict]

    /// A conflict report.
    public init(standup: Standup.ID, conflicts: [StandupConflict]) {
        self.standup = standup
        self.conflicts = conflicts
    }
}

extension Standup {
    /// The edit `mine` of `base`, merged into `current` (the stand-up as
    /// stored now; `nil` when it was deleted meanwhile): each field,
    /// attendee by attendee, from the side that changed it; what both
    /// changed to different values keeps `mine`'s and is returned as a
    /// conflict. The meetings are `current`'s (an edit does not touch
    /// them). The result is ``validated(fallbackAttendee:)``.
    public static func merge(
        _ mine: Standup, from base: Standup, into current: Standup?
    ) -> (standup: Standup, conflicts: [StandupConflict]) {
        guard let current else {
            var added = mine.validated()
            added.meetings = []
            return (added, [.deletedElsewhere])
        }
        var conflicts: [StandupConflict] = []
        var merged = current
        merged.title = pick(mine.title, base.title, current.title) { conflicts.append(.title(theirs: $0)) }
        merged.durationSeconds = pick(mine.durationSeconds, base.durationSeconds, current.durationSeconds) {
            conflicts.append(.length(theirsSeconds: $0))
        }
        merged.theme = pick(mine.theme, base.theme, current.theme) { conflicts.append(.theme(theirs: $0)) }
        merged.attendees = mergeAttendees(mine.attendees, base.attendees, current.attendees, &conflicts)
        return (merged.validated(), conflicts)
    }

    /// `mine` if this side changed it, else `current`; both changed to
    /// different values: `mine`, and `conflict` is told `current`.
    private static func pick<Value: Equatable>(
        _ mine: Value, _ base: Value, _ current: Value, conflict: (Value) -> Void
    ) -> Value {
        if mine == base { return current }
        if current != base, current != mine { conflict(current) }
        return mine
    }

    /// The attendees, in the stored order, with this side's additions at
    /// the end: an attendee removed on one side and left alone on the
    /// other is removed; renamed on one side, renamed; renamed on one side
    /// and removed (or renamed) on the other, this side's way, reported.
    private static func mergeAttendees(
        _ mine: IdentifiedArrayOf<Attendee>, _ base: IdentifiedArrayOf<Attendee>,
        _ current: IdentifiedArrayOf<Attendee>, _ conflicts: inout [StandupConflict]
    ) -> IdentifiedArrayOf<Attendee> {
        var merged = IdentifiedArrayOf<Attendee>()
        for theirs in current {
            let original = base[id: theirs.id]
            switch (original, mine[id: theirs.id]) {
            case (let original?, nil):
                // Removed here: removed; when renamed there, reported.
                if original.name != theirs.name {
                    conflicts.append(.attendee(theirs.id, mine: nil, theirs: theirs.name))
                }
            case (let original?, let edited?):
                var attendee = theirs
                attendee.name = pick(edited.name, original.name, theirs.name) {
                    conflicts.append(.attendee(theirs.id, mine: edited.name, theirs: $0))
                }
                merged.append(attendee)
            case (nil, let edited?):
                // Added on both sides under one id (an edit merged twice):
                // this side's name.
                merged.append(edited)
            case (nil, nil):
                // Added there.
                merged.append(theirs)
            }
        }
        for edited in mine where current[id: edited.id] == nil {
            if let original = base[id: edited.id] {
                // Removed there: back only when renamed here, reported.
                guard original.name != edited.name else { continue }
                conflicts.append(.attendee(edited.id, mine: edited.name, theirs: nil))
            }
            merged.append(edited)
        }
        return merged
    }
}

extension Standup {
    /// The stand-up with the other side's values of `conflicts` put back
    /// (what "Use theirs" saves): their title, length, theme and attendee
    /// names; an attendee they had removed, removed; one only they kept,
    /// back at the end. The stand-up's deletion is not put back (deleting
    /// asks on its own).
    public func takingTheirs(_ conflicts: [StandupConflict]) -> Standup {
        var standup = self
        for conflict in conflicts {
            switch conflict {
            case .title(let theirs): standup.title = theirs
            case .length(let seconds): standup.durationSeconds = seconds
            case .theme(let theirs): standup.theme = theirs
            case .attendee(let id, _, nil): standup.attendees.remove(id: id)
            case .attendee(let id, _, let name?):
                if standup.attendees[id: id] == nil {
                    standup.attendees.append(Attendee(id: id, name: name))
                } else {
                    standup.attendees[id: id]?.name = name
                }
            case .deletedElsewhere: break
            }
        }
        return standup.validated()
    }
}
