// The code sample of Sources/Oak/Oak.docc/SharingARun.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippet as written, plus checks. Keep the two in
// step: change the sample here, change it in the article.

import Oak
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
}

@Suite("Article: Sharing one run among many", .timeLimit(.minutes(1)))
struct SharingARunArticleTests {
    typealias Meeting = DocSharing.Meeting

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
}
