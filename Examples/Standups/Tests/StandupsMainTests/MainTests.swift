// The whole app over mock ports: SyncUps' app scenarios (their names in the
// comments), navigation as one stack, and quitting after every change is
// durable.

import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsMain
import StandupsProvider
import StandupsTestSupport
import Synchronization
import Testing

@Suite("The app", .timeLimit(.minutes(1)))
@MainActor
struct MainTests {
    func started(_ store: MockStandupsStore, env: Main.Env? = nil) async throws -> App {
        let app = App(Main.self, initialState: Main.State(), env: env ?? appEnv(store), exhaustivity: .off)
        await app.send(.start) { $0.data.phase == .loaded }
        return app
    }

    // SyncUps: testDetailEdit.
    @Test func editingAStandupSavesItInTheStore() async throws {
        let store = MockStandupsStore([.mock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        try await app.detail(.edit) { if case .detail(let d) = $0.top { d.state.destination != nil } else { false } }
        try await app.detail(.form(.setTitle("Blob"))) { _ in true }
        try await app.detail(.doneEditing) { $0.data.standups.first?.title == "Blob" && $0.data.isSaved }
        #expect(store.standups.map(\.title) == ["Blob"])
        #expect(store.standups.first?.meetings == Standup.mock.meetings)
        await app.finish()
    }

    // SyncUps: testDelete.
    @Test func deletingAStandupEmptiesTheListAndPopsItsScreen() async throws {
        let store = MockStandupsStore([.mock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        try await app.detail(.delete) { if case .detail(let d) = $0.top { d.state.destination != nil } else { false } }
        try await app.detail(.confirmDeletion) { $0.path.isEmpty && $0.data.standups.isEmpty && $0.data.isSaved }
        #expect(app.state.data.standups.isEmpty)
        #expect(store.standups.isEmpty)
        await app.finish()
    }

    // SyncUps: testRecording.
    @Test func aRecordedMeetingClosesItselfAndTheStandupHasIt() async throws {
        let clock = WatchedClock()
        let log = SpeechLog()
        let sounds = SoundLog()
        let store = MockStandupsStore([threeInSix])
        let speech = SpeechClient.mock(results: ["I completed the project"], log: log)
        let app = try await started(store, env: appEnv(store, speech: speech, clock: clock, sounds: sounds))
        await app.send(.open(threeInSix.id)) { $0.path.count == 1 }
        try await app.detail(.startMeeting) { $0.meeting?.transcript == "I completed the project" }
        // The meeting is saved with its room's id (saved twice, by the room
        // and by the app, it is one meeting).
        let room = try #require(app.state.top?.id)
        for _ in 1...6 { await clock.advance(by: .seconds(1)) }
        await app.wait { $0.path.count == 1 && $0.data.isSaved }
        let meeting = Meeting(
            id: room, date: Date(timeIntervalSince1970: 1_234_567_890), transcript: "I completed the project")
        #expect(app.state.data.standups[id: threeInSix.id]?.meetings.elements == [meeting])
        #expect(store.standups.first?.meetings.elements == [meeting])
        #expect(sounds.plays == 2)
        #expect(log.starts == 1 && !log.isRunning)
        await app.finish()
    }

    @Test func backFromAMeetingAsksAndDiscardingClosesIt() async throws {
        let log = SpeechLog()
        let store = MockStandupsStore([threeInSix])
        let speech = SpeechClient.mock(staysOpen: true, log: log)
        let env = appEnv(store, speech: speech)
        let app = try await started(store, env: env)
        await app.send(.open(threeInSix.id)) { $0.path.count == 1 }
        try await app.detail(.startMeeting) { $0.meeting?.recognition == .listening }
        await app.send(.back) { $0.meeting?.question == .endMeeting(isDiscardable: true) }
        try await app.meeting(.confirmDiscard) { $0.path.count == 1 }
        // The room's run has ended (its recogniser with it) once its task
        // has: wait for it rather than race it.
        await env.meetings.stop()
        #expect(store.standups.first?.meetings.isEmpty == true)
        #expect(log.starts == 1 && !log.isRunning)
        await app.finish()
    }

    @Test func aPastMeetingOpensOverItsStandupAndBackPopsExactlyOneScreen() async throws {
        let store = MockStandupsStore([.mock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        let meeting = Standup.mock.meetings[0]
        try await app.detail(.openMeeting(meeting.id)) { $0.path.count == 2 }
        #expect(app.state.top == .pastMeeting(meeting.id, of: Standup.mock.id))
        await app.send(.back) { $0.path.count == 1 }
        // Opened again: the same screen again.
        try await app.detail(.openMeeting(meeting.id)) { $0.path.count == 2 }
        await app.send(.back) { $0.path.count == 1 }
        await app.send(.back) { $0.path.isEmpty }
        await app.send(.back) { $0.path.isEmpty }
        await app.finish()
    }

    @Test func aStandupDeletedElsewhereClosesItsScreens() async throws {
        let store = MockStandupsStore([.mock, .engineeringMock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        try await app.detail(.openMeeting(Standup.mock.meetings[0].id)) { $0.path.count == 2 }
        store.changeElsewhere(.delete(Standup.mock.id))
        await app.wait { $0.path.isEmpty && $0.data.standups.count == 1 }
        await app.finish()
    }

    @Test func quittingWaitsUntilEveryChangeIsDurable() async throws {
        let failure = StoreFailure(summary: "The disk is full.", detail: "disk full")
        let store = MockStandupsStore([], saveFailures: [failure])
        // The provider's retries' timer never fires (a clock nobody runs):
        // on a loaded machine its 1-second retry once came before `quit`.
        let app = try await started(store, env: appEnv(store, standups: .mock(store, clock: TestClock())))
        await app.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await app.send(.list(.form(.setTitle("Kept")))) { _ in true }
        await app.send(.list(.confirmAdd)) { $0.data.failure == failure }
        await app.send(.quit) { $0.isQuitting }
        #expect(!app.state.hasQuit)
        await app.send(.retrySave) { $0.hasQuit }
        #expect(store.standups.map(\.title) == ["Kept"])
        await app.finish()
    }

    @Test func quittingAgainQuitsAtOnce() async throws {
        let failure = StoreFailure(summary: "The disk is full.", detail: "disk full")
        let store = MockStandupsStore([], saveFailures: [failure])
        // The provider's retries' timer never fires: the failure stays.
        let app = try await started(store, env: appEnv(store, standups: .mock(store, clock: TestClock())))
        await app.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await app.send(.list(.confirmAdd)) { $0.data.failure == failure }
        await app.send(.quit) { $0.isQuitting }
        await app.send(.quit) { $0.hasQuit }
        await app.finish()
    }

    @Test func everySessionOfAProcessSharesOneProviderAndSeesTheOthersChanges() async throws {
        let store = MockStandupsStore([.mock])
        let env = appEnv(store)
        let first = try await started(store, env: env)
        let second = try await started(store, env: env)
        #expect(first.state.provider != nil && first.state.provider == second.state.provider)
        await first.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await first.send(.list(.form(.setTitle("Shared")))) { _ in true }
        await first.send(.list(.confirmAdd)) { _ in true }
        // The other session shows it from the one copy, before it is saved.
        await second.wait { $0.data.standups.map(\.title) == ["Design", "Shared"] }
        await first.wait { $0.isSaved }
        #expect(store.standups.map(\.title) == ["Design", "Shared"])
        await first.finish()
        await second.finish()
    }

    @Test func everySessionKnowsWhichMeetingsRunSoAStandupsScreenOffersToJoin() async throws {
        let store = MockStandupsStore([threeInSix])
        let env = appEnv(store, speech: .mock(staysOpen: true, log: SpeechLog()))
        let first = try await started(store, env: env)
        let other = try await started(store, env: env)
        await first.send(.open(threeInSix.id)) { $0.path.count == 1 }
        try await first.detail(.startMeeting) { $0.meeting != nil }
        await other.wait { $0.meetingsRunning == [threeInSix.id] }
        await first.send(.back) { $0.meeting?.question == .endMeeting(isDiscardable: true) }
        try await first.meeting(.confirmDiscard) { $0.path.count == 1 }
        await other.wait { $0.meetingsRunning.isEmpty }
        await first.finish()
        await other.finish()
    }

    @Test func anEditMeetingAnotherIsMergedTheConflictIsSaidAndTheirsCanBeTakenBack() async throws {
        let store = MockStandupsStore([.mock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        try await app.detail(.edit) { Self.form(of: $0) != nil }
        // Meanwhile, another process changes its title and theme.
        var theirs = Standup.mock
        theirs.title = "Theirs"
        theirs.theme = .navy
        store.changeElsewhere(.update(theirs))
        await app.wait { $0.data.standups.first?.title == "Theirs" }
        try await app.detail(.form(.setTitle("Mine"))) { Self.form(of: $0)?.standup.title == "Mine" }
        try await app.detail(.doneEditing) { Self.form(of: $0) == nil }
        // Both edits kept (their theme, my title), and the screen says whose
        // title was replaced.
        await app.wait { $0.isSaved && $0.data.conflicts[Standup.mock.id] == [.title(theirs: "Theirs")] }
        #expect(store.standups.first?.title == "Mine" && store.standups.first?.theme == .navy)
        // "Use theirs" puts their title back, and the notice goes.
        await app.send(.takeTheirs(Standup.mock.id)) {
            $0.isSaved && $0.data.conflicts.isEmpty && $0.data.standups.first?.title == "Theirs"
        }
        #expect(store.standups.first?.title == "Theirs" && store.standups.first?.theme == .navy)
        await app.finish()
    }

    @Test func aStandupDeletedElsewhereWhileItsFormIsOpenKeepsWhatWasTyped() async throws {
        let store = MockStandupsStore([.mock])
        let app = try await started(store)
        await app.send(.open(Standup.mock.id)) { $0.path.count == 1 }
        try await app.detail(.edit) { Self.form(of: $0) != nil }
        try await app.detail(.form(.setTitle("Typed"))) { Self.form(of: $0)?.standup.title == "Typed" }
        store.changeElsewhere(.delete(Standup.mock.id))
        // The form stays, and says so.
        await app.wait { state in
            guard case .detail(let child)? = state.top else { return false }
            return child.state.isDeletedElsewhere && state.data.standups.isEmpty
        }
        #expect(Self.form(of: app.state)?.standup.title == "Typed")
        // Done adds it back (without its meetings), and says that too.
        try await app.detail(.doneEditing) { $0.isSaved && $0.data.conflicts[Standup.mock.id] == [.deletedElsewhere] }
        #expect(store.standups.map(\.title) == ["Typed"])
        #expect(store.standups.first?.meetings.isEmpty == true)
        await app.send(.dismissConflicts(Standup.mock.id)) { $0.data.conflicts.isEmpty }
        // Deleted elsewhere while its form is open, then let go: the screen
        // closes.
        try await app.detail(.edit) { Self.form(of: $0) != nil }
        store.changeElsewhere(.delete(Standup.mock.id))
        await app.wait { state in
            guard case .detail(let child)? = state.top else { return false }
            return child.state.isDeletedElsewhere
        }
        try await app.detail(.cancelEdit) { $0.path.isEmpty }
        await app.finish()
    }

    /// The form open on the stand-up's screen on top, if one is.
    static func form(of state: Main.State) -> StandupForm.State? {
        guard case .detail(let child)? = state.top, case .edit(let form) = child.state.destination else { return nil }
        return form
    }

    @Test func manySessionsChangesAreAllSavedEachSessionsInItsOrder() async throws {
        let store = MockStandupsStore([])
        let env = appEnv(store)
        let sessions = 8
        let changes = 12
        var apps: [App] = []
        for _ in 0..<sessions { apps.append(try await started(store, env: env)) }
        // Every session adds its stand-ups as fast as it can: more changes
        // at once than the provider's buffer holds.
        var adding: [Task<Void, Never>] = []
        for session in 0..<sessions {
            let app = apps[session]
            adding.append(
                Task { @MainActor in
                    for change in 0..<changes {
                        let id = UUID(number: 1 + session * 100 + change)
                        await app.send(.list(.add(id, attendee: UUID(number: 50_000 + session * 100 + change))))
                        await app.send(.list(.form(.setTitle("\(session)-\(change)"))))
                        await app.send(.list(.confirmAdd))
                    }
                })
        }
        for task in adding { await task.value }
        for app in apps { await app.wait { $0.isSaved && $0.data.standups.count == sessions * changes } }
        let titles = store.standups.map(\.title)
        #expect(titles.count == sessions * changes)
        for session in 0..<sessions {
            let own = titles.filter { $0.hasPrefix("\(session)-") }
            #expect(own == (0..<changes).map { "\(session)-\($0)" })
        }
        for app in apps { await app.finish() }
    }

    @Test func closingTheSharedProviderWaitsUntilEveryChangeIsDurable() async throws {
        let store = MockStandupsStore([])
        let (gate, open) = AsyncStream<Void>.makeStream()
        let gated = StandupsProvider.Dependencies.mock(store)
        let env = appEnv(
            store,
            standups: StandupsProvider.Dependencies(
                load: gated.load,
                save: { changes throws(StoreFailure) in
                    for await _ in gate { break }
                    return try await gated.save(changes)
                },
                startOver: gated.startOver))
        let app = try await started(store, env: env)
        await app.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await app.send(.list(.confirmAdd)) { !$0.data.writing.isEmpty }
        await app.finish()
        let closed = Task { await env.standups.close(waitingAtMost: .seconds(60)) }
        #expect(store.standups.isEmpty)
        open.yield()
        #expect(await closed.value == [])
        #expect(store.standups.map(\.id) == [UUID(number: 1)])
        #expect(env.standups.run.ending != nil)
    }

    /// A store that is away when the app stops is waited for: the
    /// provider goes on trying it, and closing returns once it took the
    /// change — a failed write does not end the wait.
    @Test func closingWaitsForAStoreThatIsAway() async throws {
        let store = MockStandupsStore([])
        let clock = TestClock()
        let failures = Mutex(1)
        let mock = StandupsProvider.Dependencies.mock(store)
        let env = appEnv(
            store,
            standups: StandupsProvider.Dependencies(
                load: mock.load,
                save: { changes throws(StoreFailure) in
                    let away = failures.withLock { failures in
                        defer { failures -= 1 }
                        return failures > 0
                    }
                    if away { throw StoreFailure(summary: "The database is away.", detail: "The database is away.") }
                    return try await mock.save(changes)
                },
                startOver: mock.startOver, clock: clock))
        let app = try await started(store, env: env)
        await app.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await app.send(.list(.confirmAdd)) { $0.data.failure != nil }
        await app.finish()
        let closed = Task { await env.standups.close(waitingAtMost: .seconds(60)) }
        // The retry's timer, on the test clock.
        while store.standups.isEmpty { await clock.advance(by: .seconds(1)) }
        #expect(await closed.value == [])
        #expect(store.standups.map(\.id) == [UUID(number: 1)])
    }

    /// What the store has not taken by the limit is handed back, in order,
    /// for the stopping process to report; the provider's run ends.
    @Test func closingHandsBackWhatTheStoreDidNotTakeByTheLimit() async throws {
        let store = MockStandupsStore([])
        let mock = StandupsProvider.Dependencies.mock(store)
        let env = appEnv(
            store,
            standups: StandupsProvider.Dependencies(
                load: mock.load,
                save: { _ throws(StoreFailure) in
                    throw StoreFailure(summary: "The disk is full.", detail: "The disk is full.")
                },
                startOver: mock.startOver, clock: TestClock()))
        let app = try await started(store, env: env)
        await app.send(.list(.add(UUID(number: 1), attendee: UUID(number: 2)))) { $0.list.adding != nil }
        await app.send(.list(.confirmAdd)) { $0.data.failure != nil }
        let added = try #require(app.state.data.standups.first)
        await app.finish()
        let unsaved = await env.standups.close(waitingAtMost: .seconds(60), clock: ImmediateClock())
        #expect(unsaved.map(\.standupID) == [added.id])
        #expect(unsaved.first?.summary.hasPrefix("add the stand-up \"") == true)
        #expect(env.standups.run.ending != nil)
        #expect(store.standups.isEmpty)
    }

    @Test func aMeetingThatRunsInAnotherProcessIsSaidAndNotStartedHereToo() async throws {
        let store = MockStandupsStore([threeInSix])
        let elsewhere = "the terminal app on ada.local"
        let env = Main.Env(
            standups: .mock(store), detail: StandupDetail.Env(speech: .unavailable(.denied)),
            meeting: RecordMeeting.Env(
                clock: WatchedClock(), speech: .unavailable(.denied), sound: .silent, now: { Date() },
                uuid: { UUID() }),
            homes: MeetingHomes(claim: { _ in .elsewhere(elsewhere) }))
        let app = try await started(store, env: env)
        await app.send(.open(threeInSix.id)) { $0.path.count == 1 }
        try await app.detail(.startMeeting) {
            if case .detail(let d) = $0.top { d.state.destination != nil } else { false }
        }
        try await app.detail(.continueWithoutRecording) { $0.meetingElsewhere == elsewhere }
        #expect(app.state.path.count == 1 && env.meetings.count == 0)
        // Back: the notice goes with the screen.
        await app.send(.back) { $0.path.isEmpty && $0.meetingElsewhere == nil }
        await app.finish()
    }
}
