// A meeting shared by everyone who shows it: one run per stand-up's
// meeting, whatever the number of viewers; every viewer sees the latest
// state when it asks, a late joiner the current one at once; an event from any viewer reaches
// the one run; a room nobody watches keeps running until the time is up
// and saves the meeting itself. A room keeps its meeting durable: a
// process that stops leaves its last checkpoint, the next one resumes it
// (the time away counted) and saves it once, under the room's id; a meeting
// whose time ran out meanwhile is saved with its transcript; a checkpoint
// of another format is dropped. A test clock drives the timer; nothing
// sleeps.

import Devices
import Foundation
import MeetingRooms
import Models
import Oak
import RecordMeeting
import StandupsProvider
import StandupsTestSupport
import Synchronization
import Testing

@Suite("Meeting rooms", .timeLimit(.minutes(1)))
struct MeetingRoomsTests {
    /// Two attendees, four seconds: two seconds each.
    static let standup = Standup(
        id: UUID(number: 0x200), title: "Pairing", durationSeconds: 4, theme: .sky,
        attendees: [Attendee(id: UUID(number: 0x201), name: "Ada"), Attendee(id: UUID(number: 0x202), name: "Linus")])

    /// The changes the rooms saved.
    final class Saved: Sendable {
        private let state = Mutex<(changes: [StandupChange], waiters: [CheckedContinuation<Void, Never>])>(([], []))
        var changes: [StandupChange] { state.withLock { $0.changes } }
        func save(_ change: StandupChange) {
            let waiters = state.withLock { state in
                state.changes.append(change)
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        /// Waits until something was saved.
        func first() async -> StandupChange? {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.changes.isEmpty { state.waiters.append(continuation) }
                    return !state.changes.isEmpty
                }
                if now { continuation.resume() }
            }
            return changes.first
        }
    }

    static func rooms(
        clock: WatchedClock, saved: Saved, checkpoints: MeetingCheckpoints = .none,
        now: Date = Date(timeIntervalSince1970: 0)
    ) -> MeetingRooms {
        MeetingRooms(
            env: RecordMeeting.Env(
                clock: clock, speech: .unavailable(.denied), sound: .silent,
                now: { now }, uuid: { UUID(number: 7) }),
            checkpoints: checkpoints,
            save: { saved.save($0) })
    }

    /// The first started state of a viewer: its first state is the room's
    /// current one, which may or may not be started yet.
    static func started(_ viewer: inout RoomStates.Iterator) async -> RecordMeeting.State? {
        var state = await viewer.next()
        while let current = state, !current.isStarted { state = await viewer.next() }
        return state
    }

    @Test func joiningOnlyWhenRunningNeverStartsAMeetingAndRunningIsTold() async {
        let rooms = Self.rooms(clock: WatchedClock(), saved: Saved())
        var running = rooms.running().makeAsyncIterator()
        #expect(await running.next() == [])
        #expect(rooms.joinRunning(Self.standup.id) == nil)
        #expect(rooms.count == 0)
        let (room, states) = rooms.join(Self.standup, isRecording: false)
        #expect(await running.next() == [Self.standup.id])
        let joined = rooms.joinRunning(Self.standup.id)
        #expect(joined?.room == room && rooms.viewers(of: Self.standup.id) == 2)
        await room.proxy.send(.endMeeting)
        await room.proxy.send(.confirmDiscard)
        var viewer = states.makeAsyncIterator()
        while let state = await viewer.next() { _ = state }
        #expect(await running.next() == [])
        _ = joined
    }

    @Test func everySessionReadsOneCopyOfTheMeetingsThatRunAndItEndsWithTheRooms() async {
        var rooms: MeetingRooms? = Self.rooms(clock: WatchedClock(), saved: Saved())
        let running = rooms?.runningMeetings()
        #expect(running != nil && running === rooms?.runningMeetings(), "one copy for every session")
        var states = running?.states.makeAsyncIterator()
        // A room that starts is in it; one that ends is not.
        let (room, roomStates) = rooms?.join(Self.standup, isRecording: false) ?? (nil, nil)
        while let state = await states?.next(), state.standups != [Self.standup.id] {}
        await room?.proxy.send(.endMeeting)
        await room?.proxy.send(.confirmDiscard)
        var viewer = roomStates?.makeAsyncIterator()
        while let state = await viewer?.next() { _ = state }
        while let state = await states?.next(), !state.standups.isEmpty {}
        // The rooms gone, the run ends.
        rooms = nil
        var last: RunningMeetings.State?
        while let state = await states?.next() { last = state }
        #expect(last?.isTerminal == true && running?.ending != nil)
    }

