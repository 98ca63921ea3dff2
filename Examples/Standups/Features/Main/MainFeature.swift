// The root of the app: navigation as one stack of screens over the list
// (a stand-up, its meeting, a past meeting), each screen with at most one
// sheet or question of its own; the stand-ups provider, one run that every
// session of the process shares (`SharedStandups`), which every screen's
// changes go to — in order, through this session's outbox, one at a time —
// and whose state every screen shows; and quitting, which waits until
// every change is durable. The state holds handles only: each child's state
// (`Child.state`), each meeting's (its room's) and the stand-ups (the
// provider's) are kept once, by their runs, and read from there.

import Devices
import Foundation
import MeetingRooms
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupsList
import StandupsProvider

/// The app's root: one stack of screens over the list, the process's
/// stand-ups shown from their one copy, and quitting once all is saved.
public enum Main: EffectTransducer {
    /// A screen pushed over the list.
    public enum Screen: Equatable, Hashable, Sendable, Identifiable {
        /// A stand-up's screen: its run, whose state (`child.state`, the
        /// one copy) the views read.
        case detail(Child<StandupDetail>)
        /// A meeting: its room, the run shared by everyone who shows it
        /// (``MeetingRooms``). Its state is read from the room's one copy
        /// (`room.state`, kept after the run ended, while the meeting is
        /// being saved); the app's state does not copy it.
        case meeting(MeetingRooms.Room)
        /// A past meeting of a stand-up.
        case pastMeeting(Meeting.ID, of: Standup.ID)

        /// Identifies the screen on the stack.
        public var id: UUID {
            switch self {
            case .detail(let child): child.id
            case .meeting(let room): room.id
            case .pastMeeting(let meeting, _): meeting
            }
        }
    }

    /// The app's state.
    public struct State: Terminable, Equatable, Sendable {
        /// The provider's run, shared by every session of the process,
        /// from `start` on; its state, the stand-ups, is ``data``.
        public var provider: SharedRun<StandupsProvider>?
        /// This session's changes not yet handed to the provider, in the
        /// order they were made.
        public var outbox: [StandupChange]
        /// Whether a change is being handed to the provider (which makes a
        /// sender wait while many sessions' changes queue up).
        public var isDelivering: Bool
        /// The list (the bottom of the stack).
        public var list: StandupsList.State
        /// The screens over the list, the top one last.
        public var path: [Screen]
        /// Where the meeting of the stand-up on top runs, when it runs in
        /// another process (several processes on one database): it is not
        /// started here too.
        public var meetingElsewhere: String?
        /// Whether the user asked to quit while changes were not yet
        /// durable: the app quits once they are.
        public var isQuitting: Bool
        /// Whether the app has quit.
        public var hasQuit: Bool
        /// A place to open once the stand-ups are loaded (a web page opened
        /// at its address: ``Event/openPlace(_:)``).
        public var opening: Place?
        /// The process's one copy of the stand-ups whose meetings run
        /// (``MeetingRooms/runningMeetings()``), once started.
        public var runningMeetings: SharedRun<RunningMeetings>?
        /// Whether the meeting of a place opened is being looked for (a
        /// page opened at a meeting's address shows it at once when it
        /// runs).
        public var isOpeningMeeting: Bool
        /// Whether `start` was asked and the session is not yet attached to
        /// the provider.
        public var isStarting: Bool
        /// Whether the meeting asked for on a stand-up's screen is being
        /// started or joined: until its room is joined, or found to run in
        /// another process.
        public var isJoiningMeeting: Bool
        /// A stand-up just added from the list: it becomes the list's
        /// selection once the provider has it.
        public var addedToSelect: Standup.ID?
        /// The session's subscription to the provider's changes
        /// (``Event/providerChanged``), from `attached` on: told without a
        /// task of its own while the state holds it.
        public var providerSubscription: SharedRun<StandupsProvider>.Subscription?
        /// The subscription to the ending of the meeting on the stack
        /// (``Event/meetingChanged(_:)``); the session is counted among the
        /// room's viewers while the state holds it.
        public var roomSubscription: SharedRun<RecordMeeting>.Subscription?

        /// The app before `start`.
        public init() {
            provider = nil
            outbox = []
            isDelivering = false
            list = StandupsList.State()
            path = []
            meetingElsewhere = nil
            isQuitting = false
            hasQuit = false
            opening = nil
            isOpeningMeeting = false
            isStarting = false
            isJoiningMeeting = false
            addedToSelect = nil
            runningMeetings = nil
            providerSubscription = nil
            roomSubscription = nil
        }

