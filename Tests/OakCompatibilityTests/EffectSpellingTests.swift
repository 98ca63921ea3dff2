// Effects as Oak code creates them: `Effect(action:)`, isolated actions and
// operations that receive a non-optional actor and an `Env` that is a class,
// `action { … }` factories, `.sequence` of two to five effects, ids of type
// `ID`, delayed operations on a clock.

import Clocks
import Oak
import Testing

/// A class environment (not `Sendable`), used only on the run's isolation.
final class Counters {
    var actions = 0
    var operations = 0
}

/// Uses a class `Env` through isolated effects and Oak's `action` factory.
enum ClassEnv: EffectTransducer {
    enum State: Terminable {
        case start
        case running
        case done(Int)

        var isTerminal: Bool {
            if case .done = self { true } else { false }
        }
    }

    enum Event {
        case start
        case counted
        case operationDone
        case finish
    }

    typealias Env = Counters
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
        switch (state, event) {
        case (.start, .start):
            state = .running
            return (
                .sequence(
                    action(isolatedAction: { env, isolated in
                        isolated.assertIsolated()
                        env.actions += 1
                        return .counted
                    }),
                    Effect(isolatedOperation: { env, input, isolated in
                        isolated.assertIsolated()
                        env.operations += 1
                        try input.send(.operationDone)
                    })
                ), 0
            )
        case (.running, .operationDone):
            return (
                Effect(isolatedAction: { env, _ in
                    [.finish]
                }), 1
            )
        case (.running, .finish):
            state = .done(2)
            return (nil, 2)
        default:
            return (nil, -1)
        }
    }
}

/// Oak's `action { env in … }` and `Effect(action:)` on a global actor, and
/// the other `action` factories of Oak's `main`: one event or several, on an
/// isolation of their own or on the run's.
enum GlobalActions: EffectTransducer {
    struct State: Terminable {
        var log: [String] = []
        var isTerminal: Bool { log.count >= 8 }
    }

    enum Event {
        case start
        case note(String)
    }

    struct Env: Sendable {
        var name = "env"
    }

    typealias Output = [String]

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, [String]) {
        switch event {
        case .start:
            return (
                .sequence(
                    action { @TestGlobalActor env in .note("action:\(env.name)") },
                    Effect(action: { @MainActor env in [.note("main:1"), .note("main:2")] }),
                    action { env in [.note("many:1"), .note("many:2")] },
                    action(isolatedAction: { env, isolated in .note("isolated one") }),
                    action(isolatedAction: { env, isolated in [.note("isolated many:1"), .note("isolated many:2")] })
                ), state.log
            )
        case .note(let text):
            state.log.append(text)
            return (nil, state.log)
        }
    }
}

/// Oak's delayed operation on a clock given to the effect.
enum Timer: EffectTransducer {
    enum State: Terminable {
        case idle
        case waiting
        case fired

        var isTerminal: Bool { self == .fired }
    }

    enum Event {
        case start
        case cancel
        case fire
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch (state, event) {
        case (.idle, .start):
            state = .waiting
            return timer()
        case (.waiting, .cancel):
            state = .idle
            return .cancelTask("timer")
        case (.waiting, .fire):
            state = .fired
            return nil
        default:
            return nil
        }
    }

    static func timer() -> Effect {
        Effect(
            id: "timer",
            isolatedOperation: { _, input, _ in try input.send(.fire) },
            after: .seconds(10),
            clock: ImmediateClock())
    }
}

@Suite("Oak spellings: effects")
@MainActor
struct EffectSpellingTests {
    @Test func isolatedEffectsUseAClassEnvironmentOnTheRunsActor() async throws {
        let counters = Counters()
        let proxy = ClassEnv.Proxy()
        try proxy.send(.start)
        let result = try await ClassEnv.run(initialState: .start, proxy: proxy, env: counters, output: NoCallback())
        #expect(result == 2)
        #expect(counters.actions == 1)
        #expect(counters.operations == 1)
    }

    @Test func everyActionFactoryOfOaksReturnsItsEventsInOrder() async throws {
        let proxy = GlobalActions.Proxy()
        try proxy.send(.start)
        let log = try await GlobalActions.run(initialState: GlobalActions.State(), proxy: proxy, env: .init())
        #expect(
            log == [
                "action:env", "main:1", "main:2", "many:1", "many:2", "isolated one", "isolated many:1",
                "isolated many:2",
            ])
    }

    @Test func sequenceRunsItsEffectsInOrderInOneCycle() async throws {
        let outputs = Collector<Int>()
        let proxy = SelfEffect.Proxy()
        try proxy.send(.addTwiceThenStop(5))
        try proxy.send(.add(100))  // processed after the whole sequence
        let last = try await SelfEffect.run(
            initialState: .counting(0), proxy: proxy, env: Void(),
            output: Callback { await outputs.append($0) })
        #expect(last == 10)
        #expect(await outputs.values == [0, 5, 10, 10])
    }

    @Test func aDelayedOperationWaitsOnItsClock() async throws {
        let proxy = Timer.Proxy()
        try proxy.send(.start)
        try await Timer.run(initialState: .idle, proxy: proxy, env: Void())
    }

    @Test func effectIdsAreOfTypeID() {
        let none: ID? = nil
        #expect(none == nil)
        let effect = ClassEnv.Effect(id: Optional<ID>.none, isolatedOperation: { _, _, _ in })
        _ = effect
    }

    @Test func anEventEffectIsAnActionThatReturnsItsEvent() async throws {
        var state = QualifiedEffect.State()
        let (effect, _) = QualifiedEffect.compute(&state, event: .ping)
        #expect(effect != nil)
        #expect(state.log == ["ping"])

        let proxy = QualifiedEffect.Proxy()
        try proxy.send(.ping)
        proxy.finish()
        try await QualifiedEffect.run(initialState: QualifiedEffect.State(), proxy: proxy, env: Void())
    }
}
