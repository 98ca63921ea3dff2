// Meetings in progress, one run each, shared by everyone who shows them: a
// stand-up's meeting is a room. The first to start it starts the run (one
// timer, one recogniser); whoever opens the meeting while it runs joins the
// room and sees its state at once, then every tick, speaker change and
// transcript line; the events anyone sends go to that one run. The room
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
    /// A room: the handle of its meeting's run (send it events through its
    /// proxy).
    public typealias Room = Child<RecordMeeting>

    private struct Occupied {
        var room: Room
        var latest: RecordMeeting.State
        var viewers: [UUID: AsyncStream<RecordMeeting.State>.Continuation] = [:]
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
    /// run).
    public func viewers(of standupID: Standup.ID) -> Int {
        rooms.withLock { $0[standupID]?.viewers.count ?? 0 }
    }

    /// Joins the meeting of `standup` in progress, or starts it (recording
    /// when `isRecording`): its room, and its states from now — the
    /// current one first — until it ends or the stream is dropped (which
    /// leaves the room).
    public func join(_ standup: Standup, isRecording: Bool) -> (room: Room, states: AsyncStream<RecordMeeting.State>) {
        let viewer = UUID()
        let (states, continuation) = AsyncStream<RecordMeeting.State>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let (room, isNew) = rooms.withLock { rooms -> (Room, Bool) in
            if var occupied = rooms[standup.id] {
                continuation.yield(occupied.latest)
                occupied.viewers[viewer] = continuation
                rooms[standup.id] = occupied
                return (occupied.room, false)
            }
            let initial = RecordMeeting.State(standup: standup, isRecording: isRecording)
            let room = Room(RecordMeeting.self, initialState: initial)
            continuation.yield(initial)
            rooms[standup.id] = Occupied(room: room, latest: initial, viewers: [viewer: continuation])
            return (room, true)
        }
        continuation.onTermination = { [weak self] _ in self?.leave(standup.id, room: room.id, viewer: viewer) }
        if isNew { start(room, of: standup.id) }
        return (room, states)
    }

    /// Runs the meeting of `room` until it ends, telling its viewers each
    /// state; then saves it (when it was saved, not discarded) and closes
    /// the room.
    private func start(_ room: Room, of standupID: Standup.ID) {
        let env = self.env(standupID)
        Task {
            let output = Callback<RecordMeeting.State> { [weak self] state in
                self?.publish(state, in: room.id, of: standupID)
            }
            let ending = try? await RecordMeeting.run(
                initialState: room.initialState, proxy: room.proxy, env: env, output: output)
            if case .saved(let meeting)? = ending?.ending {
                await save(.addMeeting(meeting, to: standupID))
            }
            close(room.id, of: standupID)
        }
        Task { await room.proxy.send(.start) }
    }

    private func publish(_ state: RecordMeeting.State, in room: UUID, of standupID: Standup.ID) {
        rooms.withLock { rooms in
            guard var occupied = rooms[standupID], occupied.room.id == room else { return }
            occupied.latest = state
            rooms[standupID] = occupied
            for viewer in occupied.viewers.values { viewer.yield(state) }
        }
    }

    private func close(_ room: UUID, of standupID: Standup.ID) {
        let viewers = rooms.withLock { rooms -> [AsyncStream<RecordMeeting.State>.Continuation] in
            guard let occupied = rooms[standupID], occupied.room.id == room else { return [] }
            rooms[standupID] = nil
            return Array(occupied.viewers.values)
        }
        for viewer in viewers { viewer.finish() }
    }

    private func leave(_ standupID: Standup.ID, room: UUID, viewer: UUID) {
        rooms.withLock { rooms in
            guard rooms[standupID]?.room.id == room else { return }
            rooms[standupID]?.viewers[viewer] = nil
        }
    }
}
