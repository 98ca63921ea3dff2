// The intents of one state of the app, for every front end (the terminal's
// keys, SwiftUI's buttons): the root's own, and those of the stand-up's
// screen and of the meeting on top, sent through their runs' handles. Each is refused once the part of the state
// it was made for has moved on (another screen on top, a sheet or question
// opened or closed), so a key typed ahead never acts on a screen it was
// not meant for.

import Foundation
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupsMain

extension Main {
    /// The part of the app's state that decides which of its intents are
    /// valid: the screen on top, whether the list's sheet is open, and
    /// whether the app is quitting.
    public struct Scope: Hashable, Sendable {
        /// The screen on top, or `nil` for the list.
        public var top: UUID?
        /// Whether a stand-up is being added.
        public var isAdding: Bool
        /// Whether the app waits for writes before quitting.
        public var isQuitting: Bool
    }

    /// The scope of `state`.
    public static func scope(of state: State) -> Scope {
        Scope(top: state.top?.id, isAdding: state.list.adding != nil, isQuitting: state.isQuitting)
    }
}

extension StandupDetail {
    /// The part of a stand-up's screen's state its intents depend on: the
    /// sheet or question shown.
    public struct Scope: Hashable, Sendable {
        /// The sheet or question shown, by kind.
        public var destination: String?
    }

    /// The scope of `state`.
    public static func scope(of state: State) -> Scope {
        switch state.destination {
        case .edit: Scope(destination: "edit")
        case .question(let question): Scope(destination: "\(question)")
        case nil: Scope(destination: nil)
        }
    }
}

extension RecordMeeting {
    /// The part of the meeting's state its intents depend on: the question
    /// shown, and whether it is ending.
    public struct Scope: Hashable, Sendable {
        /// The question shown.
        public var question: Question?
        /// Whether the meeting is ending.
        public var isEnding: Bool
    }

    /// The scope of `state`.
    public static func scope(of state: State) -> Scope {
        Scope(question: state.question, isEnding: state.ending != nil)
    }
}

/// The intents a view of one state of the app offers.
public struct StandupsIntents {
    /// The root's own intents.
    public var app: Intents<Main, Main.Scope>
    /// The intents of the stand-up's screen on top, if that is on top.
    public var detail: Intents<StandupDetail, StandupDetail.Scope>?
    /// The intents of the meeting on top, while it runs.
    public var meeting: Intents<RecordMeeting, RecordMeeting.Scope>?

    /// The intents of a view of `state`, sent through `proxy` (the root's)
    /// and the handles of the screen on top; each checks itself against
    /// the state `current` reads, the latest the run reported.
    public init(for state: Main.State, proxy: Main.Proxy, current: @escaping () -> Main.State) {
        app = Intents(for: state, proxy: proxy, scope: Main.scope(of:), current: current)
        switch state.top {
        case .detail(let child):
            self.detail = Intents(for: child, scope: StandupDetail.scope(of:))
        case .meeting(let room):
            // Checked against the room's one state, as the run sees it now.
            let meeting = room.state
            guard !meeting.isTerminal else { break }
            self.meeting = Intents(for: meeting, proxy: room.proxy, scope: RecordMeeting.scope(of:)) {
                room.meeting.state
            }
        default:
            break
        }
    }
}
