// Rules 2.3 and 3.3 together: a stop that the run observes at a suspension
// inside a chain of actions cuts the chain there. Nothing of the chain after
// that suspension reaches `update` — not the events of the action that was
// awaited, not its siblings in a combination, not the later events of the
// chain — and `run` ends with the stop's error.
//
// Every kind of effect node that can hold a suspension (an event, events, a
// combination, a sequence, nested combinations, synchronous actions before
// it, a deeper event of the chain) × every kind of suspension (the four
// async action initialisers, an awaited output delivery) × every stop
// (`proxy.cancel()`, `proxy.cancel(with:)`, the task's cancellation, a
// failing operation) × a run without isolation and one on an actor.
//
// Deterministic: the run is held at its suspension by a gate that ignores
// cancellation; the stop is requested while it is held; then the gate opens.

import Oak
import Testing

/// How the chain holds: the suspension inside it.
enum ChainHold: CaseIterable, Sendable, CustomStringConvertible {
    /// `Effect(action:)` with an isolation of its own, one event.
    case asyncAction
    /// `Effect(action:)` with an isolation of its own, several events.
    case asyncActions
    /// `Effect(isolatedAction:)`, one event.
    case isolatedAction
    /// `Effect(isolatedAction:)`, several events.
    case isolatedActions

    var description: String {
        switch self {
        case .asyncAction: "an async action"
        case .asyncActions: "an async action returning events"
        case .isolatedAction: "an isolated action"
        case .isolatedActions: "an isolated action returning events"
        }
    }

    /// The held effect: records "holding", waits for the gate, returns "x"
    /// (and "y").
    func effect(trace: Trace, gate: Gate) -> Effect<ChainCut> {
        switch self {
        case .asyncAction:
            Effect(action: { _ in
                trace.append("holding")
                await gate.wait()
                return "x"
            })
        case .asyncActions:
            Effect(action: { _ in
                trace.append("holding")
                await gate.wait()
                return ["x", "y"]
            })
        case .isolatedAction:
            Effect(isolatedAction: { _, _ in
                trace.append("holding")
                await gate.wait()
                return "x"
            })
        case .isolatedActions:
            Effect(isolatedAction: { _, _ in
                trace.append("holding")
                await gate.wait()
                return ["x", "y"]
            })
        }
    }
}

/// Where in the chain the suspension is, and what follows it.
enum ChainShape: CaseIterable, Sendable, CustomStringConvertible {
    /// a → combine(held, event b)
    case siblingAfterIt
    /// a → events(p, q); p → held; q → event r (the chain of issue 32)
    case laterEventOfTheChain
    /// a → combine(event p, event q); p → held
    case eventBeforeASibling
    /// a → combine(action → p, action → q); p → held
    case synchronousActionsBeforeASibling
    /// a → combine(combine(held, event inner), event outer)
    case nestedCombination
    /// a → sequence(event p, held, event q): p was returned before the
    /// suspension, but a combination's events are processed after all of
    /// it has executed, so p is cut too.
    case sequence
    /// a → event p; p → combine(held, event q)
    case deeperInTheChain
    /// a → combine(event p, event q); the output of p is awaited
    case awaitedOutput

    var description: String {
        switch self {
        case .siblingAfterIt: "a sibling after it"
        case .laterEventOfTheChain: "a later event of the chain"
        case .eventBeforeASibling: "an event before a sibling"
        case .synchronousActionsBeforeASibling: "synchronous actions before a sibling"
        case .nestedCombination: "a nested combination"
        case .sequence: "a sequence"
        case .deeperInTheChain: "deeper in the chain"
        case .awaitedOutput: "an awaited output"
        }
    }

    /// The updates up to the suspension: all `update` may see when the
    /// chain is cut there.
    var seenWhenCut: [String] {
        switch self {
        case .siblingAfterIt, .nestedCombination, .sequence: ["a"]
        case .laterEventOfTheChain, .eventBeforeASibling, .synchronousActionsBeforeASibling, .deeperInTheChain,
            .awaitedOutput:
            ["a", "p"]
        }
    }

    /// The updates of the whole chain when nothing stops it.
    func seenWhole(_ hold: ChainHold) -> [String] {
        let held = hold == .asyncActions || hold == .isolatedActions ? ["x", "y"] : ["x"]
        return switch self {
        case .siblingAfterIt: ["a"] + held + ["b"]
        case .laterEventOfTheChain: ["a", "p"] + held + ["q", "r"]
        case .eventBeforeASibling, .synchronousActionsBeforeASibling: ["a", "p"] + held + ["q"]
        case .nestedCombination: ["a"] + held + ["inner", "outer"]
        case .sequence: ["a", "p"] + held + ["q"]
        case .deeperInTheChain: ["a", "p"] + held + ["q"]
        case .awaitedOutput: ["a", "p", "q"]
        }
    }
}

