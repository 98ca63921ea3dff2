// The root explored by OakTesting's StateGraph: starting (attached to the
// process's provider), the list's form, a stand-up's screen and what it
// asks of the root (save, delete, a past meeting, a meeting started and
// ended), places opened by address, and quitting — with a store that works
// and one that is away for a write (quitting waits until "Try again" has
// written it). Each run has its own provider and
// meeting rooms; a step ends once the provider and the meeting's room have
// taken what was sent and the root has followed them (`isAtRest`).

import Clocks
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupDetail
import StandupsMain
import StandupsProvider
import Testing

@Suite("The root, every transition", .timeLimit(.minutes(4)))
@MainActor
struct MainGraphTests {
    static let past = Meeting(id: UUID(number: 0xAE), date: Date(timeIntervalSince1970: 0), transcript: "Hi")
    static let daily = Standup(
        id: UUID(number: 0xDA), title: "Daily", attendees: [Attendee(id: UUID(number: 0xDB), name: "Ada")],
        meetings: [past])
    static var renamed: Standup {
        var standup = daily
        standup.title = "Daily sync"
        return standup
    }
    static let saved = Meeting(id: UUID(number: 0xAF), date: Date(timeIntervalSince1970: 60), transcript: "")

    /// Names the stand-up's screen or the meeting on top in a sample
    /// event: each run makes its own (``resolve(_:_:)`` puts in its id).
    static let placeholder = UUID(number: 0xF00)

    /// The stand-up's screen on top asking `request` of the root.
    static func detail(_ request: StandupDetail.Request) -> Main.Event {
        var state = StandupDetail.State(standup: daily)
        state.request = request
        return .detail(placeholder, state)
    }

    /// The meeting on top ending as `ending`.
    static func meeting(_ ending: RecordMeeting.Ending) -> Main.Event {
        var state = RecordMeeting.State(standup: daily, isRecording: false)
        state.ending = ending
        return .meeting(placeholder, state)
    }

    static let events: [Main.Event] = [
        .start, .openPlace(.standup(daily.id)), .openPlace(.meeting(of: daily.id)),
        .list(.add(UUID(number: 0x7E), attendee: UUID(number: 0x7F))), .list(.form(.setTitle("Retro"))),
        .list(.confirmAdd), .list(.dismissAdd), .open(daily.id), .back,
        detail(.save(.edit(renamed, from: daily))), detail(.deleteStandup(daily.id)),
        detail(.startMeeting(daily, isRecording: false)), detail(.openMeeting(past.id)), detail(.close),
        meeting(.saving), meeting(.saved(saved)), meeting(.discarded), .meetingElsewhere(daily.id, address: "10.0.0.2"),
        .retrySave, .quit,
    ]

    /// The sample `event` as sent in `state`: a placeholder gets the id of
    /// the screen on top, and the screen's state now, with the request or
    /// the ending of the sample.
    static func resolve(_ state: Main.State, _ event: Main.Event) -> Main.Event {
        switch (event, state.top) {
        case (.detail(placeholder, let sample), .detail(let child)?):
            var detail = child.state
            detail.request = sample.request
            return .detail(child.id, detail)
        case (.meeting(placeholder, let sample), .meeting(let room)?):
            var meeting = room.state
            meeting.ending = sample.ending
            return .meeting(room.id, meeting)
        default:
            return event
        }
    }

    /// What the root itself keeps: the screens (not their states, kept by
    /// their runs), the form, the outbox, what it waits for, quitting; and
    /// whether its changes are durable.
    struct Identity: Hashable, CustomStringConvertible {
        var screens: [String]
        var adding: Bool
        var outbox: Int
        var delivering: Bool
        /// Whether every change is durable (the provider's state, read
        /// where the run rests).
        var saved: Bool
        var attached: Bool
        var elsewhere: Bool
        var opening: Main.Place?
        var quitting: Bool
        var quit: Bool

        init(_ state: Main.State) {
            screens = state.path.map { screen in
                switch screen {
                case .detail: "stand-up"
                case .meeting: "meeting"
                case .pastMeeting: "past meeting"
                }
            }
            adding = state.list.adding != nil
            outbox = state.outbox.count
            delivering = state.isDelivering
            saved = state.isSaved
            attached = state.provider != nil
            elsewhere = state.meetingElsewhere != nil
            opening = state.opening
            quitting = state.isQuitting
            quit = state.hasQuit
        }

