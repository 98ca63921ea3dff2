// What a stand-up's screen says after an edit met another edit (the same
// words in the terminal and on the web): each conflict as a sentence, the
// edit's value kept and the other one named, and whether "Use theirs" has
// anything to put back.

import Foundation
import Models
import StandupDetail

extension StandupConflict {
    /// The conflict as a sentence about `standup` (as it is now).
    public func sentence(in standup: Standup) -> String {
        switch self {
        case .title(let theirs):
            "Its title was also changed elsewhere, to “\(theirs)”; yours is kept."
        case .length(let seconds):
            "Its length was also changed elsewhere, to \(max(seconds / 60, 1)) min; yours is kept."
        case .theme(let theirs):
            "Its theme was also changed elsewhere, to \(theirs.name); yours is kept."
        case .attendee(_, nil, let theirs?):
            "“\(theirs)” was renamed elsewhere while you removed them; they are removed."
        case .attendee(_, let mine?, nil):
            "“\(mine)” was removed elsewhere while you renamed them; they are kept."
        case .attendee(_, let mine, let theirs):
            "“\(mine ?? "")” was also renamed elsewhere, to “\(theirs ?? "")”; your name is kept."
        case .deletedElsewhere:
            "It was deleted elsewhere while you edited it; your edit added it back, without its past meetings."
        }
    }

    /// Whether "Use theirs" would put anything back (a deletion is not put
    /// back: deleting asks on its own).
    public static func canTakeTheirs(_ conflicts: [StandupConflict]) -> Bool {
        conflicts.contains { $0 != .deletedElsewhere }
    }
}

extension StandupDetail.State {
    /// What the form says when the stand-up was deleted while it was open.
    public static let deletedWhileEditing =
        "This stand-up was deleted elsewhere while you edited it. Done adds it back; Cancel lets it go."
}
