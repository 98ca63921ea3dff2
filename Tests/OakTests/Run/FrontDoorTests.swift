// The designated forms (decision 0046): one isolation label, `isolation:`;
// every `run` returns the final output; Oak's spellings resolve to the forms
// kept for them and do the same thing.

import Oak
import Testing

/// Counts to a limit; its output is the count.
private enum CountTo: Transducer {
    struct State: Terminable {
        var count = 0
        var limit = 2
        var isTerminal: Bool { count >= limit }
    }

    enum Event { case step }

    static func update(_ state: inout State, event: Event) -> Int {
        state.count += 1
        return state.count
    }
}

private actor RunPlace {
    func run(proxy: CountTo.Proxy) async throws -> Int {
        try await CountTo.run(initialState: CountTo.State(), proxy: proxy, output: DeliveredOn(expected: self))
    }
}

/// Checks that every output is delivered on the isolation `expected`.
private struct DeliveredOn: Subject {
    let expected: any Actor

    func send(_ value: sending Int, isolated: isolated any Actor) async throws {
        #expect(ObjectIdentifier(isolated) == ObjectIdentifier(expected))
    }
}

@Suite("The front door: designated forms", .timeLimit(.minutes(1)))
struct FrontDoorTests {
    @Test func aPureTransducersRunWithoutOutputReturnsTheFinalOutput() async throws {
        let proxy = CountTo.Proxy()
        try proxy.send(.step)
        try proxy.send(.step)
        let output = try await CountTo.run(initialState: CountTo.State(), proxy: proxy)
        #expect(output == 2)
    }

    @Test func theRunExecutesOnTheCallersIsolation() async throws {
        let proxy = CountTo.Proxy()
        try proxy.send(.step)
        try proxy.send(.step)
        #expect(try await RunPlace().run(proxy: proxy) == 2)
    }

    @Test func isolationGivenExplicitlyIsWhereOutputsAreDelivered() async throws {
        let place = RunPlace()
        let proxy = CountTo.Proxy()
        try proxy.send(.step)
        try proxy.send(.step)
        let output = try await CountTo.run(
            initialState: CountTo.State(), proxy: proxy,
            output: DeliveredOn(expected: place), isolation: place)
        #expect(output == 2)
    }

    @Test func oaksSpellingsResolveToTheFormsKeptForThem() async throws {
        let first = CountTo.Proxy()
        try first.send(.step)
        try first.send(.step)
        // Oak's pure `run` without output returns nothing.
        let nothing: Void = try await CountTo.run(initialState: CountTo.State(), proxy: first, systemActor: nil)
        #expect(nothing == ())
        let second = CountTo.Proxy()
        try second.send(.step)
        try second.send(.step)
        let output = try await CountTo.run(
            initialState: CountTo.State(), proxy: second, output: NoCallback(), systemActor: MainActor.shared)
        #expect(output == 2)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    @Test func aHostTakesItsCompletionAsAClosureOrAsOaksValue() async throws {
        let ended = AsyncStream.makeStream(of: Result<Int, any Error>.self)
        let closure = ObservableTransducer<CountTo>(initialState: CountTo.State()) { ended.continuation.yield($0) }
        let value = ObservableTransducer<CountTo>(
            initialState: CountTo.State(), completion: .init { ended.continuation.yield($0) })
        for host in [closure, value] {
            try host.proxy.send(.step)
            try host.proxy.send(.step)
        }
        var outputs: [Int] = []
        for await result in ended.stream {
            outputs.append(try result.get())
            if outputs.count == 2 { break }
        }
        #expect(outputs == [2, 2])
    }
}