        var description: String {
            var parts = [(["list"] + screens).joined(separator: " > ")]
            if !attached { parts.append("not started") }
            if adding { parts.append("adding") }
            if outbox > 0 { parts.append("outbox \(outbox)") }
            if delivering { parts.append("delivering") }
            if !saved, !delivering, outbox == 0 { parts.append("unsaved") }
            if elsewhere { parts.append("meeting elsewhere") }
            if let opening { parts.append("opening \(opening)") }
            if quitting { parts.append("quitting") }
            if quit { parts.append("quit") }
            return parts.joined(separator: " · ")
        }
    }

    static func name(_ event: Main.Event) -> String {
        switch event {
        case .start: "start"
        case .attached: "attached"
        case .providerChanged: "providerChanged"
        case .delivered: "delivered"
        case .openPlace(.meeting): "openMeetingPlace"
        case .openPlace: "openPlace"
        case .list(.add): "add"
        case .list(.form): "form"
        case .list(.confirmAdd): "confirmAdd"
        case .list(.dismissAdd): "dismissAdd"
        case .list: "list"
        case .open: "open"
        case .detail(_, let detail):
            switch detail.request {
            case .save?: "save"
            case .deleteStandup?: "delete"
            case .startMeeting?: "startMeeting"
            case .openMeeting?: "openPastMeeting"
            case .close?: "close"
            case nil: "detail"
            }
        case .joinedMeeting: "joinedMeeting"
        case .meetingChanged: "meetingChanged"
        case .meetingNotHere: "meetingNotHere"
        case .runningMeetings: "runningMeetings"
        case .meetingElsewhere: "meetingElsewhere"
        case .meeting(_, let meeting):
            switch meeting.ending {
            case .saving?: "meetingSaving"
            case .saved?: "meetingSaved"
            case .discarded?: "meetingDiscarded"
            case nil: "meeting"
            }
        case .back: "back"
        case .retrySave: "retrySave"
        case .retryLoad: "retryLoad"
        case .dismissConflicts: "dismissConflicts"
        case .takeTheirs: "takeTheirs"
        case .startOver: "startOver"
        case .quit: "quit"
        }
    }

    /// Whether the root waits for nothing: attached (once started), the
    /// stand-ups loaded, the meeting asked for joined, the provider and the
    /// meeting's room have taken what was sent, and the root has followed
    /// their states.
    static func isAtRest(_ state: Main.State) -> Bool {
        guard !state.isStarting, !state.isJoiningMeeting, !state.isOpeningMeeting else { return false }
        if let provider = state.provider {
            // Loading, which the provider's run starts in a task of its
            // own, has ended (the mock store answers at once).
            guard provider.isAtRest, provider.state.phase != .idle, provider.state.phase != .loading else {
                return false
            }
        }
        return state.path.allSatisfy { screen in
            if case .meeting(let room) = screen { room.meeting.isAtRest } else { true }
        }
    }

    static func children(_ state: Main.State) -> [any ExploredChild] {
        state.path.compactMap { screen in
            if case .detail(let child) = screen { child } else { nil }
        }
    }

    @Test(arguments: ["working", "away"])
    func everyTransitionIsTaken(store: String) async {
        let graph = await StateGraph.explore(
            Main.self, from: Main.State(), events: Self.events,
            env: {
                let away = StoreFailure(summary: "The database is away.", detail: "The database is away.")
                let contents = MockStandupsStore(
                    [Self.daily], saveFailures: store == "away" ? [away] : [])
                // Its retries' timer never fires (a clock nobody runs):
                // "Try again" (`retrySave`) is what writes again.
                return appEnv(contents, standups: .mock(contents, clock: TestClock()))
            },
            identity: Identity.init, children: Self.children, isAtRest: Self.isAtRest, resolving: Self.resolve,
            node: { Identity($0).description }, eventName: Self.name,
            allowing: { state, event in
                // Started first; the form only over the list.
                if state.provider == nil { return event == .start || event == .openPlace(.standup(Self.daily.id)) }
                if case .list = event { return state.path.isEmpty }
                return true
            }, maxStates: 300, maxDepth: 12)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage (\(store)): \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found >= 20)
    }
}