    @Test func viewersShareOneRunAndALateJoinerSeesTheStateNow() async {
        let clock = WatchedClock()
        let saved = Saved()
        let rooms = Self.rooms(clock: clock, saved: saved)
        let (first, firstStates) = rooms.join(Self.standup, isRecording: false)
        var a = firstStates.makeAsyncIterator()
        #expect(await Self.started(&a) != nil)
        await clock.waitForSleeps()

        // A second viewer joins the same run, and sees where it is.
        let (second, secondStates) = rooms.join(Self.standup, isRecording: true)
        #expect(second == first)
        #expect(rooms.count == 1)
        #expect(rooms.viewers(of: Self.standup.id) == 2)
        var b = secondStates.makeAsyncIterator()
        let now = await b.next()
        #expect(now?.isStarted == true)
        #expect(now?.isRecording == false, "the room was started without recording; joining does not change it")

        // Next from the second viewer reaches both.
        await second.proxy.send(.next)
        #expect(await a.next()?.speakerIndex == 1)
        #expect(await b.next()?.speakerIndex == 1)

        // One timer: a tick is one step for both.
        await clock.advance(by: .seconds(1))
        #expect(await a.next()?.secondsElapsed == 3)
        #expect(await b.next()?.secondsElapsed == 3)

        // Discarded by one: the room ends for both.
        await first.proxy.send(.endMeeting)
        await first.proxy.send(.confirmDiscard)
        while let state = await b.next() { _ = state }
        await rooms.stop()  // nothing to stop: waits until the room has closed
        #expect(rooms.count == 0)
        #expect(saved.changes.isEmpty)
    }

    @Test func aRoomNobodyWatchesRunsUntilTheTimeIsUpAndSavesTheMeeting() async {
        let clock = WatchedClock()
        let saved = Saved()
        let rooms = Self.rooms(clock: clock, saved: saved)
        let room: MeetingRooms.Room
        do {
            let (joined, states) = rooms.join(Self.standup, isRecording: false)
            room = joined
            var viewer = states.makeAsyncIterator()
            #expect(await Self.started(&viewer) != nil)
        }
        #expect(rooms.viewers(of: Self.standup.id) == 0, "dropping the states left the room")
        // The only viewer has gone; the meeting goes on.
        for _ in 0..<4 { await clock.advance(by: .seconds(1)) }
        let change = await saved.first()
        #expect(
            change
                == .addMeeting(
                    Meeting(id: room.id, date: Date(timeIntervalSince1970: 0), transcript: ""),
                    to: Self.standup.id))

