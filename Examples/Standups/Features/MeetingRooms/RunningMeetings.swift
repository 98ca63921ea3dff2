// Which stand-ups have a meeting in progress in this process, one copy for
// every session: a shared run that follows the rooms, whose state every
// session's pages read (a stand-up's screen says "in progress" and offers
// to join) and are told of when it changes. A session keeps no copy of it
// and runs no task to follow it: a room that starts or ends tells the pages
// that show the set, not a thousand followers.

import Models
import Oak

/// The stand-ups whose meetings run in one process (``MeetingRooms``),
/// kept once for every session: ``MeetingRooms/runningMeetings()``.
public enum RunningMeetings: EffectTransducer {
    /// The stand-ups whose meetings run now.
    public struct State: Terminable, Equatable, Sendable {
        /// The stand-ups whose meetings run.
        public internal(set) var standups: Set<Standup.ID> = []
        /// Whether the rooms are gone: nothing changes any more.
        public internal(set) var isTerminal = false

        /// No meeting runs.
        public init() {}
    }

    /// What happens to the set.
    public enum Event: Equatable, Sendable {
        /// Follow the rooms.
        case follow
        /// The meetings that run now.
        case changed(Set<Standup.ID>)
        /// The rooms are gone: the run ends.
        case roomsGone
    }

    /// A sender waits for room rather than drop a change.
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// Where the changes come from.
    public struct Env: Sendable {
        /// The stand-ups whose meetings run: now, then after each change;
        /// it finishes when the rooms are gone.
        public var changes: @Sendable () -> AsyncStream<Set<Standup.ID>>

        /// Changes from `changes`.
        public init(changes: @escaping @Sendable () -> AsyncStream<Set<Standup.ID>>) {
            self.changes = changes
        }
    }

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .follow:
            return Effect(id: "follow") { env, input in
                for await standups in env.changes() {
                    await input.send(.changed(standups))
                }
                await input.send(.roomsGone)
            }
        case .changed(let standups):
            state.standups = standups
        case .roomsGone:
            state.isTerminal = true
        }
        return nil
    }
}