        /// The stand-ups whose meetings run in this process now: their
        /// screens say so and offer to join. Read from the process's one
        /// copy, so a view that shows it is told when it changes.
        public var meetingsRunning: Set<Standup.ID> { runningMeetings?.state.standups ?? [] }

        /// The place the screen on top shows (a web page's address follows
        /// it).
        public var place: Place {
            switch top {
            case nil: .list
            case .detail(let child): .standup(child.state.standup.id)
            case .meeting(let room): .meeting(of: room.state.standup.id)
            case .pastMeeting(_, let standupID): .standup(standupID)
            }
        }

        /// The app ends when the user quits.
        public var isTerminal: Bool { hasQuit }

        /// The stand-ups: the provider's state, read from its one copy
        /// (``Oak/Child/state``); before `start`, an empty provider's.
        public var data: StandupsProvider.State { provider?.state ?? StandupsProvider.State() }

        /// Whether every change of this session is durable: handed to the
        /// provider, and written by it.
        public var isSaved: Bool { outbox.isEmpty && !isDelivering && data.isSaved }

        /// Whether changes shown are being written — not yet durable, and
        /// no write failed (a failure is said instead): what every front end
        /// says as "Saving…" rather than pass them off as kept.
        public var isSaving: Bool { data.phase == .loaded && data.failure == nil && !isSaved }

        /// The screen on top, if any (else the list is shown).
        public var top: Screen? { path.last }

        /// Whether the app shows what the last intent led to: the
        /// stand-ups loaded (or failed to), this session's changes handed
        /// to the provider, nothing asked for still on its way (attaching,
        /// a place to open, a meeting to join). A terminal reads keys typed
        /// ahead once it holds: the second Enter of `a X Enter Enter` opens
        /// the stand-up just added.
        public var isSettled: Bool {
            guard !isStarting, !isJoiningMeeting, !isOpeningMeeting, opening == nil else { return false }
            guard outbox.isEmpty, !isDelivering, addedToSelect == nil || provider == nil else { return false }
            switch data.phase {
            case .loaded, .failed: return true
            case .idle, .loading: return provider == nil && !isStarting
            }
        }

        var detailChildren: [Child<StandupDetail>] {
            path.compactMap { if case .detail(let child) = $0 { child } else { nil } }
        }
        /// The meeting shown, if any (at most one: a meeting is pushed over
        /// its stand-up, on top).
        var meetingRoom: UUID? {
            for case .meeting(let room) in path { return room.id }
            return nil
        }
    }

    /// A screen to open by its name: what a web page's address says.
    public enum Place: Equatable, Hashable, Sendable {
        /// The list.
        case list
        /// A stand-up's screen.
        case standup(Standup.ID)
        /// The meeting in progress of a stand-up, joined when it runs in
        /// this process (or is resumed by it); else the stand-up's screen
        /// (opening a place never starts a meeting, nor claims one).
        case meeting(of: Standup.ID)
    }