/// How the run is stopped while its chain is held.
enum ChainStop: CaseIterable, Sendable, CustomStringConvertible {
    case proxyCancel
    case proxyCancelWithAnError
    case taskCancellation
    /// An operation started before the chain throws. Only on an actor: the
    /// operation runs there, so its failure is recorded before the held
    /// chain can go on.
    case failingOperation

    var description: String {
        switch self {
        case .proxyCancel: "proxy.cancel()"
        case .proxyCancelWithAnError: "proxy.cancel(with:)"
        case .taskCancellation: "the task's cancellation"
        case .failingOperation: "a failing operation"
        }
    }
}

struct ChainStopError: Error, Equatable {}
struct OperationFailure: Error, Equatable {}

/// The transducer under test: "a" starts the chain the shape names; "arm"
/// starts an operation that fails when its gate opens.
enum ChainCut: EffectTransducer {
    struct State: NonTerminal, Sendable {
        let trace: Trace
        let shape: ChainShape
        let hold: ChainHold
        let gate: Gate
        let operationGate: Gate
    }

    typealias Event = String
    typealias Output = String
    typealias Env = Void
    typealias Proxy = Oak.Proxy<String>
    typealias TransducerOutput = (Oak.Effect<ChainCut>?, String)

    static func update(_ state: inout State, event: String) -> (Self.Effect?, String) {
        state.trace.append("update:\(event)")
        let held = state.hold.effect(trace: state.trace, gate: state.gate)
        let effect: Self.Effect? =
            switch (state.shape, event) {
            case (_, "arm"):
                Effect(isolatedOperation: { [gate = state.operationGate] _, _, _ in
                    await gate.wait()
                    throw OperationFailure()
                })
            case (.siblingAfterIt, "a"): .combine(held, .event("b"))
            case (.laterEventOfTheChain, "a"): .events("p", "q")
            case (.laterEventOfTheChain, "p"): held
            case (.laterEventOfTheChain, "q"): .event("r")
            case (.eventBeforeASibling, "a"), (.awaitedOutput, "a"): .combine(.event("p"), .event("q"))
            case (.eventBeforeASibling, "p"): held
            case (.synchronousActionsBeforeASibling, "a"): .combine(Effect { _, _ in "p" }, Effect { _, _ in "q" })
            case (.synchronousActionsBeforeASibling, "p"): held
            case (.nestedCombination, "a"): .combine(.combine(held, .event("inner")), .event("outer"))
            case (.sequence, "a"): .sequence(.event("p"), held, .event("q"))
            case (.deeperInTheChain, "a"): .event("p")
            case (.deeperInTheChain, "p"): .combine(held, .event("q"))
            default: nil
            }
        return (effect, event)
    }

    /// The output subject: holds the delivery of "p" for ``ChainShape/awaitedOutput``.
    static func output(_ state: State) -> Callback<String> {
        Callback { [trace = state.trace, gate = state.gate, shape = state.shape] value in
            if shape == .awaitedOutput, value == "p" {
                trace.append("holding")
                await gate.wait()
            }
        }
    }
}

/// Runs ``ChainCut`` on an actor.
actor ChainCutHost {
    func run(_ state: ChainCut.State, proxy: ChainCut.Proxy) async throws -> String {
        try await ChainCut.run(initialState: state, proxy: proxy, output: ChainCut.output(state))
    }
}

/// Appends "operation failed" to the trace when an operation fails.
struct OperationFailureRecorder: TransducerInspector {
    let trace: Trace

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        if case .effectFailed(let info, _) = record, info.kind == .operation { trace.append("operation failed") }
    }
}

/// One case of the matrix.
struct ChainStopCase: Sendable, CustomTestStringConvertible {
    let shape: ChainShape
    let hold: ChainHold
    let stop: ChainStop
    let onAnActor: Bool

    var testDescription: String {
        let held = shape == .awaitedOutput ? "" : " in \(hold)"
        return "\(stop) while held\(held), \(shape), \(onAnActor ? "on an actor" : "no actor")"
    }

    static var all: [ChainStopCase] {
        var cases: [ChainStopCase] = []
        for shape in ChainShape.allCases {
            // An awaited output holds the chain without an action.
            let holds = shape == .awaitedOutput ? [ChainHold.asyncAction] : ChainHold.allCases
            for hold in holds {
                for stop in ChainStop.allCases {
                    for onAnActor in [false, true] where onAnActor || stop != .failingOperation {
                        cases.append(ChainStopCase(shape: shape, hold: hold, stop: stop, onAnActor: onAnActor))
                    }
                }
            }
        }
        return cases
    }
}

