// The code sample of Sources/Oak/Oak.docc/SharingARun.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippet as written, plus checks. Keep the two in
// step: change the sample here, change it in the article.

import Foundation
import Oak
import Observation
import Testing

enum DocSharing {
    enum Meeting: Transducer {
        struct State: Terminable, Equatable, Sendable {
            var speakers: [String]
            var current = 0
            var isTerminal: Bool { current == speakers.count }
        }
        enum Event: Sendable { case next }

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .next: state.current += 1
            }
            return state.current
        }
    }

    /// What is kept of a meeting to resume it.
    struct MeetingCheckpoint: Codable, Equatable, Sendable {
        var speakers: [String]
        var current: Int
        init(_ state: Meeting.State) {
            speakers = state.speakers
            current = state.current
        }
    }

    /// The app's port for checkpoints: here, in memory.
    actor Store {
        private(set) var saved: [Data] = []
        func save(_ checkpoint: Data) { saved.append(checkpoint) }
    }

    enum Viewer: EffectTransducer {
        struct Env: Sendable { var room: SharedRun<Meeting> }
        struct State: NonTerminal, Equatable, Sendable {
            var room: SharedRun<Meeting>?
            var subscription: SharedRun<Meeting>.Subscription?
            var finished = false
        }
        enum Event: Sendable {
            case start
            case joined(SharedRun<Meeting>, SharedRun<Meeting>.Subscription)
            case meetingChanged
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch event {
            case .start:
                // Told only when the meeting finishes, not at each turn.
                return Effect { env, input in
                    let ending = env.room.notify(input, with: .meetingChanged) { $0.isTerminal }
                    return .joined(env.room, ending)
                }
            case .joined(let room, let subscription):
                state.room = room
                state.subscription = subscription
                state.finished = room.state.isTerminal
            case .meetingChanged:
                state.finished = state.room?.state.isTerminal ?? false
            }
            return nil
        }
    }

    /// The meeting's screen reads the room; its app keeps only the room.
    static func render(_ room: SharedRun<Meeting>) -> String {
        "speaker \(room.state.current + 1) of \(room.state.speakers.count)"
    }
}

@Suite("Article: Sharing one run among many", .timeLimit(.minutes(1)))
struct SharingARunArticleTests {
    typealias Meeting = DocSharing.Meeting

    @Test func theViewerIsToldOnceWhenTheMeetingFinishesNotAtEachTurn() async throws {
        let room = SharedRun<Meeting>(initialState: .init(speakers: ["Blob", "Blob Jr", "Blob Sr"]))
        let meeting = Task { try await room.run() }
        let viewer = SharedRun<DocSharing.Viewer>(initialState: .init())
        let viewing = Task { try await viewer.run(env: .init(room: room)) }
        try viewer.proxy.send(.start)
        for await state in viewer.states where state.subscription != nil { break }

        try room.proxy.send(.next)
        try room.proxy.send(.next)
        #expect(!viewer.state.finished)
        try room.proxy.send(.next)
        _ = try await meeting.value
        for await state in viewer.states where state.finished { break }
        #expect(viewer.state.finished)
        viewing.cancel()
    }

    @Test func theSampleRunsOneMeetingThatAViewerWatchesToTheEnd() async throws {
        let room = SharedRun<Meeting>(initialState: .init(speakers: ["Blob", "Blob Jr"]))

        // One task runs the meeting, on the caller's isolation.
        let meeting = Task { try await room.run() }

        // Every viewer watches it in a task of its own …
        let viewer = Task {
            var shown: [Int] = []
            for await state in room.states { shown.append(state.current) }
            return shown  // ends with the final state, 2
        }

        // … and anyone sends to it.
        try room.proxy.send(.next)
        try room.proxy.send(.next)

        let shown = await viewer.value
        #expect(shown.last == 2)
        #expect(shown == shown.sorted() && Set(shown).count == shown.count)
        #expect(try await meeting.value == 2)
        #expect(try room.ending?.get() == 2)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aViewThatReadsTheRoomIsToldOfItsNextState() async throws {
        let room = SharedRun<Meeting>(initialState: .init(speakers: ["Blob", "Blob Jr"]))
        let meeting = Task { try await room.run() }
        let told = Locked(false)
        let shown = withObservationTracking {
            DocSharing.render(room)
        } onChange: {
            told.withLock { $0 = true }
        }
        #expect(shown == "speaker 1 of 2")
        // A watcher, to know when the next state is published: the view
        // was told before it was (Observation tells before the change).
        var states = room.states.makeAsyncIterator()
        _ = await states.next()
        try room.proxy.send(.next)
        _ = await states.next()
        #expect(told.withLock { $0 })
        #expect(DocSharing.render(room) == "speaker 2 of 2")
        try room.proxy.send(.next)
        _ = try await meeting.value
    }

    @Test func theCheckpointSampleKeepsTheMeetingUpToItsEnd() async throws {
        typealias MeetingCheckpoint = DocSharing.MeetingCheckpoint
        let room = SharedRun<Meeting>(initialState: .init(speakers: ["Blob", "Blob Jr"]))
        let store = DocSharing.Store()
        let clock = ContinuousClock()
        try room.proxy.send(.next)
        try room.proxy.send(.next)

        let format = CheckpointFormat<MeetingCheckpoint>(version: 1)
        async let checkpoints: Void = room.keepCheckpoints(
            of: { MeetingCheckpoint($0) }, every: .seconds(5),
            at: { $0.current != $1.current }, clock: clock,
            write: { try await store.save(format.encode($0)) })
        try await room.run()
        await checkpoints

        let last = try #require(await store.saved.last)
        #expect(try format.decode(last).current == 2)
    }
}