    /// What happens to the app.
    public enum Event: Equatable, Sendable {
        /// Open `place` once the stand-ups are loaded (over the list; a
        /// stand-up that is not there opens nothing).
        case openPlace(Place)
        /// Start the provider (load the stand-ups).
        case start
        /// The session is attached to the process's provider, and told of
        /// its changes while it holds the subscription.
        case attached(SharedRun<StandupsProvider>, SharedRun<StandupsProvider>.Subscription)
        /// The provider's state changed (``State/data`` reads it): every
        /// screen follows it.
        case providerChanged
        /// The provider took the change handed to it: the next one goes.
        case delivered
        /// An event of the list.
        case list(StandupsList.Event)
        /// Open a stand-up's screen.
        case open(Standup.ID)
        /// A stand-up's screen's output: its state, for what it asks of
        /// the app (`request`); the app acts on it and keeps no copy.
        /// Boxed (`indirect`), as is `meeting`: the state is large, and an
        /// event is held by value in the run's frames.
        indirect case detail(UUID, StandupDetail.State)
        /// This session joined a meeting's room: show it; told of its
        /// ending while it holds the subscription.
        case joinedMeeting(MeetingRooms.Room, SharedRun<RecordMeeting>.Subscription)
        /// The meeting of the place opened does not run here: its
        /// stand-up's screen stays.
        case meetingNotHere
        /// The process's one copy of the stand-ups whose meetings run.
        case runningMeetings(SharedRun<RunningMeetings>)
        /// The stand-up's meeting runs in the process at this address: say
        /// so, instead of running it here too.
        case meetingElsewhere(Standup.ID, address: String)
        /// A meeting's ending changed (saving, saved, discarded): the only
        /// states of the room the app acts on. Its other states are read
        /// from the room where they are shown.
        indirect case meeting(UUID, RecordMeeting.State)
        /// The ending of the meeting of room `id` changed (the room's
        /// notice): acted on as ``meeting(_:_:)`` with the room's state now.
        case meetingChanged(UUID)
        /// Back: the top screen goes (not a meeting in progress: it asks).
        case back
        /// Try the failed write again.
        case retrySave
        /// Try loading the stand-ups again (the store was away).
        case retryLoad
        /// Forget what an edit of this stand-up found changed elsewhere
        /// (the notice on its screen goes).
        case dismissConflicts(Standup.ID)
        /// Put the other side's values of this stand-up's conflicts back
        /// (saved as an edit), and forget the conflicts.
        case takeTheirs(Standup.ID)
        /// After a failed load: start again, empty or with the samples.
        case startOver(withSamples: Bool)
        /// Quit once every change is durable (asked again, at once); during
        /// a meeting, the meeting asks first.
        case quit
    }

    /// The ports of the provider and the features.
    public struct Env: Sendable {
        /// The stand-ups, one provider for every run of the app that has
        /// this port (every browser session of a server).
        public var standups: SharedStandups
        /// A stand-up's screen's port.
        public var detail: StandupDetail.Env
        /// The meetings in progress, shared by every run of the app that
        /// has this port (every browser session of a server).
        public var meetings: MeetingRooms

        /// The ports; meetings run with `meeting` in rooms of their own,
        /// saved through `standups` when nobody watches them end, kept
        /// durable through `checkpoints` while they run.
        public init(
            standups: StandupsProvider.Dependencies, detail: StandupDetail.Env, meeting: RecordMeeting.Env,
            checkpoints: MeetingCheckpoints = .none, homes: MeetingHomes = .here
        ) {
            self.init(
                standups: standups, detail: detail, meetings: { _ in meeting }, checkpoints: checkpoints, homes: homes)
        }

        /// The ports; each stand-up's meeting runs in a room of its own
        /// with `meetings(standupID)` (a web server's meeting listens to
        /// its own viewers' microphones), saved through `standups` when
        /// nobody watches it end, kept durable through `checkpoints` while
        /// it runs.
        public init(
            standups: StandupsProvider.Dependencies, detail: StandupDetail.Env,
            meetings: @escaping @Sendable (Standup.ID) -> RecordMeeting.Env, checkpoints: MeetingCheckpoints = .none,
            homes: MeetingHomes = .here
        ) {
            let shared = SharedStandups(standups)
            self.standups = shared
            self.detail = detail
            // A meeting nobody watched end is saved through the provider
            // too: in order with every session's changes, and tried again
            // until it is durable.
            self.meetings = MeetingRooms(
                env: meetings, checkpoints: checkpoints, homes: homes,
                isSaved: { standup, meeting in await shared.hasMeeting(meeting, of: standup) },
                save: { change in await shared.save(change) })
        }
    }

    /// Every event is processed before its sender goes on: a key's intent
    /// returns with the app showing its result.
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Self.Effect? {
        let before = state
        var effects: [Self.Effect] = []
        transition(&state, event, &effects)
        if state.hasQuit {
            state.path = []
            state.providerSubscription = nil
        }
        if let change = Self.Effect.children(
            \.detailChildren, from: before, to: state,
            start: { child in .run(child, env: { $0.detail }, output: { .detail(child.id, $0) }) })
        {
            effects.insert(change, at: 0)
        }
        // Leaving a meeting's screen leaves its room (the meeting goes on).
        if let room = before.meetingRoom, room != state.meetingRoom {
            effects.append(.cancelTask(Self.roomID))
            state.roomSubscription = nil
        }
        switch effects.count {
        case 0: return nil
        case 1: return effects[0]
        default: return .combine(effects)
        }
    }

