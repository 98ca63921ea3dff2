// `run` as Oak code calls it: without a proxy, with `env:` on a pure
// transducer, with the `systemActor:` label, against a property of a host,
// and the ways a run ends.

import Oak
import Testing

/// An actor that runs a transducer on its own isolation.
actor CounterHost {
    var state = SelfEffect.State.counting(0)

    func run(proxy: SelfEffect.Proxy) async throws -> Int {
        try await SelfEffect.run(
            initialState: state, proxy: proxy, env: Void(), output: NoCallback(), systemActor: self)
    }
}

/// A main-actor object that keeps a transducer's state in a property, as
/// Oak's `run(state:host:…)` expects.
@MainActor
final class ToggleModel {
    var toggle = Toggle.State()

    func run(proxy: Toggle.Proxy) async throws {
        try await Toggle.run(
            state: \.toggle, host: self, proxy: proxy, output: NoCallback(), systemActor: MainActor.shared)
    }

    func runIgnoringOutput(proxy: Toggle.Proxy) async throws {
        try await Toggle.run(state: \.toggle, host: self, proxy: proxy)
    }
}

@Suite("Oak spellings: run")
@MainActor
struct RunSpellingTests {
    @Test func aPureTransducerRunsWithEnvVoid() async throws {
        let proxy = SimpleCounter.Proxy()
        try proxy.send(.increment)
        let outputs = Collector<Int>()
        let task = Task {
            try await SimpleCounter.run(
                initialState: SimpleCounter.initialState, proxy: proxy, env: Void(),
                output: Callback { output in
                    if case .value(let count) = output { await outputs.append(count) }
                })
        }
        try proxy.send(.increment)
        #expect(await outputs.wait(for: 2) == [1, 2])
        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await task.value }
    }

    @Test func runWithoutAProxyEndsOnItsOwn() async throws {
        // A Moore machine in a terminal state needs no events and no proxy.
        try await Thermostat.run(initialState: Thermostat.State(target: 20, isOff: true))
        let output = try await Thermostat.run(
            initialState: Thermostat.State(target: 20, isOff: true), output: NoCallback())
        #expect(output == 20)
    }

    @Test func theSystemActorIsWrittenOut() async throws {
        let proxy = SelfEffect.Proxy()
        try proxy.send(.add(4))
        try proxy.send(.stop)
        let result = try await SelfEffect.run(
            initialState: .counting(1), proxy: proxy, env: Void(), output: NoCallback(), systemActor: MainActor.shared)
        #expect(result == 5)
    }

    @Test func anEffectTransducerRunsWithEnvAndTheDefaultProxy() async throws {
        // `run(initialState:env:)` creates its proxy; a terminal initial
        // state ends the run at once.
        try await BareEffect.run(initialState: .loaded(1), env: BareEffect.Env(value: 1))
    }

    @Test func anActorHostRunsWithItsOwnIsolation() async throws {
        let host = CounterHost()
        let proxy = SelfEffect.Proxy()
        try proxy.send(.addTwiceThenStop(3))
        #expect(try await host.run(proxy: proxy) == 6)
    }

    @Test func runKeepsTheStateInAPropertyOfTheHost() async throws {
        let model = ToggleModel()
        let proxy = Toggle.Proxy()
        try proxy.send(.toggle)
        try proxy.send(.stop)
        try await model.run(proxy: proxy)
        #expect(model.toggle.isOn)
        #expect(model.toggle.isTerminal)

        let second = Toggle.Proxy()
        try second.send(.toggle)
        try second.send(.toggle)
        try second.send(.stop)
        let other = ToggleModel()
        try await other.runIgnoringOutput(proxy: second)
        #expect(!other.toggle.isOn)
        #expect(other.toggle.isTerminal)
    }

    @Test func aProxyServesOneRun() async throws {
        let proxy = SelfEffect.Proxy()
        try proxy.send(.stop)
        try await SelfEffect.run(initialState: .counting(0), proxy: proxy, env: Void())
        await #expect(throws: TransducerError.proxyAlreadyInUse) {
            try await SelfEffect.run(initialState: .counting(0), proxy: proxy, env: Void())
        }
    }

    @Test func cancellingTheTaskEndsTheRunWithCancellationError() async throws {
        let proxy = EffectCounter.Proxy()
        let task = Task {
            try await EffectCounter.run(
                initialState: EffectCounter.initialState, proxy: proxy, env: EffectCounter.Env())
        }
        try proxy.send(.increment)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func cancelWithAnErrorEndsTheRunWithIt() async throws {
        struct Stop: Error, Equatable {}
        let proxy = EffectCounter.Proxy()
        let task = Task {
            try await EffectCounter.run(
                initialState: EffectCounter.initialState, proxy: proxy, env: EffectCounter.Env())
        }
        proxy.cancel(with: Stop())
        await #expect(throws: Stop()) { try await task.value }

        let other = EffectCounter.Proxy()
        let second = Task {
            try await EffectCounter.run(
                initialState: EffectCounter.initialState, proxy: other, env: EffectCounter.Env())
        }
        other.cancel(with: nil)
        await #expect(throws: TransducerError.cancelled) { try await second.value }
    }

    @Test func finishingTheInputEndsTheRunWhenTheBufferHasDrained() async throws {
        // An effect transducer whose update returns only `Effect?` returns.
        let proxy = QualifiedEffect.Proxy()
        try proxy.send(.ping)
        try proxy.send(.ping)
        proxy.finish()
        #expect(throws: (any Error).self) { try proxy.send(.ping) }
        try await QualifiedEffect.run(initialState: QualifiedEffect.State(), proxy: proxy, env: Void())

        // A transducer with an output has no final output: noOutputProduced.
        let counter = SimpleCounter.Proxy()
        try counter.send(.increment)
        counter.finish()
        await #expect(throws: TransducerError.noOutputProduced) {
            try await SimpleCounter.run(initialState: SimpleCounter.initialState, proxy: counter, output: NoCallback())
        }
    }
}
