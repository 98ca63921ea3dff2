// The run loop's out-of-line step (decision 0023): a transducer whose state,
// output and event take more than 256 bytes together is stepped by
// `_step`, not by the inlined code every other test exercises. The same
// rules hold on that path: outputs delivered in order before the effect
// executes (also when delivery suspends), synchronous and suspending effects,
// depth-first events, terminal states, failures.

import Oak
import Testing

/// `Scripted` with a state of more than 256 bytes.
enum LargeScripted: EffectTransducer {
    struct State: Terminable, Sendable {
        var script: ScriptState<LargeScripted>
        // 40 words: the state alone is over 256 bytes.
        var padding = Padding()
        var isTerminal: Bool { script.isTerminal }
    }
    struct Padding: Sendable {
        var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var more: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var evenMore: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var last: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
    typealias Event = String
    typealias Output = String
    typealias Env = Void
    typealias TransducerOutput = (Oak.Effect<LargeScripted>?, String)
    typealias Proxy = Oak.Proxy<String>

    static func update(_ state: inout State, event: String) -> (Self.Effect?, String) {
        state.padding.words.0 += 1
        return (state.script.apply(event), event)
    }

    static func state(
        _ trace: Trace, effects: @escaping @Sendable (String) -> Oak.Effect<LargeScripted>? = { _ in nil }
    ) -> State {
        State(script: ScriptState(trace: trace, effects: effects))
    }
}

@Suite("A transducer with a large state (the out-of-line step)")
struct LargeStateTests {
    @Test func theStateIsLargeEnoughToTakeTheOutOfLinePath() {
        #expect(MemoryLayout<LargeScripted.State>.size > 256)
    }

    /// Runs `LargeScripted` over `events`, every output delivered to a
    /// callback on another actor (so delivery suspends) and traced as
    /// `output:<value>`; returns the last output.
    private func runWithSuspendingCallback(
        _ events: [String], trace: Trace, effects: @escaping @Sendable (String) -> Effect<LargeScripted>?
    ) async throws -> String {
        let proxy = LargeScripted.Proxy()
        for event in events { try proxy.send(event) }
        return try await LargeScripted.run(
            initialState: LargeScripted.state(trace, effects: effects), proxy: proxy,
            output: Callback { @ContractActor value in trace.append("output:\(value)") })
    }

    @Test("every output reaches a suspending callback in order, with and without effects")
    func outputsReachASuspendingCallbackInOrder() async throws {
        let trace = Trace()
        let last = try await runWithSuspendingCallback(["a", "c", "end"], trace: trace) { event in
            event == "a"
                ? Effect { _, _ in
                    trace.append("action:a"); return "b"
                } : nil
        }

        #expect(last == "end")
        #expect(trace.entries(withPrefix: "output:") == ["output:a", "output:b", "output:c", "output:end"])
        // The output of an update is delivered before its effect executes.
        #expect(trace.isOrdered("output:a", before: "action:a"))
    }

    @Test("combine runs its parts in order, synchronous and suspending, depth first")
    func combineRunsItsPartsInOrder() async throws {
        let trace = Trace()
        let proxy = LargeScripted.Proxy()
        let state = LargeScripted.state(trace) { event in
            switch event {
            case "go":
                .combine(
                    .event("a"), Effect { _, _ in "b" }, .events("c", "d"),
                    .combine(.event("e"), Effect(isolatedAction: { _, _ in "f" })))
            case "sync":
                .combine(.event("x"), .events("y"))
            default:
                nil
            }
        }
        for event in ["go", "sync", "buffered", "end"] { try proxy.send(event) }

        _ = try await LargeScripted.run(initialState: state, proxy: proxy)

        #expect(
            trace.entries(withPrefix: "update:")
                == ["go", "a", "b", "c", "d", "e", "f", "sync", "x", "y", "buffered", "end"].map { "update:\($0)" })
    }

    @Test func anAsynchronousActionsEventIsProcessedNext() async throws {
        let trace = Trace()
        let proxy = LargeScripted.Proxy()
        let state = LargeScripted.state(trace) { event in
            event == "go" ? Effect(action: { @ContractActor _ in "answer" }) : nil
        }
        for event in ["go", "later", "end"] { try proxy.send(event) }

        _ = try await LargeScripted.run(initialState: state, proxy: proxy)

        #expect(trace.entries(withPrefix: "update:") == ["go", "answer", "later", "end"].map { "update:\($0)" })
    }

    @Test func aTerminalStateEndsTheRunWithItsOutput() async throws {
        let trace = Trace()
        let last = try await runWithSuspendingCallback(["a", "end", "after"], trace: trace) { event in
            event == "end"
                ? Effect { _, _ in
                    trace.append("cleanup"); return "ignored"
                } : nil
        }

        #expect(last == "end")
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:end"])
        #expect(trace.isOrdered("output:end", before: "cleanup"))
    }

    @Test func aFailingActionEndsTheRunWithItsError() async throws {
        let trace = Trace()
        let proxy = LargeScripted.Proxy()
        let state = LargeScripted.state(trace) { event in
            event == "fail" ? Effect { _, _ in throw Boom(tag: "action") } : nil
        }
        for event in ["a", "fail", "b"] { try proxy.send(event) }

        await #expect(throws: Boom(tag: "action")) {
            _ = try await LargeScripted.run(initialState: state, proxy: proxy)
        }
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:fail"])
    }
}
