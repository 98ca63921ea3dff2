// StateGraph: explore the README's EffectCounter by running it (its
// operations answer on a test clock), export Mermaid and DOT, find dead
// ends and events that change nothing, and replay the shortest path to
// every node.

import Clocks
import Foundation
import Oak
import OakTesting
import Synchronization
import Testing

/// A door whose lock answers through an operation; `jammed` has no way out.
enum Door: EffectTransducer {
    enum State: Terminable, Equatable, CaseIterable, CustomStringConvertible {
        case closed, opening, open, jammed, removed

        var isTerminal: Bool { self == .removed }
        var description: String {
            switch self {
            case .closed: "closed"
            case .opening: "opening"
            case .open: "open"
            case .jammed: "jammed"
            case .removed: "removed"
            }
        }
    }

    enum Event: Equatable, Sendable {
        case open, close, kick, remove
        case didUnlock
    }

    struct Env: Sendable {
        var unlock: @Sendable () async throws -> Void
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch (state, event) {
        case (.closed, .open):
            state = .opening
            return Effect(id: "unlock") { env, input in
                try await env.unlock()
                try input.send(.didUnlock)
            }
        case (.opening, .didUnlock):
            state = .open
        case (.open, .close):
            state = .closed
        case (.closed, .kick):
            state = .jammed
        case (.open, .remove):
            state = .removed
        default:
            break
        }
        return nil
    }
}

@Suite("State graphs")
struct StateGraphTests {
    func doorGraph() async -> StateGraph<Door, Door.State> {
        let clock = TestClock()
        return await StateGraph.explore(
            Door.self, from: .closed, events: [.open, .close, .kick, .remove],
            env: { Door.Env(unlock: { try await clock.sleep(for: .seconds(1)) }) }, clock: clock,
            node: { $0 })
    }