    static func transition(_ state: inout State, _ event: Event, _ effects: inout [Self.Effect]) {
        switch event {
        case .start:
            guard state.provider == nil, !state.isStarting, !state.hasQuit else { return }
            state.isStarting = true
            // Attaches to the process's provider (the first session starts
            // it) and is told of its changes: no task follows it. Read in
            // `attached`, after the subscription: nothing published in
            // between is missed.
            effects.append(
                Effect { env, input in
                    let provider = env.standups.attach()
                    return .attached(provider, provider.notify(input, with: .providerChanged))
                })
            // And the meetings that run here (a stand-up's screen offers to
            // join its meeting in progress): the process's one copy, which
            // the screens read; nothing to follow.
            effects.append(Effect(action: { env in .runningMeetings(env.meetings.runningMeetings()) }))
        case .attached(let provider, let subscription):
            guard state.provider == nil, !state.hasQuit else { return }
            state.isStarting = false
            state.provider = provider
            state.providerSubscription = subscription
            deliverNext(&state, &effects)
            // What the provider has now (loaded already, for every session
            // but the first), as if told: next, as an event of its own.
            effects.append(.event(.providerChanged))
        case .openPlace(let place):
            state.opening = place
            openPending(&state, &effects)
        case .providerChanged:
            selectAdded(&state)
            followProvider(&state, &effects)
            openPending(&state, &effects)
            if state.isQuitting, state.isSaved { state.hasQuit = true }
        case .delivered:
            state.isDelivering = false
            selectAdded(&state)
            deliverNext(&state, &effects)
            // Every change handed over: a stand-up the provider did not
            // take (not loaded) is not coming to select.
            if state.outbox.isEmpty, !state.isDelivering { state.addedToSelect = nil }
            if state.isQuitting, state.isSaved { state.hasQuit = true }
        case .list(let event):
            guard state.path.isEmpty else { return }
            if let added = StandupsList.update(&state.list, event: event) {
                save(.add(added), &state, &effects)
                state.addedToSelect = added.id
                selectAdded(&state)
            }
        case .open(let id):
            guard state.path.isEmpty, state.list.adding == nil, let standup = state.data.standups[id: id] else {
                return
            }
            let initial = StandupDetail.State(standup: standup)
            state.path.append(.detail(Child(StandupDetail.self, initialState: initial)))
        case .detail(let id, let detail):
            // The screen's output: its state with what it asks of the app
            // (`request`); the screen's state itself is read from its
            // handle, not kept here.
            guard state.path.contains(where: { $0.id == id }) else { return }
            // Starting again (or anything else asked on the screen): where
            // the last meeting ran is old news; the next start says anew.
            if detail.isCheckingSpeech || detail.destination != nil { state.meetingElsewhere = nil }
            switch detail.request {
            case .save(let change):
                save(change, &state, &effects)
            case .deleteStandup(let standupID):
                save(.delete(standupID), &state, &effects)
                pop(id, &state)
            case .startMeeting(let standup, let isRecording):
                guard state.top?.id == id, state.meetingRoom == nil else { return }
                // Joins the meeting of this stand-up in progress, or starts
                // it, and follows its ending as long as the screen shows it;
                // what the meeting shows is read from the room.
                state.meetingElsewhere = nil
                state.isJoiningMeeting = true
                effects.append(
                    Effect(
                        id: Self.roomID,
                        operation: { env, input in
                            // A meeting runs in one process: the one that
                            // claimed the stand-up's meetings.
                            if case .elsewhere(let address) = await env.meetings.home(of: standup.id) {
                                try? await input.checkedSend(.meetingElsewhere(standup.id, address: address))
                                return
                            }
                            // A meeting of this stand-up that a process left
                            // (it stopped or died) goes on, rather than a
                            // new one starting.
                            // (Asked only when none runs here: a viewer
                            // who joins a running meeting reads no
                            // checkpoint, and its operation's task does
                            // not keep the deeper stack of `resume`.)
                            if env.meetings.room(of: standup.id) == nil {
                                _ = try? await env.meetings.resume(only: standup.id)
                            }
                            await show(env.meetings.join(standup, isRecording: isRecording), input)
                        }))
            case .openMeeting(let meetingID):
                guard state.top?.id == id else { return }
                state.path.append(.pastMeeting(meetingID, of: detail.standup.id))
            case .close:
                pop(id, &state)
            case nil:
                break
            }
        case .meetingElsewhere(let standupID, let address):
            state.isJoiningMeeting = false
            guard case .detail(let detail)? = state.top, detail.state.standup.id == standupID else { return }
            state.meetingElsewhere = address
        case .meetingNotHere:
            state.isOpeningMeeting = false
            state.isJoiningMeeting = false
        case .runningMeetings(let running):
            state.runningMeetings = running
        case .joinedMeeting(let room, let subscription):
            state.isOpeningMeeting = false
            state.isJoiningMeeting = false
            let meeting = room.state
            guard case .detail(let detail)? = state.top, detail.state.standup.id == meeting.standup.id,
                state.meetingRoom == nil
            else {
                // Not shown: the subscription goes with this event, and the
                // session leaves the room.
                return
            }
            state.path.append(.meeting(room))
            state.roomSubscription = subscription
            transition(&state, .meeting(room.id, meeting), &effects)
        case .meetingChanged(let id):
            for case .meeting(let room) in state.path where room.id == id {
                transition(&state, .meeting(id, room.state), &effects)
                return
            }
        case .meeting(let id, let meeting):
            guard state.path.contains(where: { $0.id == id }) else { return }
            switch meeting.ending {
            case .saved(let saved):
                save(.addMeeting(saved, to: meeting.standup.id), &state, &effects)
                closeSavedMeetings(&state)
            case .discarded:
                pop(id, &state)
            case .saving, nil:
                break
            }
        case .back:
            guard let top = state.top else {
                state.list.adding = nil
                return
            }
            if case .meeting(let room) = top {
                // A meeting is ended by its question, not by Back.
                if room.state.ending == nil {
                    effects.append(Effect(operation: { _, _ in await room.proxy.send(.endMeeting) }))
                }
                return
            }
            pop(top.id, &state)
        case .dismissConflicts(let id):
            if let provider = state.provider {
                effects.append(Effect(operation: { _, _ in await provider.proxy.send(.dismissConflicts(id)) }))
            }
        case .takeTheirs(let id):
            guard let provider = state.provider, let conflicts = state.data.conflicts[id],
                let current = state.data.standups[id: id]
            else { return }
            let theirs = current.takingTheirs(conflicts)
            if theirs != current { save(.edit(theirs, from: current), &state, &effects) }
            effects.append(Effect(operation: { _, _ in await provider.proxy.send(.dismissConflicts(id)) }))
        case .retrySave:
            if let provider = state.provider {
                effects.append(Effect(operation: { _, _ in await provider.proxy.send(.retry) }))
            }
        case .retryLoad:
            if let provider = state.provider {
                effects.append(Effect(operation: { _, _ in await provider.proxy.send(.retryLoad) }))
            }
        case .startOver(let withSamples):
            if let provider = state.provider {
                effects.append(
                    Effect(operation: { _, _ in await provider.proxy.send(.startOver(withSamples: withSamples)) }))
            }
        case .quit:
            // A meeting in progress asks first (save, discard or resume);
            // asked again while it asks, the app quits.
            if case .meeting(let room) = state.top, room.state.ending == nil, room.state.question == nil,
                !state.isQuitting
            {
                effects.append(Effect(operation: { _, _ in await room.proxy.send(.endMeeting) }))
                return
            }
            if state.isSaved || state.isQuitting {
                state.hasQuit = true
            } else {
                state.isQuitting = true
            }
        }
    }

