// Where a stand-up's meetings run, when several server processes serve the
// app: a meeting's room (its timer, its recogniser, its viewers) must be in
// exactly one process. The web front end asks before a session starts or
// joins a meeting; a session on another process is sent to the meeting's
// home. One process (the terminal app, a single server) is every meeting's
// home.

import Models

/// Where the meeting of a stand-up runs.
public enum MeetingHome: Equatable, Hashable, Sendable {
    /// In this process: it has claimed the stand-up's meetings.
    case here
    /// In the process serving at this address (an absolute http(s) URL).
    case elsewhere(String)
}

/// The port that says, and claims, where each stand-up's meetings run.
public struct MeetingHomes: Sendable {
    /// Where the meetings of a stand-up run: here when this process holds
    /// them or has just claimed them, else the process that holds them.
    public var claim: @Sendable (_ standupID: Standup.ID) async -> MeetingHome

    /// A port from its part.
    public init(claim: @escaping @Sendable (_ standupID: Standup.ID) async -> MeetingHome) {
        self.claim = claim
    }

    /// Every meeting runs here (one process).
    public static let here = MeetingHomes { _ in .here }
}
