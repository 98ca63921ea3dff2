// The code samples of Sources/Oak/Oak.docc/Effects.md, compiled and run:
// the article's types under the names it uses (in one namespace), and a
// suite that runs its snippets as written, plus checks. Keep the two in
// step: change a sample here, change it in the article.

import Clocks
import Foundation
import Oak
import Synchronization
import Testing

enum DocEffects {
    enum Trace: EffectTransducer {
        enum State: Terminable {
            case running
            case finished

            var isTerminal: Bool { self == .finished }
        }

        enum Event {
            case start, a, a1, b, later, both, finish
        }

        struct Env: Sendable {
            var note: @Sendable (String) -> Void
        }

        typealias Output = Event

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch event {
            case .start:
                return (.events(.a, .b), event)
            case .a:
                let action = Effect { env, _ in
                    env.note("action of a")
                    return .a1
                }
                return (action, event)
            case .both:
                let first = Effect { env, _ in
                    env.note("action 1")
                    return .a
                }
                let second = Effect { env, _ in
                    env.note("action 2")
                    return .b
                }
                return (.combine(first, second), event)
            case .finish:
                state = .finished
                return (nil, event)
            case .a1, .b, .later:
                return (nil, event)
            }
        }
    }

    enum Toast: EffectTransducer {
        struct State: NonTerminal {
            var message: String?
        }

        enum Event {
            case show(String, duration: Duration)
            case dismiss
            case didExpire
        }

        typealias Output = String?

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch event {
            case .show(let message, let duration):
                state.message = message
                let expire = Effect(
                    id: "expire",
                    operation: { _, input in try input.send(.didExpire) },
                    after: duration
                )
                return (expire, message)
            case .dismiss:
                state.message = nil
                return (.cancelTask("expire"), nil)
            case .didExpire:
                state.message = nil
                return (nil, nil)
            }
        }
    }

    enum Search: EffectTransducer {
        struct State: NonTerminal {
            var query = ""
            var results: [String] = []
        }

        enum Event {
            case queryChanged(String)
            case cleared
            case didFind([String])
        }

        struct Env: Sendable {
            var clock: any Clock<Duration>
            var search: @Sendable (String) async throws -> [String]
        }

        typealias Output = [String]

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch event {
            case .queryChanged(let query):
                state.query = query
                let search = Effect(id: "search") { env, input in
                    try await env.clock.sleep(for: .milliseconds(300))
                    let results = try await env.search(query)
                    try input.send(.didFind(results))
                }
                return (search, state.results)
            case .cleared:
                state = State()
                return (.cancelTask("search"), [])
            case .didFind(let results):
                state.results = results
                return (nil, results)
            }
        }
    }

    enum Window: EffectTransducer {
        struct State: NonTerminal {
            var title = ""
        }

        enum Event {
            case appear
            case refresh
            case didReadTitle(String)
        }

        struct Env: Sendable {
            var readTitle: @MainActor @Sendable () -> String
            var fetchTitle: @Sendable () async throws -> String
        }

        typealias Output = String

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch event {
            case .appear:
                let read = Effect(action: { @MainActor env in
                    .didReadTitle(env.readTitle())
                })
                return (read, state.title)
            case .refresh:
                let fetch = Effect(
                    id: "refresh",
                    isolatedOperation: { env, input, _ in
                        let title = try await env.fetchTitle()
                        try input.send(.didReadTitle(title))
                    })
                return (fetch, state.title)
            case .didReadTitle(let title):
                state.title = title
                return (nil, title)
            }
        }
    }

    enum Backup: EffectTransducer {
        enum State: Terminable {
            case idle
            case running
            case finished(succeeded: Bool)

            var isTerminal: Bool {
                if case .finished = self { true } else { false }
            }
        }

        enum Event {
            case start
            case cancel
            case didUpload
            case didCancel
        }

        struct Env: Sendable {
            var save: @Sendable () async throws -> Void
            var upload: @Sendable () async throws -> Void
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch (state, event) {
            case (.idle, .start):
                state = .running
                return .chain(
                    id: "backup",
                    Effect { env, _ in try await env.save() },
                    Effect { env, input in
                        try await env.upload()
                        try input.send(.didUpload)
                    }
                )
            case (.running, .cancel):
                return .combine(.cancelTask("backup"), .event(.didCancel))
            case (.running, .didUpload):
                state = .finished(succeeded: true)
                return nil
            case (.running, .didCancel):
                state = .finished(succeeded: false)
                return nil
            default:
                return nil
            }
        }
    }

    /// The article's comic viewer: every load has the id "load", so a new
    /// load replaces the one in flight, and a late answer is refused.
    enum ComicViewer: EffectTransducer {
        struct Comic: Sendable, Equatable {
            var number: Int
        }

        enum State: Terminable, Equatable {
            case loading(Int)
            case showing(Comic)
            case closed

            var isTerminal: Bool { self == .closed }
        }

        enum Event {
            case show(Int)
            case didLoad(Comic)
            case close
        }

        struct Env: Sendable {
            var loadComic: @Sendable (Int) async throws -> Comic
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch event {
            case .show(let number):
                state = .loading(number)
                return Effect(id: "load") { env, input in
                    let comic = try await env.loadComic(number)  // 5 may answer last…
                    try input.send(.didLoad(comic))  // …but is refused then
                }
            case .didLoad(let comic):
                state = .showing(comic)
                return nil
            case .close:
                state = .closed
                return nil
            }
        }
    }

    /// Records the states of the comic viewer and the events it refused.
    struct ViewerInspector: TransducerInspector {
        let trace: OakTests.Trace

        func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
            switch record {
            case .state(let state as ComicViewer.State):
                if case .showing(let comic) = state { trace.append("state showing(Comic(number: \(comic.number)))") }
            case .eventRefused(let info): trace.append("refused \(info)")
            default: break
            }
        }
    }

    /// Suspends until the current task is cancelled, then throws
    /// `CancellationError`: a stand-in for a service that never answers.
    static func untilCancelled() async throws -> Never {
        let (never, continuation) = AsyncStream.makeStream(of: Never.self)
        await withTaskCancellationHandler {
            for await _ in never {}
        } onCancel: {
            continuation.finish()
        }
        throw CancellationError()
    }

    @Suite("Documentation: Effects")
    struct EffectsDocumentationTests {
        @Test func aReplacedLoadCannotOverwriteTheNewerComic() async throws {
            let answers = (five: Gate(), six: Gate())
            let trace = OakTests.Trace()
            let env = ComicViewer.Env(loadComic: { number in
                trace.append("loading \(number)")
                await (number == 5 ? answers.five : answers.six).wait()  // ignores cancellation
                return ComicViewer.Comic(number: number)
            })
            let proxy = ComicViewer.Proxy()
            let run = Task {
                try await TransducerInspection.$inspector.withValue(ViewerInspector(trace: trace)) {
                    try await ComicViewer.run(initialState: .loading(0), proxy: proxy, env: env)
                }
            }
            try proxy.send(.show(5))
            await trace.waitFor("loading 5")
            try proxy.send(.show(6))
            await trace.waitFor("loading 6")
            answers.six.open()
            await trace.waitFor("state showing(Comic(number: 6))")
            answers.five.open()
            await trace.waitFor("refused operation #1 (id: load)")
            try proxy.send(.close)
            try await value(of: run)
            #expect(trace.entries(withPrefix: "state showing") == ["state showing(Comic(number: 6))"])
        }

        @Test func actionsRunDepthFirstAfterTheOutput() async throws {
            let (notes, recorder) = AsyncStream.makeStream(of: String.self)
            let env = Trace.Env(note: { recorder.yield($0) })
            let proxy = Trace.Proxy()
            try proxy.send(.start)
            try proxy.send(.later)
            try proxy.send(.finish)

            try await Trace.run(
                initialState: .running,
                proxy: proxy,
                env: env,
                output: Callback { event in env.note("output \(event)") }
            )
            recorder.finish()

            var lines: [String] = []
            for await line in notes { lines.append(line) }
            // output start, output a, action of a, output a1, output b,
            // output later, output finish
            #expect(
                lines == [
                    "output start", "output a", "action of a", "output a1", "output b", "output later",
                    "output finish",
                ])
        }

        @Test func combinedActionsRunBeforeTheirEvents() async throws {
            let (notes, recorder) = AsyncStream.makeStream(of: String.self)
            let env = Trace.Env(note: { recorder.yield($0) })
            let proxy = Trace.Proxy()
            try proxy.send(.both)
            try proxy.send(.finish)

            try await Trace.run(
                initialState: .running,
                proxy: proxy,
                env: env,
                output: Callback { event in env.note("output \(event)") }
            )
            recorder.finish()

            var lines: [String] = []
            for await line in notes { lines.append(line) }
            // output both, action 1, action 2, output a, action of a,
            // output a1, output b, output finish
            #expect(
                lines == [
                    "output both", "action 1", "action 2", "output a", "action of a", "output a1", "output b",
                    "output finish",
                ])
        }

        @Test func aNewOperationReplacesTheOneWithTheSameID() async throws {
            let (messages, continuation) = AsyncStream.makeStream(of: String?.self)
            let proxy = Toast.Proxy()
            let run = Task {
                try await Toast.run(
                    initialState: .init(),
                    proxy: proxy,
                    output: Callback { continuation.yield($0) }
                )
            }

            try proxy.send(.show("Saved", duration: .seconds(3600)))
            try proxy.send(.show("Sent", duration: .milliseconds(1)))
            // outputs: "Saved", "Sent", nil — "Saved" never expires on its own

            var seen: [String?] = []
            for await message in messages {
                seen.append(message)
                if message == nil { break }  // the toast expired
            }
            #expect(seen == ["Saved", "Sent", nil])

            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }

        @Test func cancellingADelayedOperationMeansItsBodyNeverRuns() async throws {
            let (records, recorder) = AsyncStream.makeStream(of: String.self)
            let proxy = Toast.Proxy()
            try proxy.send(.show("Saved", duration: .seconds(3600)))
            try proxy.send(.dismiss)
            let run = Task {
                try await TransducerInspection.$inspector.withValue(DocConcurrency.LineInspector(lines: recorder)) {
                    try await Toast.run(initialState: .init(), proxy: proxy)
                }
            }
            var lines: [String] = []
            for await line in records {
                lines.append(line)
                if line.hasPrefix("cancelled") { break }
            }
            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
            recorder.finish()
            for await line in records { lines.append(line) }

            #expect(lines.contains("cancelled operation #1 (id: expire)"))
            #expect(!lines.contains("event didExpire"))
        }

        @Test func searchDebouncesOnTheEnvironmentsClock() async throws {
            let completed = Recorder<String>()
            let env = Search.Env(
                clock: ImmediateClock(),
                search: { query in
                    if query == "s" { try await untilCancelled() }
                    completed.append(query)
                    return ["\(query)ift", "\(query)allow"]
                }
            )
            let (outputs, continuation) = AsyncStream.makeStream(of: [String].self)
            let proxy = Search.Proxy()
            let run = Task {
                try await Search.run(
                    initialState: .init(),
                    proxy: proxy,
                    env: env,
                    output: Callback { continuation.yield($0) }
                )
            }
            try proxy.send(.queryChanged("s"))
            try proxy.send(.queryChanged("sw"))

            var results: [String] = []
            for await output in outputs where !output.isEmpty {
                results = output
                break
            }
            #expect(results == ["swift", "swallow"])
            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
            #expect(completed.values == ["sw"])
        }

        @Test func clearingCancelsTheWaitingSearch() async throws {
            let started = Recorder<String>()
            let env = Search.Env(
                clock: TestClock(),  // never advanced: every search keeps waiting
                search: { query in
                    started.append(query)
                    return [query]
                }
            )
            let (records, recorder) = AsyncStream.makeStream(of: String.self)
            let proxy = Search.Proxy()
            try proxy.send(.queryChanged("swift"))
            try proxy.send(.cleared)
            let run = Task {
                try await TransducerInspection.$inspector.withValue(DocConcurrency.LineInspector(lines: recorder)) {
                    try await Search.run(initialState: .init(), proxy: proxy, env: env)
                }
            }
            for await line in records where line.hasPrefix("cancelled") {
                #expect(line == "cancelled operation #1 (id: search)")
                break
            }
            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
            #expect(started.values.isEmpty)
        }

        @MainActor
        @Test func anActionOnTheMainActor() async throws {
            let env = Window.Env(readTitle: { "Inbox" }, fetchTitle: { "Archive" })
            let proxy = Window.Proxy(initialEvent: .appear)
            let (titles, continuation) = AsyncStream.makeStream(of: String.self)
            let run = Task {
                try await Window.run(
                    initialState: .init(),
                    proxy: proxy,
                    env: env,
                    output: Callback { continuation.yield($0) }
                )
            }
            var last = ""
            for await title in titles where title == "Inbox" {
                last = title
                break
            }
            #expect(last == "Inbox")

            try proxy.send(.refresh)
            for await title in titles where title == "Archive" {
                last = title
                break
            }
            #expect(last == "Archive")
            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }

        @Test func aSequenceRunsItsOperationsOneAfterAnother() async throws {
            let steps = Recorder<String>()
            let env = Backup.Env(
                save: { steps.append("save") },
                upload: { steps.append("upload") }
            )
            let proxy = Backup.Proxy(initialEvent: .start)
            try await Backup.run(initialState: .idle, proxy: proxy, env: env)
            #expect(steps.values == ["save", "upload"])
        }

        @Test func cancellingASequenceStopsItsRemainingSteps() async throws {
            let steps = Recorder<String>()
            let env = Backup.Env(
                save: {
                    steps.append("save")
                    try await untilCancelled()
                },
                upload: { steps.append("upload") }
            )
            let proxy = Backup.Proxy(initialEvent: .start)
            try proxy.send(.cancel)
            try await Backup.run(initialState: .idle, proxy: proxy, env: env)
            #expect(!steps.values.contains("upload"))
        }
    }
}