    /// The operation that joins (or starts, or resumes) the meeting of the
    /// screen that asked; leaving the screen cancels it.
    static let roomID: EffectID = "meeting-room"

    /// The operation that hands the outbox's first change to the provider.
    static let deliveryID: EffectID = "delivery"

    /// Puts `change` in the outbox, for the provider, after the changes
    /// made before it.
    static func save(_ change: StandupChange, _ state: inout State, _ effects: inout [Self.Effect]) {
        state.outbox.append(change)
        deliverNext(&state, &effects)
    }

    /// Hands the outbox's first change to the provider, unless one is
    /// being handed (one at a time keeps this session's order among every
    /// session's changes). The provider's proxy makes the operation wait
    /// while it is busy: a change is slowed, never dropped.
    static func deliverNext(_ state: inout State, _ effects: inout [Self.Effect]) {
        guard !state.isDelivering, let provider = state.provider, !state.outbox.isEmpty else { return }
        let change = state.outbox.removeFirst()
        state.isDelivering = true
        effects.append(
            Effect(
                id: deliveryID,
                operation: { _, input in
                    await provider.proxy.send(.apply(change))
                    try? await input.checkedSend(.delivered)
                }))
    }

    /// Opens the place asked for, once the stand-ups are loaded.
    static func openPending(_ state: inout State, _ effects: inout [Self.Effect]) {
        guard state.data.phase == .loaded, let place = state.opening else { return }
        state.opening = nil
        switch place {
        case .list:
            return
        case .standup(let id):
            transition(&state, .open(id), &effects)
        case .meeting(let id):
            transition(&state, .open(id), &effects)
            guard case .detail? = state.top else { return }
            // Joined only when it runs here (or is resumed here): a page
            // opened at an address starts nothing and claims nothing.
            state.isOpeningMeeting = true
            effects.append(
                Effect(
                    id: Self.roomID,
                    operation: { env, input in
                        if env.meetings.room(of: id) == nil { _ = try? await env.meetings.resume(only: id) }
                        guard let joined = env.meetings.joinRunning(id) else {
                            try? await input.checkedSend(.meetingNotHere)
                            return
                        }
                        await show(joined, input)
                    }))
        }
    }

