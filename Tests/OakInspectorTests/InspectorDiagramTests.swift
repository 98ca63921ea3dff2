// A transducer's diagram as its tests explored it, given to the inspector:
// StateGraph's Mermaid reads back as the graph explored, text that is not
// a diagram is refused with a message that says what to give, and the live
// inspector places a run of that type on it (its diagram on the start, a
// node each state, a name each event), and only a run of that type.

import Oak
import OakInspector
import OakInspectorFixtures
import OakTesting
import Testing

@Suite("A transducer's diagram, in the inspector", .timeLimit(.minutes(1)))
struct InspectorDiagramTests {
    /// A turnstile's node: whether it is locked.
    @Sendable static func node(_ state: Turnstile.State) -> String {
        state.isLocked ? "locked" : "unlocked"
    }

    /// A turnstile's event, without its payload.
    @Sendable static func event(_ event: Turnstile.Event) -> String {
        switch event {
        case .coin: "coin"
        case .push: "push"
        case .note: "note"
        }
    }

    @Test func aDiagramStateGraphWroteReadsBackAsTheGraphExplored() async throws {
        let graph = await StateGraph.explore(
            Turnstile.self, from: Turnstile.State(), events: [.coin(cents: 10), .coin(cents: 50), .push],
            node: Self.node, eventName: Self.event, maxStates: 30)
        let diagram = try InspectorDiagram(
            of: Turnstile.self, mermaid: graph.mermaid(), node: Self.node, event: Self.event)
        #expect(diagram.graph.nodes == graph.nodes)
        #expect(diagram.graph.initial == graph.initial)
        #expect(diagram.graph.terminal.isEmpty)
        #expect(diagram.graph.transitions == graph.edges.map { .init(from: $0.from, event: $0.event, to: $0.to) })
        #expect(diagram.graph.transitions.contains(.init(from: "locked", event: "coin", to: "unlocked")))
    }

    @Test func namesAreUnescapedAndEndsRead() throws {
        let diagram = try InspectorDiagram(
            of: Turnstile.self,
            mermaid: """
                %% written by hand
                stateDiagram-v2
                    state "at rest#58; 'idle'" as s0
                    [*] --> s0
                    s0 --> s1: go#58; now
                    s1 --> [*]
                """, node: Self.node, event: Self.event)
        #expect(diagram.graph.nodes == ["at rest: 'idle'", "s1"])
        #expect(diagram.graph.initial == "at rest: 'idle'")
        #expect(diagram.graph.terminal == ["s1"])
        #expect(diagram.graph.transitions == [.init(from: "at rest: 'idle'", event: "go: now", to: "s1")])
    }

    @Test(arguments: [
        ("graph TD\n  a --> b", InspectorDiagramError.notAStateDiagram),
        ("", .notAStateDiagram),
        ("stateDiagram-v2\n    s0 --> s1: go", .noInitialState),
        ("stateDiagram-v2\n    [*] --> s0\n    s0 -> s1", .unreadableLine(3, "s0 -> s1")),
        ("stateDiagram-v2\n    state \"a\" as s0\n    state \"b\" as s0", .unreadableLine(3, "state \"b\" as s0")),
        ("stateDiagram-v2\n    [*] --> [*]", .unreadableLine(2, "[*] --> [*]")),
    ])
    func textThatIsNotADiagramIsRefusedSayingWhatToGive(text: String, error: InspectorDiagramError) {
        #expect(throws: error) {
            try InspectorDiagram(of: Turnstile.self, mermaid: text, node: Self.node, event: Self.event)
        }
        #expect(error.description.contains("StateGraph.mermaid()"))
    }

    @Test func aRunOfTheTypeIsPlacedOnItsDiagramAndNoOtherRunIs() async throws {
        let diagram = try InspectorDiagram(
            of: Turnstile.self,
            mermaid: """
                stateDiagram-v2
                    state "locked" as s0
                    state "unlocked" as s1
                    [*] --> s0
                    s0 --> s1: coin
                    s1 --> s0: push
                """, node: Self.node, event: Self.event)
        let inspector = LiveInspector(diagrams: [diagram])
        let proxy = Turnstile.Proxy()
        try proxy.send(.coin(cents: 50))
        try proxy.send(.push)
        let run = Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Turnstile.run(initialState: Turnstile.State(), proxy: proxy)
            }
        }
        var entries: [InspectorEntry] = []
        while entries.filter({ $0.kind == .state }).count < 2 {
            let batch = await inspector.next()
            if batch.isEmpty { break }
            entries += batch
        }
        let started = try #require(entries.first { $0.kind == .started })
        #expect(started.diagram == diagram.graph)
        #expect(started.node == "locked")
        #expect(entries.filter { $0.kind == .event }.map(\.node) == ["coin", "push"])
        #expect(entries.filter { $0.kind == .state }.map(\.node) == ["unlocked", "locked"])
        // A reader that connects now is told the run is on the diagram.
        let running = try #require(inspector.runningNow().first)
        #expect(running.diagram == diagram.graph)
        #expect(running.node == "locked")
        proxy.cancel()
        _ = try? await run.value

        // A run of another type is not.
        let other = Counter.Proxy()
        try other.send(1)
        let counting = Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Counter.run(initialState: Counter.State(), proxy: other)
            }
        }
        var more: [InspectorEntry] = []
        while !more.contains(where: { $0.kind == .state }) {
            let batch = await inspector.next()
            if batch.isEmpty { break }
            more += batch
        }
        other.cancel()
        _ = try? await counting.value
        #expect(more.contains { $0.kind == .started })
        #expect(more.allSatisfy { $0.diagram == nil && $0.node == nil })
    }
}

/// Adds what it is sent.
private enum Counter: Transducer {
    struct State: NonTerminal {
        var total = 0
    }
    typealias Event = Int
    typealias Output = Void

    static func update(_ state: inout State, event: Int) {
        state.total += event
    }
}
