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
// save it too (saving a meeting twice keeps the first: the meeting's id is
// its room's). In the terminal there is one viewer; on the web, every
// browser session of the server shares the rooms.
//
// A room keeps its meeting durable while it runs: a checkpoint (the
// stand-up, the elapsed time, the speaker, the transcript so far, when it was
// taken) at every speaker change and at least every 5 seconds, written
// through the store's port by a watcher of the room (Oak's
// `keepCheckpoints`: a slow store never holds the meeting up). A process
// that starts resumes the meetings whose checkpoints it finds (`resume`):
// the time away counts as elapsed, and a meeting whose time ran out
// meanwhile is saved with the transcript it had. The checkpoint goes once
// the meeting is saved (durably) or discarded.

import Common
import Devices
import Foundation
import Logging
import Models
import Oak
import RecordMeeting
import StandupsProvider
import Synchronization

private let logger = Logger(label: "oak.standups.rooms")

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
        /// The task that runs the meeting and then saves it.
        var task: Task<Void, Never>?
    }

    private let env: @Sendable (Standup.ID) -> RecordMeeting.Env
    private let save: @Sendable (StandupChange) async -> Void
    private let checkpoints: MeetingCheckpoints
    private let homes: MeetingHomes
    private let isSaved: @Sendable (_ standup: Standup.ID, _ meeting: UUID) async -> Bool
    private let rooms = Mutex<[Standup.ID: Occupied]>([:])
    /// The followers of ``running()``.
    private let followers = Mutex<[UUID: AsyncStream<Set<Standup.ID>>.Continuation]>([:])
    /// The one copy of ``running()`` every session reads, once one has
    /// asked for it (``runningMeetings()``).
    private let sharedRunning = Mutex<LazySharedRun<RunningMeetings>?>(nil)

    /// The format of the rooms' checkpoints.
    public static let checkpointFormat = CheckpointFormat<MeetingCheckpoint>(version: 1)
    /// The longest a meeting's progress waits to be written.
    public static let checkpointInterval: Duration = .seconds(5)

    /// Rooms whose meetings run with `env` and are saved with `save`
    /// (which returns once the change is durable), kept durable through
    /// `checkpoints` while they run.
    public convenience init(
        env: RecordMeeting.Env, checkpoints: MeetingCheckpoints = .none, homes: MeetingHomes = .here,
        isSaved: @escaping @Sendable (_ standup: Standup.ID, _ meeting: UUID) async -> Bool = { _, _ in false },
        save: @escaping @Sendable (StandupChange) async -> Void
    ) {
        self.init(env: { _ in env }, checkpoints: checkpoints, homes: homes, isSaved: isSaved, save: save)
    }

    /// Rooms whose meetings run with ports of their own, `env(standupID)`
    /// (a web server's meeting listens to its own viewers' microphones),
    /// saved with `save` (which returns once the change is durable), kept
    /// durable through `checkpoints` while they run; the claim `homes`
    /// gave for a stand-up's meeting is given up when it ends. `isSaved`
    /// says whether a meeting is among its stand-up's saved meetings (a
    /// checkpoint left by a process that died after saving is not resumed).
    public init(
        env: @escaping @Sendable (Standup.ID) -> RecordMeeting.Env, checkpoints: MeetingCheckpoints = .none,
        homes: MeetingHomes = .here,
        isSaved: @escaping @Sendable (_ standup: Standup.ID, _ meeting: UUID) async -> Bool = { _, _ in false },
        save: @escaping @Sendable (StandupChange) async -> Void
    ) {
        self.env = env
        self.save = save
        self.checkpoints = checkpoints
        self.homes = homes
        self.isSaved = isSaved
    }

    /// Where a stand-up's meetings run (claimed for this process when
    /// nobody runs them): ask before starting or joining one.
    public func home(of standupID: Standup.ID) async -> MeetingHome {
        await homes.claim(standupID)
    }

    /// How many meetings run now.
    public var count: Int { rooms.withLock { $0.count } }

    /// The stand-ups whose meetings run here: now, then after each meeting
    /// that starts or ends (a follower that is slow gets the latest). A
    /// stand-up's screen says "in progress" and offers to join.
    public func running() -> AsyncStream<Set<Standup.ID>> {
        let (stream, continuation) = AsyncStream<Set<Standup.ID>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        followers.withLock { followers in
            followers[id] = continuation
            continuation.yield(rooms.withLock { Set($0.keys) })
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.followers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// The stand-ups whose meetings run here, as one shared run every
    /// session reads (observable; a stand-up's screen says "in progress"
    /// and offers to join): started by the first that asks, following
    /// ``running()`` once for all of them, ended with the rooms.
    public func runningMeetings() -> SharedRun<RunningMeetings> {
        sharedRunning.withLock { running in
            let shared =
                running
                ?? LazySharedRun(
                    SharedRun(initialState: RunningMeetings.State(), proxy: RunningMeetings.Proxy(bufferSize: 8)),
                    env: RunningMeetings.Env { [weak self] in self?.running() ?? AsyncStream { $0.finish() } },
                    first: .follow)
            running = shared
            return shared.attach()
        }
    }

    deinit {
        // The shared run's follower ends, and with it the run.
        followers.withLock { followers in
            for follower in followers.values { follower.finish() }
        }
    }

    /// Tells the followers of ``running()`` which meetings run now.
    private func publish() {
        followers.withLock { followers in
            let running = rooms.withLock { Set($0.keys) }
            for follower in followers.values { follower.yield(running) }
        }
    }

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
            let id = UUID()
            var initial = RecordMeeting.State(standup: standup, isRecording: isRecording)
            initial.meetingID = id
            let room = Room(id: id, meeting: SharedRun<RecordMeeting>(initialState: initial))
            rooms[standup.id] = Occupied(room: room, viewers: 1)
            return (room, true)
        }
        let states = self.states(of: room, standupID: standup.id)
        if isNew {
            publish()
            start(room, of: standup.id, with: .start)
        }
        return (room, states)
    }

    /// Joins the meeting of `standupID` if it runs here (never starts one):
    /// its room and its states from now, as ``join(_:isRecording:)``
    /// gives; `nil` when it does not run here.
    public func joinRunning(_ standupID: Standup.ID) -> (room: Room, states: RoomStates)? {
        let room = rooms.withLock { rooms -> Room? in
            guard var occupied = rooms[standupID] else { return nil }
            occupied.viewers += 1
            rooms[standupID] = occupied
            return occupied.room
        }
        guard let room else { return nil }
        return (room, states(of: room, standupID: standupID))
    }

    /// A counted viewer's states of `room` (counted in by the caller; the
    /// viewer leaves when they are dropped).
    private func states(of room: Room, standupID: Standup.ID) -> RoomStates {
        let viewer = Viewer { [weak self] in self?.leave(standupID, room: room.id) }
        return RoomStates(meeting: room.meeting, viewer: viewer)
    }

    /// Resumes the meetings that were in progress when the last process
    /// stopped, from their checkpoints (``MeetingCheckpoints/all``): each
    /// in a room of its own, which viewers then join; a meeting whose time
    /// ran out meanwhile is saved with the transcript it had. A meeting
    /// another live process runs (it holds the stand-up's claim) is left to
    /// it: with several processes on one database, calling this every few
    /// seconds is the failover — when the process that ran a meeting dies,
    /// its claim goes with its connection and the next process to ask
    /// resumes the meeting. A checkpoint of a meeting already saved, or of
    /// another format, is dropped (the latter said in the log). Returns the
    /// rooms resumed.
    ///
    /// - Parameters:
    ///   - standupID: Only this stand-up's meeting (before starting or
    ///     joining it: a meeting left by a process that died goes on rather
    ///     than a new one starting); every one when `nil`.
    ///   - now: Now, to count the time away; the meetings' port's `now`
    ///     when `nil`.
    @discardableResult
    public func resume(only standupID: Standup.ID? = nil, now: Date? = nil) async throws(StoreFailure) -> [Room] {
        var resumed: [Room] = []
        for kept in try await checkpoints.all() where standupID == nil || kept.standup == standupID {
            let checkpoint: MeetingCheckpoint
            do {
                checkpoint = try Self.checkpointFormat.decode(kept.checkpoint)
            } catch {
                logger.error(
                    "A meeting's checkpoint could not be read and was dropped.",
                    metadata: ["standup": "\(kept.standup)", "reason": "\(error)"])
                try? await checkpoints.remove(kept.standup, kept.room)
                continue
            }
            // Running here already, or in a live process: nothing to do.
            guard rooms.withLock({ $0[kept.standup] == nil }),
                case .here? = await homes.claimIfKnown(kept.standup)
            else { continue }
            if await isSaved(kept.standup, kept.room) {
                try? await checkpoints.remove(kept.standup, kept.room)
                await homes.release(kept.standup)
                continue
            }
            // The time away is counted before the room opens: a viewer who
            // joins before the run has taken its first event sees the
            // meeting where it is, not where the checkpoint left it.
            let now = now ?? env(kept.standup).now()
            let away = Int(max(now.timeIntervalSince(checkpoint.takenAt), 0))
            var initial = checkpoint.state.advanced(bySecondsAway: away)
            initial.meetingID = kept.room
            let room = Room(id: kept.room, meeting: SharedRun<RecordMeeting>(initialState: initial))
            let isNew = rooms.withLock { rooms in
                guard rooms[kept.standup] == nil else { return false }
                rooms[kept.standup] = Occupied(room: room, viewers: 0)
                return true
            }
            guard isNew else { continue }
            publish()
            start(room, of: kept.standup, with: .restored(secondsAway: 0))
            resumed.append(room)
        }
        return resumed
    }

    /// Stops every meeting in progress, each with a last checkpoint (so
    /// that the next process resumes it), and returns once they have
    /// stopped and their rooms have closed: a server's graceful stop, or a
    /// terminal app that quits in a meeting. A meeting that was being
    /// saved is saved first; one that has ended is waited for.
    public func stop() async {
        let running = rooms.withLock { rooms in rooms.values.map { ($0.room, $0.task) } }
        for (room, _) in running where room.state.ending == nil {
            room.proxy.cancel()
        }
        for (_, task) in running { await task?.value }
    }

    /// The room of `standupID`'s meeting in progress, if one runs here.
    public func room(of standupID: Standup.ID) -> Room? {
        rooms.withLock { $0[standupID]?.room }
    }

    /// Runs the meeting until it ends, its viewers watching its one state
    /// and its checkpoints written; then saves it (when it was saved, not
    /// discarded), forgets its checkpoint and closes the room.
    private func start(_ room: Room, of standupID: Standup.ID, with first: RecordMeeting.Event) {
        let env = self.env(standupID)
        let checkpoints = self.checkpoints
        let homes = self.homes
        let meeting = room.meeting
        let roomID = room.id
        // A meeting resumed from its checkpoint shows so in an inspector.
        let restoredFrom: String? = if case .restored = first { "the meeting's last checkpoint" } else { nil }
        let task = Task {
            async let kept: Void = meeting.keepCheckpoints(
                of: { MeetingCheckpoint($0, takenAt: env.now()) }, every: Self.checkpointInterval,
                at: { $0.speakerIndex != $1.speakerIndex || $0.ending != $1.ending }, clock: env.clock,
                write: { checkpoint in
                    let data = try Self.checkpointFormat.encode(checkpoint)
                    try await checkpoints.save(.init(standup: standupID, room: roomID, checkpoint: data))
                })
            let ending = try? await TransducerInspection.$restoredFrom.withValue(restoredFrom) {
                try await meeting.run(env: env)
            }
            await kept
            switch ending?.ending {
            case .saved(let saved)?:
                await save(.addMeeting(saved, to: standupID))
                // Saved durably: nothing to resume. A failure here leaves a
                // checkpoint whose meeting is saved: resuming it saves it
                // again under the same id, which changes nothing.
                try? await checkpoints.remove(standupID, roomID)
            case .discarded?:
                try? await checkpoints.remove(standupID, roomID)
            case .saving?, nil:
                // Stopped with the process: its last checkpoint stays, for
                // the next process to resume.
                break
            }
            close(roomID, of: standupID)
            // Ended here: the next meeting runs wherever it is started.
            if ending != nil { await homes.release(standupID) }
        }
        rooms.withLock { rooms in
            if rooms[standupID]?.room.id == roomID { rooms[standupID]?.task = task }
        }
        Task { await meeting.proxy.send(first) }
    }

    private func close(_ room: UUID, of standupID: Standup.ID) {
        let closed = rooms.withLock { rooms in
            guard rooms[standupID]?.room.id == room else { return false }
            rooms[standupID] = nil
            return true
        }
        if closed { publish() }
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
/// the sequence, its iterators and its subscriptions (``notifyEnding(_:with:)``)
/// are dropped.
public struct RoomStates: AsyncSequence, Sendable {
    /// A state of the meeting.
    public typealias Element = RecordMeeting.State
    /// Watching never fails: the sequence ends with the meeting.
    public typealias Failure = Never

    let meeting: SharedRun<RecordMeeting>
    let viewer: Viewer

    /// The viewer's iterator: the current state first, then the latest.
    public func makeAsyncIterator() -> Iterator {
        Iterator(states: meeting.states.makeAsyncIterator(), viewer: viewer)
    }

    /// Tells the run of `input` each time the meeting's ending changes
    /// (saving, saved, discarded), without a task of its own: `event`
    /// joins the run's events, and its update reads the meeting from the
    /// room (``MeetingRooms/Room/state``). The ticks of the meeting tell
    /// nothing. The viewer stays counted in the room for as long as the
    /// subscription lasts (``Oak/SharedRun/notify(_:with:whenChanged:)``).
    public func notifyEnding<Input: _ChannelInput>(
        _ input: Input, with event: Input.Event
    ) -> SharedRun<RecordMeeting>.Subscription where Input.Event: Sendable {
        let viewer = self.viewer
        return meeting.notify(input, with: event) { meeting in
            withExtendedLifetime(viewer) { meeting.ending }
        }
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

/// What of a meeting in progress is kept to resume it: the stand-up, the
/// time and the speaker, what was heard, whether it is recorded, whether it
/// was ending (being saved), and when it was taken. Versioned by
/// ``MeetingRooms/checkpointFormat``.
public struct MeetingCheckpoint: Codable, Equatable, Sendable {
    /// The stand-up as it was when the meeting started.
    public var standup: Standup
    /// Seconds since the start.
    public var secondsElapsed: Int
    /// Whose turn it was.
    public var speakerIndex: Int
    /// What was heard so far.
    public var transcript: String
    /// Whether the meeting is recorded.
    public var isRecording: Bool
    /// Whether it was ending (its time was up, or it was ended and saved):
    /// resumed, it is saved at once.
    public var isEnding: Bool
    /// When the checkpoint was taken.
    public var takenAt: Date

    /// The checkpoint of `meeting` at `takenAt`; `nil` once it has been
    /// saved or discarded (nothing to resume).
    public init?(_ meeting: RecordMeeting.State, takenAt: Date) {
        switch meeting.ending {
        case .saved, .discarded: return nil
        case .saving, nil: break
        }
        standup = meeting.standup
        secondsElapsed = meeting.secondsElapsed
        speakerIndex = meeting.speakerIndex
        transcript = meeting.transcript
        isRecording = meeting.isRecording
        isEnding = meeting.ending == .saving
        self.takenAt = takenAt
    }

    /// The meeting to resume: not started (`restored` starts it), its time
    /// up when it was ending.
    public var state: RecordMeeting.State {
        var state = RecordMeeting.State(standup: standup, isRecording: isRecording)
        state.secondsElapsed = isEnding ? standup.schedule.durationSeconds : secondsElapsed
        state.speakerIndex = speakerIndex
        state.transcript = transcript
        return state
    }

    /// Equal when all but the time taken are (a meeting that did not move
    /// is not written again).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.standup == rhs.standup && lhs.secondsElapsed == rhs.secondsElapsed
            && lhs.speakerIndex == rhs.speakerIndex && lhs.transcript == rhs.transcript
            && lhs.isRecording == rhs.isRecording && lhs.isEnding == rhs.isEnding
    }
}
