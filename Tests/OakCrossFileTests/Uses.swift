// Uses of the transducers of Declarations.swift that name `Proxy` before
// `Output`, as most code does; see Declarations.swift.

import Oak
import Testing

@Suite("A transducer's types, named from another file")
struct CrossFileTests {
    @Test func proxyThenOutputOfAPureTransducer() async throws {
        let proxy = Count.Proxy()
        let first: Count.Output = 1
        try proxy.send(.step)
        try proxy.send(.step)
        let last = try await Count.run(initialState: Count.State(), proxy: proxy, output: NoCallback())
        #expect(last == first + 1)
    }

    @Test func proxyThenOutputOfAnEffectTransducer() async throws {
        let proxy = Label.Proxy()
        let expected: Label.Output = "done"
        try proxy.send(.finish)
        let output = try await Label.run(initialState: Label.State(), proxy: proxy, env: (), output: NoCallback())
        #expect(output == expected)
    }

    @Test func outputsInAGenericSignature() {
        let outputs: [SumTypeOutput<Count.Output, Label.Output>] = [.outputA(1), .outputB("b")]
        #expect(outputs.count == 2)
        #expect(Flag.Output.self == Void.self)
        #expect(Flag.Proxy.self == Proxy<Flag.Event>.self)
    }
}