    @Test func statesReachedThroughAnOperationsAnswerAreFound() async {
        let graph = await doorGraph()
        #expect(graph.nodes == [.closed, .opening, .jammed, .open, .removed])
        #expect(
            graph.edges.map(\.description) == [
                "closed --open--> opening", "closed --kick--> jammed", "opening --didUnlock (received)--> open",
                "open --close--> closed", "open --remove--> removed",
            ])
        // Time passes between opening and removing: the lock answers.
        #expect(graph.paths[.removed] == [.send(.open), .wait, .send(.remove)])
        #expect(graph.terminal == [.removed])
    }

    @Test func deadEndsUnreachableCasesAndIdleEventsAreReported() async {
        let graph = await doorGraph()
        // In `opening` the unlock is in flight: every event changes nothing
        // there; time passing (its answer) leads out.
        #expect(graph.deadEnds == [.jammed])
        #expect(graph.eventsThatChangeNothing[.opening] == ["open", "close", "kick", "remove"])
        #expect(graph.unreachable(among: Door.State.allCases).isEmpty)
        #expect(graph.eventsThatChangeNothing[.closed] == ["close", "remove"])
        #expect(graph.eventsThatChangeNothing[.jammed] == ["open", "close", "kick", "remove"])
    }

    @Test func everyNodesShortestPathReplays() async {
        let graph = await doorGraph()
        await graph.verifyPaths()
    }

    @Test func everyTransitionsShortestPathReplaysAndTheCoverageIsComplete() async {
        let graph = await doorGraph()
        let remove = graph.edges.first { $0.description == "open --remove--> removed" }
        let unlocked = graph.edges.first { $0.description == "opening --didUnlock (received)--> open" }
        #expect(remove.flatMap { graph.transitionPaths[$0] } == [.send(.open), .wait, .send(.remove)])
        // A transition an operation's answer takes: time passing after the
        // event that started it.
        #expect(unlocked.flatMap { graph.transitionPaths[$0] } == [.send(.open), .wait])
        let coverage = await graph.verifyTransitions()
        #expect(coverage == TransitionCoverage(transducer: "Door", covered: 5, found: 5, isComplete: true))
        #expect(coverage.description == "Door: 5 of 5 transitions (100 %)")
    }

    /// The transition sample of the article "Testing transducers".
    @Test func theArticlesTransitionSample() async {
        let clock = TestClock()
        let graph = await StateGraph.explore(
            Door.self, from: .closed, events: [.open, .close, .kick, .remove],
            env: { Door.Env(unlock: { try await clock.sleep(for: .seconds(1)) }) }, clock: clock,
            node: { $0 })
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        #expect(coverage.covered == coverage.found)
    }

    @Test func sampleEventsCanBeLeftOutWhereATestDoesNotMeanThem() async {
        let clock = TestClock()
        let graph = await StateGraph.explore(
            Door.self, from: .closed, events: [.open, .close, .kick, .remove],
            env: { Door.Env(unlock: { try await clock.sleep(for: .seconds(1)) }) }, clock: clock,
            node: { $0 }, allowing: { _, event in event != .kick })
        #expect(!graph.nodes.contains(.jammed))
        #expect(graph.edges.count == 4)
    }

    /// A counter's states grow without end: exploring it stops at its
    /// bound, and requiring a complete exploration fails the test with a
    /// message that says what to do — it never hangs.
    @Test func anUnboundedStateSpaceStopsAtItsBoundAndFailsCleanly() async {
        let clock = TestClock()
        let graph = await StateGraph.explore(
            EffectCounter.self, from: EffectCounter.initialState, events: [.increment],
            env: { .waiting(on: clock) }, clock: clock,
            node: { "\($0.value) \($0.pending)" }, maxStates: 12)
        #expect(graph.isTruncated)
        #expect(graph.nodes.count <= 12)
        withKnownIssue {
            graph.requireComplete()
        } matching: { issue in
            "\(issue)".contains("stopped early: more than 12")
        }
        #expect(!(await graph.verifyTransitions()).isComplete)
    }

    /// A state is explored by replaying the path that found it; an
    /// environment that answers the first run only sends the replays
    /// elsewhere. The exploration says so instead of drawing the edges of
    /// a state it is not in.
    @Test func anEnvironmentThatAnswersDifferentlyIsReportedNotDrawn() async {
        let runs = Mutex(0)
        let graph = await StateGraph.explore(
            Door.self, from: .closed, events: [.open, .close],
            env: {
                let first = runs.withLock { runs in
                    runs += 1
                    return runs == 1
                }
                return Door.Env(unlock: { if !first { throw CancellationError() } })
            },
            node: { $0 })
        #expect(graph.isTruncated)
        #expect(graph.truncation?.contains("replaying open three times did not come back") == true)
        #expect(!graph.edges.contains { $0.from == .open && $0.event == "close" })
    }

    /// A replay on a loaded machine can end a step before an operation
    /// answers (it waits a second), and the answer then shows in the next
    /// step. The transition is replayed again with more patience rather
    /// than reported as not taken: here the unlock of the first replay of
    /// `opening --didUnlock--> open` never answers, and the second does.
    @Test func aReplayWhoseOperationDidNotAnswerInTimeIsTriedAgain() async {
        let calls = Mutex(0)
        let hanging = Mutex<Int?>(nil)
        let graph = await StateGraph.explore(
            Door.self, from: .closed, events: [.open, .close],
            env: {
                Door.Env(unlock: {
                    let call = calls.withLock { calls in
                        calls += 1
                        return calls
                    }
                    if hanging.withLock({ $0 == call }) { try await Task.sleep(for: .seconds(3_600)) }
                })
            },
            node: { $0 })
        // The transitions are replayed in this order, one unlock each: the
        // second replay's unlock is the one that does not answer.
        #expect(
            graph.edges.map(\.description) == [
                "closed --open--> opening", "opening --didUnlock (received)--> open", "open --close--> closed",
            ])
        calls.withLock { calls in hanging.withLock { $0 = calls + 2 } }
        let coverage = await graph.verifyTransitions()
        #expect(coverage.covered == 3)
        // The replay that did not answer, the one tried again, and one for
        // each other transition.
        #expect(calls.withLock { $0 } == (hanging.withLock { $0 } ?? 0) + 2)
    }

    /// A cancelled exploration (the test's time limit) ends, and says so,
    /// rather than going on or hanging.
    @Test func aCancelledExplorationEndsAndSaysSo() async {
        let clock = TestClock()
        let exploring = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            let graph = await StateGraph.explore(
                EffectCounter.self, from: EffectCounter.initialState, events: [.increment],
                env: { .waiting(on: clock) }, clock: clock, node: { "\($0.value) \($0.pending)" },
                maxStates: 10_000, maxDepth: 10_000)
            return (graph.isTruncated, graph.truncation)
        }
        let (isTruncated, truncation) = await exploring.value
        #expect(isTruncated)
        #expect(truncation?.contains("cancelled") == true)
    }

    @Test func mermaidAndDotAreWritten() async throws {
        let graph = await doorGraph()
        #expect(
            graph.mermaid() == """
                stateDiagram-v2
                    state "closed" as s0
                    state "opening" as s1
                    state "jammed" as s2
                    state "open" as s3
                    state "removed" as s4
                    [*] --> s0
                    s0 --> s1: open
                    s0 --> s2: kick
                    s1 --> s3: didUnlock (received)
                    s3 --> s0: close
                    s3 --> s4: remove
                    s4 --> [*]

                """)
        #expect(graph.dot().contains(#""closed" -> "opening" [label="open"];"#))
        #expect(graph.dot().contains(#""removed" [peripheries=2];"#))
        try await DiagramTools.render(mermaid: graph.mermaid(), dot: graph.dot(), name: "door")
    }

    /// The README's EffectCounter, explored with its services on a test
    /// clock; the article "Testing transducers" shows this diagram, which
    /// must stay what the explorer generates.
    @Test func theEffectCounterDiagramOfTheArticle() async throws {
        let clock = TestClock()
        let graph = await StateGraph.explore(
            EffectCounter.self, from: EffectCounter.initialState, events: [.increment, .decrement, .reset],
            env: { .waiting(on: clock) }, clock: clock,
            node: { "\($0.pending)" })
        #expect(graph.nodes == ["none", "increment", "decrement"])
        let article = try String(
            contentsOf: DiagramTools.catalog.appendingPathComponent("effect-counter.mmd"), encoding: .utf8)
        #expect(
            graph.mermaid() == article, "Regenerate Sources/OakTesting/OakTesting.docc/Resources/effect-counter.mmd")
        try await DiagramTools.render(mermaid: graph.mermaid(), dot: graph.dot(), name: "effect-counter")
    }
}

