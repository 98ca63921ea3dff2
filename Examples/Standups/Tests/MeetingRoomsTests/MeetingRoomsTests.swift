// A meeting shared by everyone who shows it: one run per stand-up's
// meeting, whatever the number of viewers; every viewer sees the latest
// state when it asks, a late joiner the current one at once; an event from any viewer reaches
// the one run; a room nobody watches keeps running until the time is up
// and saves the meeting itself. A test clock drives the timer; nothing
// sleeps.

import Devices
import Foundation
import MeetingRooms
import Models
import RecordMeeting
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

    static func rooms(clock: WatchedClock, saved: Saved) -> MeetingRooms {
        MeetingRooms(
            env: RecordMeeting.Env(
                clock: clock, speech: .unavailable(.denied), sound: .silent,
                now: { Date(timeIntervalSince1970: 0) }, uuid: { UUID(number: 7) }),
            save: { saved.save($0) })
    }

    /// The first started state of a viewer: its first state is the room's
    /// current one, which may or may not be started yet.
    static func started(_ viewer: inout RoomStates.Iterator) async -> RecordMeeting.State? {
        var state = await viewer.next()
        while let current = state, !current.isStarted { state = await viewer.next() }
        return state
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
        #expect(rooms.count == 0)
        #expect(saved.changes.isEmpty)
    }

    @Test func aRoomNobodyWatchesRunsUntilTheTimeIsUpAndSavesTheMeeting() async {
        let clock = WatchedClock()
        let saved = Saved()
        let rooms = Self.rooms(clock: clock, saved: saved)
        do {
            let (_, states) = rooms.join(Self.standup, isRecording: false)
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
                    Meeting(id: UUID(number: 7), date: Date(timeIntervalSince1970: 0), transcript: ""),
                    to: Self.standup.id))

        // The room is closed: the next meeting is a new one.
        let (next, states) = rooms.join(Self.standup, isRecording: false)
        var viewer = states.makeAsyncIterator()
        #expect(await viewer.next()?.secondsElapsed == 0)
        await next.proxy.send(.endMeeting)
        await next.proxy.send(.confirmDiscard)
        while let state = await viewer.next() { _ = state }
        #expect(rooms.count == 0)
    }
}
