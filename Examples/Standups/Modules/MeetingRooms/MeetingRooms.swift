// Meetings in progress, one run each, shared by everyone who shows them: a
// stand-up's meeting is a room. The first to start it starts the run (one
// timer, one recogniser) as a `SharedRun`, which keeps the meeting's one
// state; whoever opens the meeting while it runs joins the room and sees
// its state at once, then the latest state each time the viewer is ready
// for one (a slow viewer skips states; nothing queues up per viewer); the
// events anyone sends go to that one run. The room
// ends with the meeting. A room nobody watches any more keeps running until
// the time is up (a meeting is not paused because a laptop closed), and
// saves the meeting itself, so that it is never lost; the viewers' apps
// save it too (saving a meeting twice keeps the first). In the terminal
// there is one viewer; on the web, every browser session of the server
// shares the rooms.

import Foundation
import Models
import Oak
import RecordMeeting
import StandupsProvider
import Synchronization

/// The meetings in progress, by stand-up.
public final class MeetingRooms: Sendable {
    /// A room: the handle of its meeting's one run. Send it events through
    /// its ``proxy``; read its state, the one copy, through ``state``,
    /// which a view observes (`withObservationTracking`) to follow the
    /// meeting without copying it.
    public struct Room: Identifiable, Hashable, Sendable {
        /// Identifies the room (a new room for each meeting).
        public let id: UUID
        /// The meeting's run, shared by everyone who shows it.
        public let meeting: SharedRun<RecordMeeting>

        /// The meeting's event channel.
        public var proxy: RecordMeeting.Proxy { meeting.proxy }

        /// The meeting now (its final state once it has ended); observable.
        public var state: RecordMeeting.State { meeting.state }

        /// Equal when they are the same room.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

        /// Hashes the room's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    private struct Occupied {
        var room: Room
        var viewers: Int
    }

    private let env: @Sendable (Standup.ID) -> RecordMeeting.Env
    private let save: @Sendable (StandupChange) async -> Void
    private let rooms = Mutex<[Standup.ID: Occupied]>([:])

    /// Rooms whose meetings run with `env` and are saved with `save`.
    public convenience init(env: RecordMeeting.Env, save: @escaping @Sendable (StandupChange) async -> Void) {
        self.init(env: { _ in env }, save: save)
    }

    /// Rooms whose meetings run with ports of their own, `env(standupID)`
    /// (a web server's meeting listens to its own viewers' microphones),
    /// and are saved with `save`.
    public init(
        env: @escaping @Sendable (Standup.ID) -> RecordMeeting.Env,
        save: @escaping @Sendable (StandupChange) async -> Void
    ) {
        self.env = env
        self.save = save
    }

    /// How many meetings run now.
    public var count: Int { rooms.withLock { $0.count } }

    /// How many follow the meeting of `standupID` now (0 when it does not
    /// run): the viewers whose states have not been dropped.
    public func viewers(of standupID: Standup.ID) -> Int {
        rooms.withLock { $0[standupID]?.viewers ?? 0 }
    }

    /// Joins the meeting of `standup` in progress, or starts it (recording
    /// when `isRecording`): its room, and its states from now — the
    /// current one first, then the latest each time the viewer asks (a
    /// slow viewer skips states, it never queues them) — until it ends.
    /// Dropping the states leaves the room.
    public func join(_ standup: Standup, isRecording: Bool) -> (room: Room, states: RoomStates) {
        let (room, isNew) = rooms.withLock { rooms -> (Room, Bool) in
            if var occupied = rooms[standup.id] {
                occupied.viewers += 1
                rooms[standup.id] = occupied
                return (occupied.room, false)
            }
            let initial = RecordMeeting.State(standup: standup, isRecording: isRecording)
            let room = Room(id: UUID(), meeting: SharedRun<RecordMeeting>(initialState: initial))
            rooms[standup.id] = Occupied(room: room, viewers: 1)
            return (room, true)
        }
        let viewer = Viewer { [weak self] in self?.leave(standup.id, room: room.id) }
        if isNew { start(room.meeting, of: standup.id, room: room.id) }
        return (room, RoomStates(states: room.meeting.states, viewer: viewer))
    }

    /// Runs the meeting until it ends, its viewers watching its one state;
    /// then saves it (when it was saved, not discarded) and closes the
    /// room.
    private func start(_ meeting: SharedRun<RecordMeeting>, of standupID: Standup.ID, room: UUID) {
        let env = self.env(standupID)
        Task {
            let ending = try? await meeting.run(env: env)
            if case .saved(let saved)? = ending?.ending {
                await save(.addMeeting(saved, to: standupID))
            }
            close(room, of: standupID)
        }
        Task { await meeting.proxy.send(.start) }
    }

    private func close(_ room: UUID, of standupID: Standup.ID) {
        rooms.withLock { rooms in
            guard rooms[standupID]?.room.id == room else { return }
            rooms[standupID] = nil
        }
    }

    private func leave(_ standupID: Standup.ID, room: UUID) {
        rooms.withLock { rooms in
            guard rooms[standupID]?.room.id == room else { return }
            rooms[standupID]?.viewers -= 1
        }
    }
}

/// A meeting's states as one viewer sees them (``MeetingRooms/join(_:isRecording:)``):
/// the room's shared run watched, and the viewer counted in the room until
/// the sequence and its iterators are dropped.
public struct RoomStates: AsyncSequence, Sendable {
    /// A state of the meeting.
    public typealias Element = RecordMeeting.State
    /// Watching never fails: the sequence ends with the meeting.
    public typealias Failure = Never

    let states: SharedRun<RecordMeeting>.States
    let viewer: Viewer

    /// The viewer's iterator: the current state first, then the latest.
    public func makeAsyncIterator() -> Iterator {
        Iterator(states: states.makeAsyncIterator(), viewer: viewer)
    }

    /// The iterator of ``RoomStates``.
    public struct Iterator: AsyncIteratorProtocol {
        var states: SharedRun<RecordMeeting>.States.Iterator
        let viewer: Viewer

        /// The latest state the viewer has not seen; `nil` once the
        /// meeting has ended or the viewer's task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> RecordMeeting.State? {
            await states.next(isolation: actor)
        }

        /// The latest state the viewer has not seen; see ``next(isolation:)``.
        public mutating func next() async -> RecordMeeting.State? {
            await states.next(isolation: nil)
        }
    }
}

/// One viewer of a room: leaves it when the last copy of its states is
/// dropped.
final class Viewer: Sendable {
    private let leave: @Sendable () -> Void

    init(leave: @escaping @Sendable () -> Void) {
        self.leave = leave
    }

    deinit { leave() }
}