        // The room is closed: the next meeting is a new one.
        let (next, states) = rooms.join(Self.standup, isRecording: false)
        var viewer = states.makeAsyncIterator()
        #expect(await viewer.next()?.secondsElapsed == 0)
        await next.proxy.send(.endMeeting)
        await next.proxy.send(.confirmDiscard)
        while let state = await viewer.next() { _ = state }
        await rooms.stop()
        #expect(rooms.count == 0)
    }

    @Test func aStoppedProcessLeavesItsMeetingForTheNextWhichResumesItAndSavesItOnce() async {
        let kept = MockCheckpoints()
        let saved = Saved()
        let clock = WatchedClock()
        let rooms = Self.rooms(clock: clock, saved: saved, checkpoints: .mock(kept))
        let (room, states) = rooms.join(Self.standup, isRecording: false)
        var viewer = states.makeAsyncIterator()
        #expect(await Self.started(&viewer) != nil)
        // Two seconds in, the second speaker: a milestone, written at once.
        await clock.advance(by: .seconds(1))
        await clock.advance(by: .seconds(1))
        await kept.waitUntil { kept in
            kept.count == 1
                && (try? MeetingRooms.checkpointFormat.decode(kept[0].checkpoint)).map {
                    $0.secondsElapsed == 2 && $0.speakerIndex == 1
                } == true
        }
        #expect(kept.kept.first?.room == room.id && kept.kept.first?.standup == Self.standup.id)
        // The process stops: the meeting is not saved, its checkpoint stays.
        await rooms.stop()
        #expect(saved.changes.isEmpty)
        #expect(kept.kept.count == 1)

        // The next process, a second later: the meeting goes on from three
        // seconds, in a room with the same id; a viewer joins it.
        let nextClock = WatchedClock()
        let next = Self.rooms(
            clock: nextClock, saved: saved, checkpoints: .mock(kept), now: Date(timeIntervalSince1970: 1))
        let resumed = try? await next.resume(now: Date(timeIntervalSince1970: 1))
        #expect(resumed?.map(\.id) == [room.id])
        let (joined, nextStates) = next.join(Self.standup, isRecording: false)
        #expect(joined.id == room.id)
        // Whoever joins at once sees where the meeting is, even before its
        // run has taken its first event (not where the checkpoint left it).
        #expect(joined.state.secondsElapsed == 3 && joined.state.speakerIndex == 1)
        var nextViewer = nextStates.makeAsyncIterator()
        let now = await Self.started(&nextViewer)
        #expect(now?.secondsElapsed == 3 && now?.speakerIndex == 1)
        await nextClock.advance(by: .seconds(1))
        #expect(
            await saved.first()
                == .addMeeting(
                    Meeting(id: room.id, date: Date(timeIntervalSince1970: 1), transcript: ""), to: Self.standup.id))
        // Saved: nothing is left to resume.
        await kept.waitUntil { $0.isEmpty }
        while let state = await nextViewer.next() { _ = state }
        #expect(saved.changes.count == 1)
    }

    @Test func aMeetingWhoseTimeRanOutWhileNoProcessRanIsSavedWithItsTranscript() async throws {
        let kept = MockCheckpoints()
        let saved = Saved()
        var meeting = RecordMeeting.State(standup: Self.standup, isRecording: true)
        meeting.secondsElapsed = 1
        meeting.transcript = "We shipped it"
        let checkpoint = try #require(MeetingCheckpoint(meeting, takenAt: Date(timeIntervalSince1970: 0)))
        let room = UUID(number: 0x300)
        try await MeetingCheckpoints.mock(kept).save(
            .init(
                standup: Self.standup.id, room: room, checkpoint: try MeetingRooms.checkpointFormat.encode(checkpoint)))
        let rooms = Self.rooms(
            clock: WatchedClock(), saved: saved, checkpoints: .mock(kept), now: Date(timeIntervalSince1970: 100))
        try await rooms.resume(now: Date(timeIntervalSince1970: 100))
        #expect(
            await saved.first()
                == .addMeeting(
                    Meeting(id: room, date: Date(timeIntervalSince1970: 100), transcript: "We shipped it"),
                    to: Self.standup.id))
        await kept.waitUntil { $0.isEmpty }
    }

    @Test func aCheckpointOfAnotherFormatIsDroppedNotMisread() async throws {
        let kept = MockCheckpoints()
        let other = CheckpointFormat<MeetingCheckpoint>(version: MeetingRooms.checkpointFormat.version + 1)
        let meeting = RecordMeeting.State(standup: Self.standup, isRecording: false)
        let checkpoint = try #require(MeetingCheckpoint(meeting, takenAt: Date(timeIntervalSince1970: 0)))
        try await MeetingCheckpoints.mock(kept).save(
            .init(standup: Self.standup.id, room: UUID(), checkpoint: try other.encode(checkpoint)))
        let rooms = Self.rooms(clock: WatchedClock(), saved: Saved(), checkpoints: .mock(kept))
        #expect(try await rooms.resume(now: Date(timeIntervalSince1970: 0)).isEmpty)
        #expect(rooms.count == 0)
        #expect(kept.kept.isEmpty)
    }

    @Test func aRoomGivesUpItsClaimWhenItsMeetingEndsNotWhenItsProcessStops() async {
        let released = Mutex<[Standup.ID]>([])
        let homes = MeetingHomes(claim: { _ in .here }, release: { id in released.withLock { $0.append(id) } })
        let clock = WatchedClock()
        let rooms = MeetingRooms(
            env: RecordMeeting.Env(
                clock: clock, speech: .unavailable(.denied), sound: .silent, now: { Date(timeIntervalSince1970: 0) },
                uuid: { UUID() }),
            homes: homes, save: { _ in })
        #expect(await rooms.home(of: Self.standup.id) == .here)
        var (room, states) = rooms.join(Self.standup, isRecording: false)
        var viewer = states.makeAsyncIterator()
        #expect(await Self.started(&viewer) != nil)
        // Stopped with its process: the claim goes with the process.
        await rooms.stop()
        #expect(released.withLock { $0 }.isEmpty)
        // Ended: given up.
        (room, states) = rooms.join(Self.standup, isRecording: false)
        viewer = states.makeAsyncIterator()
        #expect(await Self.started(&viewer) != nil)
        await room.proxy.send(.endMeeting)
        await room.proxy.send(.confirmDiscard)
        while let state = await viewer.next() { _ = state }
        await rooms.stop()
        #expect(released.withLock { $0 } == [Self.standup.id])
    }
}