/// Renders diagrams with the real tools when `.ci/run` asks for it
/// (`OAK_DIAGRAM_TOOLS=1`): Mermaid with `mermaidx` (mermaid.js in QuickJS,
/// from PyPI) and DOT with Graphviz's `dot`. Either failing fails the test.
enum DiagramTools {
    static let catalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/OakTesting/OakTesting.docc/Resources")

    static var isEnabled: Bool { ProcessInfo.processInfo.environment["OAK_DIAGRAM_TOOLS"] == "1" }

    static func render(mermaid: String, dot: String, name: String) async throws {
        guard isEnabled else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-diagrams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mermaidFile = directory.appendingPathComponent("\(name).mmd")
        let dotFile = directory.appendingPathComponent("\(name).dot")
        try mermaid.write(to: mermaidFile, atomically: true, encoding: .utf8)
        try dot.write(to: dotFile, atomically: true, encoding: .utf8)
        try await run(
            "mermaidx", "-q", "-i", mermaidFile.path, "-o", directory.appendingPathComponent("\(name).svg").path,
            log: directory.appendingPathComponent("mermaidx.log"))
        try await run(
            "dot", "-Tsvg", dotFile.path, "-o", directory.appendingPathComponent("\(name)-dot.svg").path,
            log: directory.appendingPathComponent("dot.log"))
    }

    /// Runs `tool` and awaits its exit without blocking a thread of the
    /// cooperative pool (other tests run meanwhile); what it prints goes
    /// to `log`, shown when it fails.
    static func run(_ tool: String, _ arguments: String..., log: URL) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            // Resumed exactly once: by the termination handler, or by the
            // failed launch (then the handler never runs).
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(tool) rejected the diagram:\n\(printed)")
    }
}

/// A turnstile: a pure transducer (no effects, no environment).
enum Turnstile: Transducer {
    enum State: Terminable, Equatable, CustomStringConvertible {
        case locked, unlocked, broken
        var isTerminal: Bool { self == .broken }
        var description: String {
            switch self {
            case .locked: "locked"
            case .unlocked: "unlocked"
            case .broken: "broken"
            }
        }
    }
    enum Event: Sendable { case coin, push, kick }

    static func update(_ state: inout State, event: Event) {
        switch (state, event) {
        case (.locked, .coin): state = .unlocked
        case (.unlocked, .push): state = .locked
        case (_, .kick): state = .broken
        default: break
        }
    }
}

@Suite("State graphs of pure transducers")
struct PureStateGraphTests {
    /// A pure transducer is explored and its transitions replayed by the
    /// runtime like an effect transducer's, without an environment.
    @Test func aPureTransducersTransitionsAreFoundAndReplayed() async {
        let graph = await StateGraph.explore(
            Turnstile.self, from: .locked, events: [.coin, .push, .kick], node: { $0 })
        graph.requireComplete()
        #expect(graph.nodes == [.locked, .unlocked, .broken])
        #expect(graph.edges.count == 4)
        #expect(graph.eventsThatChangeNothing[.locked] == ["push"])
        let coverage = await graph.verifyTransitions()
        #expect(coverage.covered == 4 && coverage.isComplete)
        await graph.verifyPaths()
    }
}
