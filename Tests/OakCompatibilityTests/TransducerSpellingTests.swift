// The transducer protocols as Oak code writes them: the effect type under all
// its names, `Env` and `Effect` of a pure transducer, `compute`,
// `initialOutput`, and generic code over `BaseTransducer`.

import Oak
import Testing

/// Generic code names a transducer's effect `T.Effect` or `Oak.Effect<T>`.
func noEffect<T: EffectTransducer>(of type: T.Type) -> T.Effect? { nil }
func noQualifiedEffect<T: EffectTransducer>(of type: T.Type) -> Oak.Effect<T>? { nil }

/// Generic code over any transducer: every one has `Env`, `Effect`, `Output`
/// and a `run` that takes them.
@MainActor
func runToEnd<T: BaseTransducer>(
    _ type: T.Type, from state: T.State, env: T.Env, events: [T.Event]
) async throws -> T.Output where T.Proxy == Proxy<T.Event>, T.Event: Sendable {
    let proxy = T.Proxy(bufferSize: events.count + 1)
    for event in events { try proxy.send(event) }
    return try await T.run(
        initialState: state, proxy: proxy, env: env, output: NoCallback(), systemActor: MainActor.shared)
}

/// A function that takes a transducer by its primary associated type.
func eventType<T: BaseTransducer<Toggle.Event>>(of type: T.Type) -> String { "\(T.Event.self)" }

@Suite("Oak spellings: transducer protocols")
struct TransducerSpellingTests {
    /// `Output` is inferred from `update` even when the transducer is declared
    /// in another file (a default on `BaseTransducer.Output` once made these
    /// `Void` across files).
    @Test func outputIsInferredFromUpdateAcrossFiles() {
        let temperature: Thermostat.Output = 21
        let pair: (Thermostat.Output, SelfEffect.Output) = (temperature, 3)
        #expect(pair == (21, 3))
        #expect(Thermostat.Output.self == Int.self)
        #expect(DeclaredEffect.Output.self == Int.self)
        #expect(Toggle.Output.self == Void.self)
        #expect(BareEffect.Output.self == Void.self)
    }

    @Test func theEffectTypeHasFourNames() {
        #expect(BareEffect.Effect.self == Oak.Effect<BareEffect>.self)
        #expect(SelfEffect.Effect.self == Oak.Effect<SelfEffect>.self)
        #expect(DeclaredEffect.Effect.self == Oak.Effect<DeclaredEffect>.self)
        #expect(QualifiedEffect.Effect.self == Oak.Effect<QualifiedEffect>.self)
        #expect(noEffect(of: BareEffect.self) == nil)
        #expect(noQualifiedEffect(of: BareEffect.self) == nil)
    }

    @Test func aPureTransducerHasNoEnvironmentAndNoEffect() {
        #expect(SimpleCounter.Env.self == Void.self)
        #expect(SimpleCounter.Effect.self == Never.self)
        #expect(Toggle.Output.self == Void.self)
        #expect(eventType(of: Toggle.self) == "Event")
    }

    @Test func anEffectTransducerHasDefaults() {
        #expect(EffectCounter.Output.self == Void.self)
        #expect(QualifiedEffect.Env.self == Void.self)
        #expect(EffectCounter.Proxy.self == Proxy<EffectCounter.Event>.self)
        #expect(EffectCounter.Input.self == Proxy<EffectCounter.Event>.Input.self)
    }

    @Test func computeReturnsTheEffectAndTheOutput() {
        var state = SelfEffect.State.counting(1)
        let (effect, output) = SelfEffect.compute(&state, event: .add(2))
        #expect(effect == nil)
        #expect(output == 3)

        var loader = BareEffect.State.idle
        let (loadEffect, _) = BareEffect.compute(&loader, event: .load)
        #expect(loadEffect != nil)
        guard case .loading = loader else {
            Issue.record("expected .loading, got \(loader)")
            return
        }
    }

    @Test @MainActor func genericCodeRunsAnyTransducer() async throws {
        let count = try await runToEnd(
            SelfEffect.self, from: .counting(0), env: (), events: [.add(2), .add(3), .stop])
        #expect(count == 5)
        try await runToEnd(Toggle.self, from: Toggle.State(), env: (), events: [.toggle, .stop])
    }

    @Test @MainActor func theInitialOutputComesFirst() async throws {
        let outputs = Collector<Int>()
        let proxy = Thermostat.Proxy()
        try proxy.send(.set(21))
        try proxy.send(.off)
        let last = try await Thermostat.run(
            initialState: Thermostat.State(target: 19), proxy: proxy,
            output: Callback { value in await outputs.append(value) })
        #expect(last == 21)
        #expect(await outputs.values == [19, 21, 21])
    }

    @Test @MainActor func aTerminalInitialStateReturnsTheInitialOutput() async throws {
        let outputs = Collector<Int>()
        let last = try await Thermostat.run(
            initialState: Thermostat.State(target: 18, isOff: true),
            output: Callback { value in await outputs.append(value) })
        #expect(last == 18)
        #expect(await outputs.values == [18])
    }

    @Test @MainActor func aTerminalInitialStateWithoutInitialOutputThrowsNoOutputProduced() async throws {
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Toggle.run(initialState: Toggle.State(isTerminal: true))
        }
        await #expect(throws: TransducerError.noOutputProduced) {
            try await SelfEffect.run(initialState: .done(3), proxy: SelfEffect.Proxy(), env: Void())
        }
        // An effect transducer whose update returns only `Effect?` returns.
        try await BareEffect.run(initialState: .loaded(1), proxy: BareEffect.Proxy(), env: BareEffect.Env(value: 1))
    }
}
