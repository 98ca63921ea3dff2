// The code samples of the DocC articles in Sources/Oak/Oak.docc, compiled and
// run. Each article has a namespace (`DocGettingStarted`, `DocEffects`, …)
// holding its types under the names the article uses, and a suite inside that
// namespace whose tests run the article's snippets as written, plus checks.
// Keep the two in step: change a sample here, change it in the article.

import Clocks
import Foundation
import Oak
import Synchronization
import Testing

@Suite("Documentation: the articles' samples are these tests' code")
struct DocumentationSamplesTests {
    /// Samples that are not Swift code against Oak: a package manifest
    /// fragment and a parameter declaration. Identified by their first line.
    static let exempt: Set<String> = [
        ".target(",
        "systemActor: isolated (any Actor)? = #isolation",
    ]

    @Test func everySwiftSampleOfTheCatalogAppearsInThisFile() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let packageRoot = thisFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = packageRoot.appendingPathComponent("Sources/Oak/Oak.docc")
        // The hosting article's samples are compiled and run by the host tests.
        let hostingArticleTests = thisFile.deletingLastPathComponent()
            .appendingPathComponent("Hosts/HostingArticleTests.swift")
        // The composition and state-scoped action articles' samples too.
        let compositionArticleTests = thisFile.deletingLastPathComponent()
            .appendingPathComponent("Composition/CompositionArticleTests.swift")
        let code = try DocumentationSamples.code(of: [thisFile, hostingArticleTests, compositionArticleTests])
        let missing = try DocumentationSamples.missing(from: catalog, in: code, exempt: Self.exempt)
        #expect(missing.isEmpty, "Samples not in \(thisFile.lastPathComponent) and the article tests: \(missing)")
    }
}

// MARK: - GettingStarted.md

enum DocGettingStarted {
    enum Counter: Transducer {
        enum State: Terminable {
            case counting(Int)
            case finished(Int)

            var isTerminal: Bool {
                if case .finished = self { true } else { false }
            }
        }

        enum Event {
            case increment
            case decrement
            case stop
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> Int {
            switch (state, event) {
            case (.counting(let count), .increment):
                state = .counting(count + 1)
                return count + 1
            case (.counting(let count), .decrement):
                state = .counting(count - 1)
                return count - 1
            case (.counting(let count), .stop):
                state = .finished(count)
                return count
            case (.finished(let count), _):
                return count
            }
        }
    }

    enum Greeter: EffectTransducer {
        enum State: Terminable {
            case idle
            case loading(userID: Int)
            case greeted(String)

            var isTerminal: Bool {
                if case .greeted = self { true } else { false }
            }
        }

        enum Event {
            case start(userID: Int)
            case didLoadName(String)
        }

        struct Env: Sendable {
            var loadName: @Sendable (_ userID: Int) async throws -> String
        }

        typealias Output = String

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch (state, event) {
            case (.idle, .start(let userID)):
                state = .loading(userID: userID)
                let effect = Effect(id: "loadName") { env, input in
                    let name = try await env.loadName(userID)
                    try input.send(.didLoadName(name))
                }
                return (effect, "Loading user \(userID)…")
            case (.loading, .didLoadName(let name)):
                let greeting = "Hello, \(name)!"
                state = .greeted(greeting)
                return (nil, greeting)
            default:
                return (nil, "")
            }
        }
    }

    @Suite("Documentation: Getting started")
    struct GettingStartedDocumentationTests {
        @Test func updateIsAPureFunction() {
            var state = Counter.State.counting(0)
            let output = Counter.update(&state, event: .increment)
            // output == 1, state == .counting(1)
            #expect(output == 1)
            guard case .counting(1) = state else {
                Issue.record("unexpected state \(state)")
                return
            }
        }

        @Test func runWithAProxy() async throws {
            let proxy = Counter.Proxy()

            let run = Task {
                try await Counter.run(initialState: .counting(0), proxy: proxy, output: NoCallback())
            }

            try proxy.send(.increment)
            try proxy.send(.increment)
            try proxy.send(.stop)

            let finalCount = try await run.value  // 2
            #expect(finalCount == 2)
        }

