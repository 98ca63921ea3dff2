// Subjects as Oak code writes them: a custom subject whose `send` receives a
// non-optional actor, `Callback` handed across isolation (it is `Sendable`),
// `NoCallback` whose `send` does not throw.

import Oak
import Testing

/// A custom subject, written against Oak's `Subject` requirement.
final class LastValue<Value: Sendable>: Subject {
    private(set) var values: [Value] = []

    func send(_ value: sending Value, isolated: isolated any Actor = #isolation) async throws {
        isolated.assertIsolated()
        values.append(value)
    }
}

/// Values collected on the main actor.
@MainActor
final class MainActorBox {
    var values: [Int] = []
}

/// Holds a callback to hand it to another isolation: `Callback` is
/// `Sendable`.
struct OutputRoute: Sendable {
    let callback: Callback<Int>
}

@Suite("Oak spellings: subjects")
struct SubjectSpellingTests {
    @Test @MainActor func aCustomSubjectReceivesEveryOutputOnTheRunsActor() async throws {
        let subject = LastValue<Int>()
        let proxy = SelfEffect.Proxy()
        try proxy.send(.add(2))
        try proxy.send(.stop)
        let result = try await SelfEffect.run(initialState: .counting(0), proxy: proxy, env: Void(), output: subject)
        #expect(result == 2)
        #expect(subject.values == [2, 2])
    }

    @Test func aCallbackCrossesIsolation() async throws {
        let outputs = Collector<Int>()
        let route = OutputRoute(callback: Callback { value in await outputs.append(value) })
        let result = try await Task { @MainActor in
            let proxy = SelfEffect.Proxy()
            try proxy.send(.add(5))
            try proxy.send(.stop)
            return try await SelfEffect.run(
                initialState: .counting(0), proxy: proxy, env: Void(), output: route.callback)
        }.value
        #expect(result == 5)
        #expect(await outputs.values == [5, 5])
    }

    @Test @MainActor func aCallbackOnTheMainActorRunsThere() async throws {
        let seen = MainActorBox()
        let callback = Callback<Int> { @MainActor value in
            MainActor.assertIsolated()
            seen.values.append(value)
        }
        try await callback.send(1)
        try await callback.send(2, isolated: MainActor.shared)
        #expect(seen.values == [1, 2])
    }

    @Test @MainActor func noCallbackIgnoresEverything() async {
        let subject = NoCallback<Int>()
        await subject.send(1)
        await subject.send(2, isolated: MainActor.shared)
    }
}
