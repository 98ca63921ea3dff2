// The Comics feature's state diagram that `comics graph` prints is explored
// here from the transducer (OakTesting's StateGraph runs its effects against
// the mock port) and compared with the copy the feature ships: the program
// prints the copy, so it links no test library, and this test fails when
// the copy is out of date. `OAK_UPDATE_DIAGRAMS=1 swift test --filter
// ComicsDiagramTests` rewrites it.

import Clocks
import Foundation
import OakInspector
import OakTesting
import Testing

@testable import ComicsFeature

@Suite("The Comics feature's diagram")
struct ComicsDiagramTests {
    /// The graph of the feature from its initial state. The mock's comics
    /// arrive after a second on a test clock, so that a load in flight is
    /// a state the feature rests in (where it may be cancelled or
    /// replaced), and the explorer's time passing brings them. Every comic
    /// may be marked as a favourite and the marks add up, so the latest
    /// alone is marked here: that bounds the states without losing a
    /// transition.
    static func explore() async -> StateGraph<Comics, String> {
        let clock = TestClock()
        return await StateGraph.explore(
            Comics.self, from: Comics.State(),
            events: [.start, .next, .previous, .latest, .random, .goTo(4), .cancel, .retry, .toggleFavourite],
            env: { ComicsEnv.mock.arriving(after: .seconds(1), on: clock) }, clock: clock, node: { $0.phase.name },
            eventName: { $0.name }, allowing: { state, event in event != .toggleFavourite || state.current == 10 },
            maxStates: 2_000, maxDepth: 30)
    }

    /// The exploration is complete, every transition is taken again by the
    /// runtime from the initial state along its shortest path, and the
    /// diagram the program prints is this one.
    @Test func theShippedDiagramIsTheTransducers() async throws {
        let graph = await Self.explore()
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage: \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 20)

        let mermaid = graph.mermaid()
        let dot = graph.dot()
        if ProcessInfo.processInfo.environment["OAK_UPDATE_DIAGRAMS"] == "1" {
            try Self.source(mermaid: mermaid, dot: dot).write(to: Self.file, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            ComicsDiagram.mermaid == mermaid,
            "Features/Comics/ComicsDiagram.swift is out of date: run OAK_UPDATE_DIAGRAMS=1 swift test --filter ComicsDiagramTests"
        )
        #expect(ComicsDiagram.dot == dot)
    }

    /// The copy the program gives `--inspect` reads (OakInspectorTests
    /// check that a diagram reads back as the graph explored), and it
    /// places the feature's states and events on it.
    @Test func theInspectorReadsTheShippedDiagram() throws {
        let diagram = try InspectorDiagram(
            of: Comics.self, mermaid: ComicsDiagram.mermaid, node: { $0.phase.name }, event: { $0.name })
        #expect(diagram.graph.nodes == ["idle", "loading", "showing", "not found"])
        #expect(diagram.graph.initial == "idle")
        #expect(diagram.graph.transitions.contains(.init(from: "loading", event: "didLoad (received)", to: "showing")))
    }

    /// `Features/Comics/ComicsDiagram.swift`, from this file's place.
    static var file: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Features/Comics/ComicsDiagram.swift")
    }

    static func source(mermaid: String, dot: String) -> String {
        """
        // The Comics transducer's state diagram, as `comics graph` prints it.
        // Generated from the transducer by ComicsDiagramTests (OakTesting's
        // StateGraph), which fails when this copy is out of date; do not edit.

        /// The state diagram of ``Comics``.
        public enum ComicsDiagram {
            /// In Mermaid.
            public static let mermaid = \(literal(mermaid))

            /// In Graphviz DOT.
            public static let dot = \(literal(dot))
        }

        """
    }

    /// `text` as a Swift multi-line string literal, every line kept.
    static func literal(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.map { $0.isEmpty ? "" : "        " + $0.replacingOccurrences(of: "\\", with: "\\\\") }
        return "\"\"\"\n" + body.joined(separator: "\n") + "\n        \"\"\""
    }
}

extension ComicsEnv {
    /// This port, its comics arriving `delay` after they are asked for, on
    /// `clock`.
    func arriving(after delay: Duration, on clock: TestClock<Duration>) -> ComicsEnv {
        var env = self
        let latest = self.latest
        let comic = self.comic
        env.latest = { () async throws(ComicsError) -> Comic in
            try? await clock.sleep(for: delay)
            return try await latest()
        }
        env.comic = { (number: Int) async throws(ComicsError) -> Comic in
            try? await clock.sleep(for: delay)
            return try await comic(number)
        }
        return env
    }
}
