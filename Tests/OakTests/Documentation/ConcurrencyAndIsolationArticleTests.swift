// The code samples of Sources/Oak/Oak.docc/ConcurrencyAndIsolation.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippets as written, plus checks. Keep the two in
// step: change a sample here, change it in the article.

import Clocks
import Foundation
import Oak
import Synchronization
import Testing

enum DocConcurrency {
    typealias Counter = DocGettingStarted.Counter

    @MainActor
    final class CounterModel {
        private(set) var count = 0
        let proxy = Counter.Proxy()

        func start() -> Task<Int, any Error> {
            Task {
                // This task inherits the main actor: so does the run.
                try await Counter.run(
                    initialState: .counting(count),
                    proxy: proxy,
                    output: Callback { count in
                        self.count = count
                    }
                )
            }
        }
    }

    /// Not `Sendable`: a mutable reference type.
    final class Draft {
        var text: String

        init(text: String) {
            self.text = text
        }
    }

    enum Editor: Transducer {
        struct State: NonTerminal {
            var saved: [String] = []
        }

        enum Event {
            case save(Draft)
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .save(let draft):
                state.saved.append(draft.text)
                return state.saved.count
            }
        }
    }

    enum Importer: Transducer {
        typealias Proxy = SyncSuspendingProxy<Event>

        struct State: Terminable {
            var lines = 0
            var isComplete = false

            var isTerminal: Bool { isComplete }
        }

        enum Event {
            case line(String)
            case endOfFile
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .line:
                state.lines += 1
            case .endOfFile:
                state.isComplete = true
            }
            return state.lines
        }
    }

    actor ProgressSink {
        private(set) var reported: [Int] = []

        func report(_ lines: Int) {
            reported.append(lines)
        }
    }

    struct LineInspector: TransducerInspector {
        let lines: AsyncStream<String>.Continuation

        func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
            switch record {
            case .event(let event): lines.yield("event \(event)")
            case .state(let state): lines.yield("state \(state)")
            case .output(let output): lines.yield("output \(output)")
            case .effectStarted(let info): lines.yield("started \(info)")
            case .effectFinished(let info): lines.yield("finished \(info)")
            case .effectCancelled(let info): lines.yield("cancelled \(info)")
            case .effectFailed(let info, let error): lines.yield("failed \(info): \(error)")
            case .eventRefused(let info): lines.yield("refused an event of \(info)")
            case .waitingForEvents: lines.yield("waiting")
            case .intentRefused(let event): lines.yield("refused intent \(event)")
            case .ended(let error): lines.yield("ended \(error.map { "\($0)" } ?? "in a terminal state")")
            }
        }
    }

    @Suite("Documentation: Concurrency and isolation")
    struct ConcurrencyDocumentationTests {
        @MainActor
        @Test func aRunStartedOnTheMainActorRunsThere() async throws {
            let model = CounterModel()
            let run = model.start()
            try model.proxy.send(.increment)
            try model.proxy.send(.increment)
            try model.proxy.send(.stop)
            let last = try await run.value
            #expect(last == 2)
            #expect(model.count == 2)
        }

        @Test func eventsNeedNotBeSendable() async throws {
            let proxy = Editor.Proxy()
            let run = Task {
                try await Editor.run(initialState: .init(), proxy: proxy)
            }

            let draft = Draft(text: "Hello")
            draft.text += ", world"
            try proxy.send(.save(draft))
            // `draft` was sent: using it here is a compile-time error.

            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }

        @Test func aSuspendingProxyWaitsForEachEvent() async throws {
            let sink = ProgressSink()
            let proxy = Importer.Proxy()
            let run = Task {
                try await Importer.run(
                    initialState: .init(),
                    proxy: proxy,
                    output: Callback { lines in await sink.report(lines) }
                )
            }

            for line in ["alpha", "beta", "gamma"] {
                try await proxy.checkedSend(.line(line))
                // Here the line has been processed and reported.
            }
            try await proxy.checkedSend(.endOfFile)
            let total = try await run.value  // 3
            #expect(total == 3)
            #expect(await sink.reported == [1, 2, 3, 3])
        }

        @Test func eachSendReturnsAfterItsOutputWasDelivered() async throws {
            let sink = ProgressSink()
            let proxy = Importer.Proxy()
            let run = Task {
                try await Importer.run(
                    initialState: .init(), proxy: proxy, output: Callback { lines in await sink.report(lines) })
            }
            for index in 1...20 {
                try await proxy.checkedSend(.line("\(index)"))
                #expect(await sink.reported.count == index)
            }
            try await proxy.checkedSend(.endOfFile)
            #expect(try await run.value == 20)
        }

        @Test func anInspectorSeesTheRun() async throws {
            let (lines, continuation) = AsyncStream.makeStream(of: String.self)
            let proxy = Counter.Proxy()
            try proxy.send(.increment)
            try proxy.send(.stop)

            try await TransducerInspection.$inspector.withValue(LineInspector(lines: continuation)) {
                try await Counter.run(initialState: .counting(0), proxy: proxy)
            }
            continuation.finish()

            var seen: [String] = []
            for await line in lines { seen.append(line) }
            // event increment, state counting(1), output 1,
            // event stop, state finished(1), output 1, ended in a terminal state
            #expect(
                seen == [
                    "event increment", "state counting(1)", "output 1", "event stop", "state finished(1)", "output 1",
                    "ended in a terminal state",
                ])
        }

        @MainActor
        @Test func anIsolatedOperationRunsOnTheIsolationOfRun() async throws {
            let env = DocEffects.Window.Env(
                readTitle: { "Inbox" },
                fetchTitle: {
                    "Archive"
                }
            )
            let proxy = DocEffects.Window.Proxy(initialEvent: .refresh)
            let (lines, continuation) = AsyncStream.makeStream(of: String.self)
            let run = Task {
                try await TransducerInspection.$inspector.withValue(LineInspector(lines: continuation)) {
                    try await DocEffects.Window.run(initialState: .init(), proxy: proxy, env: env)
                }
            }
            for await line in lines where line.hasPrefix("finished") { break }
            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }
    }
}
