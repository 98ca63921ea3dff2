// The samples of the articles "Composing transducers" and "State-scoped
// actions" (Sources/Oak/Oak.docc), compiled and run. Keep the two in step.

import Clocks
import Oak
import Testing

enum DocComposition {
    /// A kitchen timer: counts down on the environment's clock and ends.
    enum KitchenTimer: EffectTransducer {
        struct State: Terminable, Sendable {
            var remaining: Int
            var isTerminal: Bool { remaining == 0 }
        }

        enum Event: Sendable {
            case start
            case tick
        }

        struct Env: Sendable {
            var clock: any Clock<Duration>
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
            switch event {
            case .start:
                let seconds = state.remaining
                return (
                    Effect(id: "ticking") { env, input in
                        for _ in 0..<seconds {
                            try await env.clock.sleep(for: .seconds(1))
                            try input.send(.tick)
                        }
                    }, state.remaining
                )
            case .tick:
                state.remaining -= 1
                return (nil, state.remaining)
            }
        }
    }

    /// A stepper: a pure transducer, embedded in the settings that follow
    /// (one sample of the article, so no comment between the two).
    enum Stepper: Transducer {
        struct State: NonTerminal, Sendable {
            var value: Int
            var step: Int
        }

        enum Event: Sendable {
            case increment
            case decrement
        }

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .increment: state.value += state.step
            case .decrement: state.value -= state.step
            }
            return state.value
        }
    }

    enum Settings: EffectTransducer {
        struct State: NonTerminal, Sendable {
            var fontSize = Stepper.State(value: 12, step: 2)
            var preview = "12 pt"
        }

        enum Event: Sendable {
            case fontSize(Stepper.Event)
            case fontSizeChanged(Int)
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch event {
            case .fontSize(let event):
                let size = Stepper.update(&state.fontSize, event: event)
                return .event(.fontSizeChanged(size))
            case .fontSizeChanged(let size):
                state.preview = "\(size) pt"
                return nil
            }
        }
    }

    /// A kitchen: one timer per dish, each a child bound to the state.
    enum Kitchen: EffectTransducer {
        struct State: NonTerminal, Sendable {
            var timers: [String: Child<KitchenTimer>] = [:]
            var done: [String] = []

            var children: [Child<KitchenTimer>] { timers.keys.sorted().compactMap { timers[$0] } }
        }

        enum Event: Sendable {
            case start(String, seconds: Int)
            case cancel(String)
            case timer(String, remaining: Int)
        }

        typealias Env = KitchenTimer.Env

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            let before = state
            switch event {
            case .start(let dish, let seconds):
                state.timers[dish] = Child(KitchenTimer.self, initialState: .init(remaining: seconds))
            case .cancel(let dish):
                state.timers[dish] = nil
            case .timer(let dish, let remaining) where remaining == 0:
                state.timers[dish] = nil
                state.done.append(dish)
            case .timer:
                break
            }
            let timers = state.timers
            return .children(\.children, from: before, to: state) { child in
                let dish = timers.first { $0.value == child }?.key ?? ""
                return .combine(
                    .run(child, env: { $0 }, output: { .timer(dish, remaining: $0) }),
                    .send(.start, to: child))
            }
        }
    }

    /// What the kitchen's screen shows: each dish with the time its timer
    /// has left, read from the timer's one copy of its state.
    static func board(_ state: Kitchen.State) -> [String] {
        state.timers.keys.sorted().compactMap { dish in
            state.timers[dish].map { "\(dish): \($0.state.remaining) s" }
        }
    }

    /// The loader of the article "State-scoped actions".
    enum Loader: EffectTransducer {
        enum State: NonTerminal, Equatable {
            case idle
            case loading
        }

        enum Event: Equatable, Sendable {
            case load
            case cancel
        }

        static func update(_ state: inout State, event: Event) -> Self.Effect? {
            switch (state, event) {
            case (.idle, .load): state = .loading
            case (.loading, .cancel): state = .idle
            default: break
            }
            return nil
        }

        /// The scope of a state: its case.
        static func scope(of state: State) -> State { state }

        enum Model {
            case idle(load: Intent<Event>)
            case loading(cancel: Intent<Event>)
        }

        static func model(of state: State, intents: Intents<Loader, State>) -> Model {
            switch state {
            case .idle: .idle(load: intents(.load))
            case .loading: .loading(cancel: intents(.cancel))
            }
        }
    }

    /// The test clock, writing "sleeping" to the trace each time a timer
    /// starts sleeping on it.
    struct SleepRecordingClock: Clock {
        let base: TestClock<Duration>
        let trace: Trace

        var now: TestClock<Duration>.Instant { base.now }
        var minimumResolution: Duration { base.minimumResolution }

        func sleep(until deadline: TestClock<Duration>.Instant, tolerance: Duration?) async throws {
            trace.append("sleeping")
            try await base.sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// Writes each state of the kitchen to a trace, for the tests, and
    /// keeps every timer's handle it saw.
    struct KitchenInspector: TransducerInspector {
        let trace: Trace
        let handles = Locked<[String: Child<KitchenTimer>]>([:])

        func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
            if case .state(let state as Kitchen.State) = record {
                handles.withLock { $0.merge(state.timers) { old, _ in old } }
                trace.append("timers \(state.timers.keys.sorted()) done \(state.done)")
            }
        }
    }

    @Suite("Documentation: Composing transducers and state-scoped actions")
    struct CompositionArticleTests {
        @Test func timersRunWhileTheKitchenHoldsThem() async throws {
            let clock = TestClock()
            let trace = Trace()
            let proxy = Kitchen.Proxy(bufferSize: 16)
            let env = KitchenTimer.Env(clock: SleepRecordingClock(base: clock, trace: trace))
            let inspector = KitchenInspector(trace: trace)
            let run = Task {
                try await TransducerInspection.$inspector.withValue(inspector) {
                    try await Kitchen.run(initialState: Kitchen.State(), proxy: proxy, env: env)
                }
            }
            /// Waits until the timers have gone to sleep `count` times in all:
            /// the clock is advanced only once every timer sleeps on it.
            func sleeps(_ count: Int) async {
                await trace.waitUntil("\(count) sleeps") { $0.filter { $0 == "sleeping" }.count == count }
            }
            try proxy.send(.start("tea", seconds: 3))
            try proxy.send(.start("eggs", seconds: 5))
            await trace.waitFor("timers [\"eggs\", \"tea\"] done []")
            // Before their first tick, the board reads each timer's state.
            #expect(board(Kitchen.State(timers: inspector.handles.withLock { $0 })) == ["eggs: 5 s", "tea: 3 s"])
            await sleeps(2)
            await clock.advance(by: .seconds(1))
            await sleeps(4)
            await clock.advance(by: .seconds(1))
            await sleeps(6)
            // Tea's third tick ends it; eggs sleeps once more.
            await clock.advance(by: .seconds(1))
            await trace.waitFor("timers [\"eggs\"] done [\"tea\"]")
            // The kitchen dropped tea's handle once it said 0; the handle
            // still reads the timer's last state, its one copy.
            #expect(inspector.handles.withLock { $0["tea"] }?.state.remaining == 0)
            await sleeps(7)
            try proxy.send(.cancel("eggs"))
            await trace.waitFor("timers [] done [\"tea\"]")
            await clock.advance(by: .seconds(5))
            // Eggs was cancelled: it never finishes.
            try proxy.send(.start("rice", seconds: 1))
            await trace.waitFor("timers [\"rice\"] done [\"tea\"]")
            await sleeps(8)
            await clock.advance(by: .seconds(1))
            await trace.waitFor("timers [] done [\"tea\", \"rice\"]")
            proxy.cancel()
            _ = try? await run.value
            #expect(!trace.entries.contains { $0.contains("eggs\"]") && $0.hasSuffix("\"eggs\"]") })
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test @MainActor func aStaleIntentIsRefused() async {
            let host = ObservableTransducer<Loader>(initialState: .idle)
            let model = host.model(scope: Loader.scope(of:), Loader.model(of:intents:))
            if case .idle(let load) = model {
                load()  // .sent: the host starts loading
                while host.state != .loading { await Task.yield() }
                let again = load()  // .stale: the state has moved on
                #expect(again == .stale)
            }
            host.cancel()
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        @Test @MainActor func aPerformedIntentReturnsOnceProcessed() async {
            let host = ObservableTransducer<Loader>(initialState: .idle)
            if case .idle(let load) = host.model(scope: Loader.scope(of:), Loader.model(of:intents:)) {
                await load.perform()  // .sent: processed
                #expect(host.state == .loading)
            }
            host.cancel()
        }

        @Test func anEmbeddedChildAnswersAsTheParentsNextEvent() {
            var state = Settings.State()
            let (effect, _) = Settings.compute(&state, event: .fontSize(.increment))
            #expect(state.fontSize.value == 14)
            guard case .event(.fontSizeChanged(let size)) = effect?.summary else {
                Issue.record(
                    "expected the stepper's output as the next event, got \(String(describing: effect?.summary))")
                return
            }
            #expect(size == 14)
            _ = Settings.compute(&state, event: .fontSizeChanged(14))
            #expect(state.preview == "14 pt")
        }

        @Test func twoTransducersRunSideBySide() async throws {
            let proxy = ParallelProxy<UpTo.Proxy, Words.Proxy>()
            try proxy.send(.eventA(.step))
            try proxy.send(.eventB(.word("oak")))
            try proxy.send(.eventB(.end))
            let (count, words) = try await TransducerComposition.parallel(
                UpTo.self, Words.self,
                initialState: ProductTypeState(stateA: UpTo.State(limit: 1), stateB: Words.State()),
                proxy: proxy, env: ProductTypeEnv(envA: (), envB: ()),
                output: Callback { (output: SumTypeOutput<Int, String>) in print(output) })
            #expect(count == 1)
            #expect(words == "oak")
        }
    }
}
