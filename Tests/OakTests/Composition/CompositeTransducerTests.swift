// Composite transducers: two transducers run as one, side by side or one
// after the other.

import Oak
import Testing

/// Counts up to a limit, outputting the count; terminal at the limit.
enum UpTo: Transducer {
    struct State: Terminable, Sendable {
        var count = 0
        var limit: Int
        var isTerminal: Bool { count >= limit }
    }

    enum Event: Sendable { case step }

    static func update(_ state: inout State, event: Event) -> Int {
        state.count += 1
        return state.count
    }
}

/// Collects words; `.end` is terminal and outputs them joined.
enum Words: Transducer {
    struct State: Terminable, Sendable {
        var words: [String] = []
        var ended = false
        var isTerminal: Bool { ended }
    }

    enum Event: Sendable {
        case word(String)
        case end
    }

    static func update(_ state: inout State, event: Event) -> String {
        switch event {
        case .word(let word): state.words.append(word)
        case .end: state.ended = true
        }
        return state.words.joined(separator: " ")
    }
}

@Suite("Composite transducers", .timeLimit(.minutes(1)))
struct CompositeTransducerTests {
    @Test func parallelRoutesEventsMergesOutputsAndEndsWhenBothEnd() async throws {
        let outputs = Recorder<String>()
        let proxy = ParallelProxy<UpTo.Proxy, Words.Proxy>()
        try proxy.send(.eventA(.step))
        try proxy.send(.eventB(.word("oak")))
        try proxy.send(.eventA(.step))
        try proxy.send(.eventB(.end))
        let (count, words) = try await TransducerComposition.parallel(
            UpTo.self, Words.self,
            initialState: ProductTypeState(stateA: UpTo.State(limit: 2), stateB: Words.State()),
            proxy: proxy, env: ProductTypeEnv(envA: (), envB: ()),
            output: Callback { (output: SumTypeOutput<Int, String>) in
                switch output {
                case .outputA(let count): outputs.append("A \(count)")
                case .outputB(let words): outputs.append("B \(words)")
                }
            })
        #expect(count == 2)
        #expect(words == "oak")
        #expect(outputs.values.filter { $0.hasPrefix("A") } == ["A 1", "A 2"])
        #expect(outputs.values.filter { $0.hasPrefix("B") } == ["B oak", "B oak"])
    }

    @Test func aFailingComponentEndsTheOtherToo() async throws {
        let proxy = ParallelProxy<UpTo.Proxy, Words.Proxy>()
        try proxy.send(.eventA(.step))
        let run = Task {
            try await TransducerComposition.parallel(
                UpTo.self, Words.self,
                initialState: ProductTypeState(stateA: UpTo.State(limit: 5), stateB: Words.State()),
                proxy: proxy, env: ProductTypeEnv(envA: (), envB: ()),
                output: NoCallback())
        }
        proxy.proxyB.cancel(with: Boom())
        await #expect(throws: Boom()) { try await run.value }
        // The other component was cancelled too.
        #expect(throws: TransducerError.terminated) { try proxy.proxyA.send(.step) }
    }

    @Test func sequentialStartsTheSecondWithTheFirstsLastOutput() async throws {
        let outputs = Recorder<String>()
        let proxies = ParallelProxy<UpTo.Proxy, Words.Proxy>()
        for _ in 0..<3 { try proxies.proxyA.send(.step) }
        try proxies.proxyB.send(.word("after"))
        try proxies.proxyB.send(.end)
        let result = try await TransducerComposition.sequential(
            UpTo.self, Words.self,
            initialState: UpTo.State(limit: 3),
            then: { count in Words.State(words: ["counted \(count)"]) },
            proxies: proxies, env: ProductTypeEnv(envA: (), envB: ()),
            output: Callback { (output: SumTypeOutput<Int, String>) in
                switch output {
                case .outputA(let count): outputs.append("A \(count)")
                case .outputB(let words): outputs.append("B \(words)")
                }
            })
        #expect(result == "counted 3 after")
        #expect(outputs.values == ["A 1", "A 2", "A 3", "B counted 3 after", "B counted 3 after"])
    }
}