        @Test func readOutputsWithACallback() async throws {
            let (counts, continuation) = AsyncStream.makeStream(of: Int.self)
            let proxy = Counter.Proxy()

            Task {
                defer { continuation.finish() }
                try await Counter.run(
                    initialState: .counting(0),
                    proxy: proxy,
                    output: Callback { count in continuation.yield(count) }
                )
            }

            try proxy.send(.increment)
            try proxy.send(.increment)
            try proxy.send(.decrement)
            try proxy.send(.stop)

            var seen: [Int] = []
            for await count in counts {
                seen.append(count)
            }
            // seen == [1, 2, 1, 1]
            #expect(seen == [1, 2, 1, 1])
        }

        @Test func runAnEffectTransducer() async throws {
            let env = Greeter.Env(loadName: { userID in "User \(userID)" })
            let proxy = Greeter.Proxy(initialEvent: .start(userID: 42))

            let greeting = try await Greeter.run(initialState: .idle, proxy: proxy, env: env)
            // greeting == "Hello, User 42!"
            #expect(greeting == "Hello, User 42!")
        }

        @Test func greeterOutputsEveryStep() async throws {
            let outputs = Recorder<String>()
            let env = Greeter.Env(loadName: { _ in "Ada" })
            let proxy = Greeter.Proxy(initialEvent: .start(userID: 1))

            try await Greeter.run(
                initialState: .idle,
                proxy: proxy,
                env: env,
                output: Callback { outputs.append($0) }
            )
            #expect(outputs.values == ["Loading user 1…", "Hello, Ada!"])
        }
    }
}

// MARK: - Effects.md

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

// MARK: - TerminationAndErrors.md

enum DocTermination {
    typealias Counter = DocGettingStarted.Counter

    enum Upload: EffectTransducer {
        enum State: Terminable {
            case idle
            case uploading
            case finished(String)

            var isTerminal: Bool {
                if case .finished = self { true } else { false }
            }
        }

        enum Event {
            case start
            case didUpload
            case didFail(String)
        }

        struct Env: Sendable {
            var upload: @Sendable () async throws -> Void
            var closeConnection: @Sendable () -> Void
        }

        typealias Output = String

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch (state, event) {
            case (.idle, .start):
                state = .uploading
                let upload = Effect(id: "upload") { env, input in
                    do {
                        try await env.upload()
                        try input.send(.didUpload)
                    } catch let error where !(error is CancellationError) {
                        try input.send(.didFail("\(error)"))
                    }
                }
                return (upload, "uploading")
            case (.uploading, .didUpload):
                state = .finished("uploaded")
                return (closeConnection(), "uploaded")
            case (.uploading, .didFail(let reason)):
                state = .finished("failed: \(reason)")
                return (closeConnection(), "failed: \(reason)")
            default:
                return (nil, "ignored")
            }
        }

