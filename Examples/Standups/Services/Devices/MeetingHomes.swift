// Where a stand-up's meetings run, when several server processes serve the
// app: a meeting's room (its timer, its recogniser, its viewers) must be in
// exactly one process. The web front end asks before a session starts or
// joins a meeting; a session on another process is sent to the meeting's
// home; the terminal app asks too, and says where the meeting runs. A
// claim is given up when its meeting ends. One process alone (the terminal
// app or a server on SQLite) is every meeting's home.

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
    /// Gives up this process's claim on a stand-up's meetings (its meeting
    /// ended): the next meeting runs wherever it is started.
    public var release: @Sendable (_ standupID: Standup.ID) async -> Void
    /// ``claim``, but `nil` when where the meetings run cannot be told
    /// (the database is unreachable): resuming a meeting asks this, so that
    /// no process resumes one it is not sure nobody else runs.
    public var claimIfKnown: @Sendable (_ standupID: Standup.ID) async -> MeetingHome?

    /// A port from its parts (`claimIfKnown` is `claim` when not given).
    public init(
        claim: @escaping @Sendable (_ standupID: Standup.ID) async -> MeetingHome,
        release: @escaping @Sendable (_ standupID: Standup.ID) async -> Void = { _ in },
        claimIfKnown: (@Sendable (_ standupID: Standup.ID) async -> MeetingHome?)? = nil
    ) {
        self.claim = claim
        self.release = release
        self.claimIfKnown = claimIfKnown ?? { await claim($0) }
    }

    /// Every meeting runs here (one process).
    public static let here = MeetingHomes { _ in .here }
}