@Suite("2.3 and 3.3: a stop observed at a suspension cuts the chain there", .timeLimit(.minutes(2)))
struct ChainStopTests {
    @Test(
        "nothing of the chain after the suspension reaches update; run throws the stop's error",
        arguments: ChainStopCase.all)
    func stopCutsTheChain(_ test: ChainStopCase) async throws {
        let trace = Trace()
        let state = ChainCut.State(
            trace: trace, shape: test.shape, hold: test.hold, gate: Gate(), operationGate: Gate())
        let proxy = ChainCut.Proxy()
        let host = ChainCutHost()
        let inspector = OperationFailureRecorder(trace: trace)
        let armed = test.stop == .failingOperation
        if armed { try proxy.send("arm") }
        try proxy.send("a")
        let task = Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                if test.onAnActor { return try await host.run(state, proxy: proxy) }
                return try await ChainCut.run(initialState: state, proxy: proxy, output: ChainCut.output(state))
            }
        }
        await trace.waitFor("holding")
        switch test.stop {
        case .proxyCancel: proxy.cancel()
        case .proxyCancelWithAnError: proxy.cancel(with: ChainStopError())
        case .taskCancellation: task.cancel()
        case .failingOperation:
            state.operationGate.open()
            // Recorded and stopped in one turn of the run's actor, which
            // the held chain needs before it can go on.
            await trace.waitFor("operation failed")
        }
        trace.append("stopped")
        state.gate.open()
        // Sent after the stop: refused, or never processed.
        try? proxy.send("late")

        switch test.stop {
        case .proxyCancel:
            await #expect(throws: TransducerError.cancelled) { try await value(of: task) }
        case .proxyCancelWithAnError:
            await #expect(throws: ChainStopError()) { try await value(of: task) }
        case .taskCancellation:
            await #expect(throws: CancellationError.self) { try await value(of: task) }
        case .failingOperation:
            await #expect(throws: OperationFailure()) { try await value(of: task) }
        }
        let updates = trace.entries(withPrefix: "update:").map { String($0.dropFirst("update:".count)) }
        #expect(updates == (armed ? ["arm"] : []) + test.shape.seenWhenCut, "\(trace.entries)")
    }

    /// Rule 4.4: the sender of the event that began the chain is released
    /// as for a processed event (its update ran, its output was
    /// delivered).
    @Test("a suspending sender whose event began the cut chain is released as processed")
    func suspendingSenderOfACutChain() async throws {
        let trace = Trace()
        let gate = Gate()
        let state = SyncScripted.State(trace: trace) { event in
            switch event {
            case "a": .events("p", "q")
            case "p":
                Effect(action: { _ in
                    trace.append("holding")
                    await gate.wait()
                    return "x"
                })
            default: nil
            }
        }
        let proxy = SyncScripted.Proxy()
        let run = Task { try await SyncScripted.run(initialState: state, proxy: proxy, output: NoCallback()) }
        let first = Task { try await proxy.checkedSend("a") }
        await trace.waitFor("holding")
        proxy.cancel()
        gate.open()
        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        try await value(of: first)
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:p"])
    }

    /// Rule 3.1 stays: the clean-up effect of an update that reached a
    /// terminal state is not a chain (its events are not processed); a stop
    /// while it suspends does not cut it, and `run` returns the last output.
    @Test("a terminal state's clean-up runs to its end when a stop arrives while it suspends")
    func cleanUpIsNotCut() async throws {
        let trace = Trace()
        let gate = Gate()
        let state = Scripted.State(trace: trace) { event in
            guard event == "end" else { return nil }
            return .combine(
                Effect(action: { _ in
                    trace.append("holding")
                    await gate.wait()
                    return "ignored"
                }),
                Effect { _, _ in
                    trace.append("clean-up went on")
                    return "ignored too"
                })
        }
        let proxy = Scripted.Proxy()
        try proxy.send("end")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: NoCallback()) }
        await trace.waitFor("holding")
        proxy.cancel()
        gate.open()
        #expect(try await value(of: run) == "end")
        #expect(trace.contains("clean-up went on"))
        #expect(trace.entries(withPrefix: "update:") == ["update:end"])
    }

    /// The same chains with nothing stopping them: the whole chain, in
    /// depth-first order (what the cut is a prefix of).
    @Test("unstopped, the chain is processed whole, depth first", arguments: ChainShape.allCases, ChainHold.allCases)
    func wholeChain(_ shape: ChainShape, _ hold: ChainHold) async throws {
        let trace = Trace()
        let gate = Gate()
        gate.open()
        let state = ChainCut.State(trace: trace, shape: shape, hold: hold, gate: gate, operationGate: Gate())
        let proxy = ChainCut.Proxy()
        try proxy.send("a")
        try proxy.send("end")
        let task = Task { try await ChainCut.run(initialState: state, proxy: proxy, output: ChainCut.output(state)) }
        await trace.waitFor("update:end")
        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await value(of: task) }
        let updates = trace.entries(withPrefix: "update:").map { String($0.dropFirst("update:".count)) }
        #expect(updates == shape.seenWhole(hold) + ["end"])
    }
}