        static func closeConnection() -> Self.Effect {
            Effect(isolatedAction: { env, _ in
                env.closeConnection()
                return []
            })
        }
    }

    enum Ping: EffectTransducer {
        enum State: Terminable {
            case waiting
            case answered

            var isTerminal: Bool { self == .answered }
        }

        enum Event {
            case send
            case didAnswer
        }

        struct Env: Sendable {
            var ping: @Sendable () async throws -> Void
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch event {
            case .send:
                return Effect { env, input in
                    try await env.ping()
                    try input.send(.didAnswer)
                }
            case .didAnswer:
                state = .answered
                return nil
            }
        }
    }

    enum PingError: Error {
        case offline
    }

    @Suite("Documentation: Termination and errors")
    struct TerminationDocumentationTests {
        @Test func aTerminalStateEndsTheRun() async throws {
            let closed = Mutex(false)
            let env = Upload.Env(
                upload: {},
                closeConnection: { closed.withLock { $0 = true } }
            )
            let proxy = Upload.Proxy(initialEvent: .start)

            let last = try await Upload.run(initialState: .idle, proxy: proxy, env: env)
            // last == "uploaded", and the connection was closed
            #expect(last == "uploaded")
            #expect(closed.withLock { $0 })

            #expect(throws: TransducerError.terminated) {
                try proxy.send(.start)
            }
        }

        @Test func aFailureCanBeAnEvent() async throws {
            let env = Upload.Env(
                upload: { throw PingError.offline },
                closeConnection: {}
            )
            let proxy = Upload.Proxy(initialEvent: .start)
            let last = try await Upload.run(initialState: .idle, proxy: proxy, env: env)
            #expect(last == "failed: offline")
        }

        @Test func cancellingThroughTheProxy() async throws {
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let env = Upload.Env(
                upload: { try await Task.sleep(for: .seconds(3600)) },  // a slow upload
                closeConnection: {}
            )
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle,
                    proxy: proxy,
                    env: env,
                    output: Callback { continuation.yield($0) }
                )
            }
            for await output in outputs where output == "uploading" { break }

            proxy.cancel()
            // `try await run.value` throws TransducerError.cancelled. Before that, the
            // upload was cancelled and has finished; no clean-up ran.
            await #expect(throws: TransducerError.cancelled) { try await run.value }
        }

        @Test func operationsEndBeforeACancelledRunThrows() async throws {
            let log = Recorder<String>()
            let env = Upload.Env(
                upload: {
                    do {
                        try await DocEffects.untilCancelled()
                    } catch {
                        log.append("upload cancelled")
                        throw error
                    }
                },
                closeConnection: { log.append("closed") }
            )
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle, proxy: proxy, env: env, output: Callback { continuation.yield($0) })
            }
            for await output in outputs where output == "uploading" { break }

            proxy.cancel()
            await #expect(throws: TransducerError.cancelled) { try await run.value }
            // The upload was cancelled before `run` threw; no clean-up ran.
            #expect(log.values == ["upload cancelled"])
        }

        @Test func cancellingTheTask() async throws {
            let log = Recorder<String>()
            let env = Upload.Env(
                upload: {
                    do {
                        try await DocEffects.untilCancelled()
                    } catch {
                        log.append("upload cancelled")
                        throw error
                    }
                },
                closeConnection: { log.append("closed") }
            )
            let (outputs, continuation) = AsyncStream.makeStream(of: String.self)
            let proxy = Upload.Proxy(initialEvent: .start)
            let run = Task {
                try await Upload.run(
                    initialState: .idle, proxy: proxy, env: env, output: Callback { continuation.yield($0) })
            }
            for await output in outputs where output == "uploading" { break }

            run.cancel()
            await #expect(throws: CancellationError.self) { try await run.value }
            #expect(log.values == ["upload cancelled"])
        }

        @Test func aThrowingOperationFailsTheRun() async throws {
            let env = Ping.Env(ping: { throw PingError.offline })
            let proxy = Ping.Proxy(initialEvent: .send)
            await #expect(throws: PingError.offline) {
                try await Ping.run(initialState: .waiting, proxy: proxy, env: env)
            }
        }

        @Test func cancelWithAnError() async throws {
            let env = Ping.Env(ping: { try await DocEffects.untilCancelled() })
            let proxy = Ping.Proxy(initialEvent: .send)
            proxy.cancel(with: PingError.offline)
            await #expect(throws: PingError.offline) {
                try await Ping.run(initialState: .waiting, proxy: proxy, env: env)
            }
        }

        @Test func aProxyServesOneRun() async throws {
            let proxy = Counter.Proxy(initialEvent: .stop)
            try await Counter.run(initialState: .counting(0), proxy: proxy)

            await #expect(throws: TransducerError.proxyAlreadyInUse) {
                try await Counter.run(initialState: .counting(0), proxy: proxy)
            }
        }

        @Test func aTerminalInitialStateProducesNoOutput() async throws {
            await #expect(throws: TransducerError.noOutputProduced) {
                try await Counter.run(initialState: .finished(3), proxy: Counter.Proxy())
            }
            // An effect transducer without output returns at once.
            try await Ping.run(
                initialState: .answered, proxy: Ping.Proxy(), env: Ping.Env(ping: {}))
        }

        @Test func aFullBufferRejectsTheEvent() throws {
            let proxy = Counter.Proxy(bufferSize: 2)
            try proxy.send(.increment)
            try proxy.send(.increment)

            do {
                try proxy.send(.increment)
            } catch .bufferFull {
                // Not enqueued; the two events before it are still waiting.
            } catch {
                // .terminated or .invalidBufferSize: this run takes no more events.
            }

            #expect(throws: TransducerError.bufferFull) { try proxy.send(.decrement) }
        }

        @Test func aNonPositiveBufferSizeIsReported() async throws {
            let proxy = Counter.Proxy(bufferSize: 0)
            #expect(throws: TransducerError.invalidBufferSize(0)) {
                try proxy.send(.increment)
            }
            await #expect(throws: TransducerError.invalidBufferSize(0)) {
                try await Counter.run(initialState: .counting(0), proxy: proxy)
            }
        }

        @Test func everyErrorSaysWhatToDo() {
            let error = TransducerError.bufferFull
            #expect(error.description.contains("SyncSuspendingProxy"))
        }
    }
}

// MARK: - ConcurrencyAndIsolation.md

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
