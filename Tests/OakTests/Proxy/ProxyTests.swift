// The buffered proxy's own API: its identity, its initial event, finishing
// its input. Its limits (a full buffer, a second run) are tested with the
// contract's misuse rules (`Run/MisuseTests.swift`).

import Testing

@testable import Oak

@Suite("Proxy")
struct ProxyTests {
    /// Collects every event; ends on `.stop`.
    enum Recorder: Transducer {
        struct State: Terminable {
            var events: [String] = []
            var isTerminal: Bool { events.last == "stop" }
        }

        static func update(_ state: inout State, event: String) -> [String] {
            state.events.append(event)
            return state.events
        }
    }

    @Test("a proxy is identified by its id for its whole life; two proxies differ")
    func identity() {
        let proxy = Proxy<Int>()
        let other = Proxy<Int>()
        #expect(proxy.id == proxy.id)
        #expect(proxy == proxy)
        #expect(proxy != other)
        #expect(proxy.id != other.id)
    }

    @Test("the initial event is processed first, before the events sent before the run started")
    func theInitialEventComesFirst() async throws {
        let proxy = Recorder.Proxy(initialEvent: "first")
        try proxy.send("second")
        try proxy.send("stop")
        let events = try await Recorder.run(initialState: Recorder.State(), proxy: proxy, output: NoCallback())
        #expect(events == ["first", "second", "stop"])
    }

    @Test("finish() closes the input: later sends throw terminated; the run processes what was sent, then ends")
    func finishClosesTheInputAndDrains() async throws {
        let proxy = Recorder.Proxy()
        try proxy.send("a")
        try proxy.send("b")
        proxy.finish()
        #expect(throws: TransducerError.terminated) { try proxy.send("c") }
        let outputs = Collected<[String]>()
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Recorder.run(initialState: Recorder.State(), proxy: proxy, output: outputs)
        }
        #expect(outputs.values.last == ["a", "b"])
    }
}

/// Keeps every value it is sent.
private final class Collected<Value>: Subject {
    private(set) var values: [Value] = []

    func send(_ value: sending Value, isolated: isolated any Actor) async throws {
        values.append(value)
    }
}