    /// Shows the room joined; the app is told each time its meeting's
    /// ending changes, as long as it holds the subscription (the meeting's
    /// screen shows it): no task follows the room.
    static func show(
        _ joined: (room: MeetingRooms.Room, states: RoomStates), _ input: Self.Effect.Input
    ) async {
        let subscription = joined.states.notifyEnding(input, with: .meetingChanged(joined.room.id))
        try? await input.checkedSend(.joinedMeeting(joined.room, subscription))
    }

    /// Selects the stand-up just added, once the provider has it.
    static func selectAdded(_ state: inout State) {
        guard let id = state.addedToSelect, let index = state.data.standups.index(id: id) else { return }
        state.list.selection = index
        state.addedToSelect = nil
    }

    /// Removes the screen `id` and every screen above it; nothing when it
    /// is not on the stack (a second pop of the same screen).
    static func pop(_ id: UUID, _ state: inout State) {
        guard let index = state.path.firstIndex(where: { $0.id == id }) else { return }
        state.path.removeSubrange(index...)
        state.meetingElsewhere = nil
    }

    /// Shows the provider's stand-ups on every screen: a stand-up's screen
    /// gets its new version, or goes when it was deleted; a past meeting
    /// that was deleted goes; a saved meeting's screen goes once the
    /// meeting is durable.
    static func followProvider(_ state: inout State, _ effects: inout [Self.Effect]) {
        guard state.data.phase == .loaded else { return }
        screens: for screen in state.path {
            switch screen {
            case .detail(let child):
                let detail = child.state
                guard let standup = state.data.standups[id: detail.standup.id] else {
                    // Deleted elsewhere while its form is open: the form
                    // stays and says so (nothing typed is dropped).
                    if case .edit = detail.destination {
                        if !detail.isDeletedElsewhere { effects.append(.send(.standupChanged(nil), to: child)) }
                        continue
                    }
                    // Deleted (here or elsewhere): it and the screens above go.
                    pop(child.id, &state)
                    break screens
                }
                if standup != detail.standup { effects.append(.send(.standupChanged(standup), to: child)) }
            case .pastMeeting(let meetingID, let standupID):
                if state.data.standups[id: standupID]?.meetings[id: meetingID] == nil { pop(screen.id, &state) }
            case .meeting:
                break
            }
        }
        closeSavedMeetings(&state)
        state.list.selection = min(state.list.selection, max(state.data.standups.count - 1, 0))
    }

    /// Closes the screen of a saved meeting once the provider has written
    /// it (the screen says "Saving…" until then).
    static func closeSavedMeetings(_ state: inout State) {
        for screen in state.path {
            guard case .meeting(let room) = screen else { continue }
            let meeting = room.state
            guard case .saved(let saved) = meeting.ending else { continue }
            let change = StandupChange.addMeeting(saved, to: meeting.standup.id)
            let stored = state.data.standups[id: meeting.standup.id]?.meetings[id: saved.id] != nil
            // Its stand-up deleted meanwhile: nothing to wait for.
            let gone = state.data.standups[id: meeting.standup.id] == nil
            if (stored && !state.data.isPending(change)) || gone { pop(room.id, &state) }
        }
    }
}
