// The code samples of Sources/Oak/Oak.docc/HostingATransducer.md, compiled
// and run. The article's types live in `HostingArticle` under the names the
// article uses; its SwiftUI sample compiles where SwiftUI exists (and is
// type-checked on Linux by Tools/SwiftUICheck). The suite checks that every
// Swift sample of the article appears here, then runs them. Keep the two in
// step: change a sample here, change it in the article.

import Foundation
import Oak
import Observation
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

enum HostingArticle {
    // MARK: Observe a transducer from any code

    /// The transducer the article's ObservableTransducer and SwiftUI samples
    /// use.
    enum Counter: Transducer {
        struct State: NonTerminal {
            var count = 0
        }
        enum Event { case increment }
        static func update(_ state: inout State, event: Event) -> Int {
            state.count += 1
            return state.count
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    final class CounterScreen {
        let counter = ObservableTransducer(
            of: Counter.self,
            initialState: Counter.State(),
            completion: { result in
                print("The counter ended: \(result)")
            }
        )

        func plusTapped() {
            try? counter.send(.increment)
        }

        func showCount(whenItChanges redraw: @escaping @Sendable () -> Void) {
            withObservationTracking {
                _ = counter.state.count
            } onChange: {
                redraw()
            }
        }
    }

    // MARK: Keep the state between launches

    enum Tally: Transducer {
        struct State: NonTerminal, Codable {
            var count = 0
            var launches = 0
        }
        enum Event { case increment, restored }
        static func update(_ state: inout State, event: Event) {
            switch event {
            case .increment: state.count += 1
            case .restored: state.launches += 1
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    final class TallyScreen {
        let tally: ObservableTransducer<Tally>

        init(dataDirectory: URL) {
            tally = ObservableTransducer(
                restoringFrom: StateSnapshots(url: dataDirectory.appendingPathComponent("tally.json"), version: 1),
                initialState: Tally.State(),
                restored: { _ in .restored }
            )
        }
    }

    // MARK: Example: a terminal counter

    enum TerminalCounter: Transducer {
        struct State: Terminable {
            var count = 0
            var hasQuit = false
            var isTerminal: Bool { hasQuit }
        }

        enum Event {
            case increment, decrement, quit

            init?(command: String) {
                switch command {
                case "+": self = .increment
                case "-": self = .decrement
                case "q": self = .quit
                default: return nil
                }
            }
        }

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .increment: state.count += 1
            case .decrement: state.count -= 1
            case .quit: state.hasQuit = true
            }
            return state.count
        }
    }

    /// The screen: it shows every state the run writes.
    final class Screen: Storage {
        private let render: @Sendable (TerminalCounter.State) -> Void

        var value: TerminalCounter.State {
            didSet { render(value) }
        }

        init(render: @escaping @Sendable (TerminalCounter.State) -> Void) {
            self.value = TerminalCounter.State()
            self.render = render
        }
    }

    /// The host: an actor that owns the screen and runs the counter on itself.
    actor CounterTerminal: TransducerHost {
        typealias Hosted = TerminalCounter

        let storage: Screen
        nonisolated let proxy = TerminalCounter.Proxy()

        init(render: @escaping @Sendable (TerminalCounter.State) -> Void) {
            storage = Screen(render: render)
        }

        /// Runs a counter for the lines the user types, until `q` or the end of
        /// the input. Returns how the run ended.
        static func session(
            lines: some Sequence<String>,
            render: @escaping @Sendable (TerminalCounter.State) -> Void
        ) async -> Result<Int, any Error> {
            let terminal = CounterTerminal(render: render)
            let run = Task { try await terminal.run() }

            for line in lines {
                guard let event = TerminalCounter.Event(command: line) else { continue }
                do {
                    try terminal.send(event)
                } catch {
                    break  // TransducerError.terminated: the run has ended
                }
                if case .quit = event { return await run.result }
            }
            terminal.cancel()  // the input ended before "q"
            return await run.result
        }
    }

    /// The article's command-line program, with `readLine` passed in.
    static func main(readLine: @escaping () -> String?, print: @escaping @Sendable (Any) -> Void) async {
        let lines = sequence(state: ()) { _ in readLine() }
        let result = await CounterTerminal.session(lines: lines) { state in
            print("count: \(state.count)")
        }
        print(result)
    }

    // MARK: Example: a session on a server

    enum Checkout: EffectTransducer {
        enum State: Terminable {
            case cart(items: Int)
            case paying(items: Int)
            case paid(items: Int)

            var isTerminal: Bool {
                if case .paid = self { true } else { false }
            }
        }

        enum Event { case add, pay, paymentAccepted }

        struct Env: Sendable {
            var charge: @Sendable (Int) async throws -> Void
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch (state, event) {
            case (.cart(let items), .add):
                state = .cart(items: items + 1)
                return nil
            case (.cart(let items), .pay):
                state = .paying(items: items)
                return Effect(id: "charge") { env, input in
                    try await env.charge(items)
                    try input.send(.paymentAccepted)
                }
            case (.paying(let items), .paymentAccepted):
                state = .paid(items: items)
                return nil
            default:
                return nil
            }
        }
    }

    final class StateBox<Value>: Storage {
        var value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    actor CheckoutSession: TransducerHost {
        typealias Hosted = Checkout

        let storage = StateBox(Checkout.State.cart(items: 0))
        nonisolated let proxy = Checkout.Proxy()
        private(set) var outcome = "open"

        func serve(env: Checkout.Env) async {
            await run(env: env) { result in
                switch result {
                case .success: outcome = "paid"
                case .failure(let error): outcome = "ended: \(error)"
                }
            }
        }

        /// Serves one client: starts the session's run, sends it the client's
        /// requests and waits for the outcome.
        static func serve(
            requests: [Checkout.Event],
            charge: @escaping @Sendable (Int) async throws -> Void
        ) async -> String {
            let session = CheckoutSession()
            let serving = Task { await session.serve(env: Checkout.Env(charge: charge)) }
            for request in requests {
                try? session.send(request)
            }
            await serving.value
            return await session.outcome
        }
    }
}

#if canImport(SwiftUI)
extension HostingArticle {
    struct CounterView: View {
        @State private var state = Counter.State()

        var body: some View {
            TransducerView(of: Counter.self, initialState: $state) { state, input in
                Button("Count: \(state.count)") {
                    try? input.send(.increment)
                }
            }
        }
    }
}
#endif

@Suite("Hosting article: the samples are this file's code", .timeLimit(.minutes(1)))
struct HostingArticleTests {
    @Test func everySwiftSampleOfTheArticleAppearsInThisFile() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let packageRoot = thisFile.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let article = packageRoot.appendingPathComponent("Sources/Oak/Oak.docc/HostingATransducer.md")
        let code = DocumentationSamples.significantLines(of: try String(contentsOf: thisFile, encoding: .utf8))
        let samples = DocumentationSamples.swiftSamples(in: try String(contentsOf: article, encoding: .utf8))
        #expect(samples.count == 7)
        for sample in samples {
            let lines = DocumentationSamples.significantLines(of: sample)
            guard let first = lines.first else { continue }
            let found = (0...max(0, code.count - lines.count)).contains { start in
                Array(code[start..<min(code.count, start + lines.count)]) == lines
            }
            #expect(found, "A sample of HostingATransducer.md is not in \(thisFile.lastPathComponent): \(first) …")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test @MainActor func observableTransducerSample() async throws {
        let screen = HostingArticle.CounterScreen()
        let redrawn = HostSignal()
        screen.showCount(whenItChanges: { redrawn.fire() })

        screen.plusTapped()

        await redrawn.wait(untilFired: 1)
        #expect(screen.counter.state.count == 1)
        screen.counter.cancel()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test @MainActor func tallyIsKeptBetweenLaunches() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oak-tally-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let first = HostingArticle.TallyScreen(dataDirectory: folder)
        try await stateChange(of: first.tally) { try first.tally.send(.increment) }
        try await stateChange(of: first.tally) { try first.tally.send(.increment) }
        first.tally.cancel()

        let second = HostingArticle.TallyScreen(dataDirectory: folder)
        #expect(second.tally.state.count == 2)
        try await stateChange(of: second.tally) {}  // the `.restored` event
        #expect(second.tally.state.launches == 1)
        second.tally.cancel()
    }

    @Test func terminalCounterRunsToQuit() async throws {
        let screen = Recorder<Int>()
        let result = await HostingArticle.CounterTerminal.session(lines: ["+", "+", "x", "-", "q", "+"]) { state in
            screen.append(state.count)
        }
        #expect(try result.get() == 1)
        #expect(screen.values == [1, 2, 1, 1])
    }

    @Test func terminalCounterIsCancelledAtTheEndOfTheInput() async {
        let result = await HostingArticle.CounterTerminal.session(lines: ["+"]) { _ in }
        #expect(throws: TransducerError.cancelled) { try result.get() }
    }

    @Test func terminalProgramPrintsWhatTheArticleSays() async {
        let input = Locked(["+", "+", "-", "q"])
        let printed = Recorder<String>()
        await HostingArticle.main(
            readLine: { input.withLock { $0.isEmpty ? nil : $0.removeFirst() } },
            print: { printed.append("\($0)") })
        #expect(printed.values == ["count: 1", "count: 2", "count: 1", "count: 1", "success(1)"])
    }

    @Test func checkoutSessionIsPaid() async {
        let charged = Recorder<Int>()
        let outcome = await HostingArticle.CheckoutSession.serve(requests: [.add, .add, .pay]) { items in
            charged.append(items)
        }
        #expect(outcome == "paid")
        #expect(charged.values == [2])
    }

    @Test func checkoutSessionReportsAFailedCharge() async {
        struct Declined: Error {}
        let outcome = await HostingArticle.CheckoutSession.serve(requests: [.add, .pay]) { _ in throw Declined() }
        #expect(outcome == "ended: Declined()")
    }
}
