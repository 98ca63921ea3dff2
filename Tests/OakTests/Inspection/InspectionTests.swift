// Contract section 5, observability: the inspection hook sees, in order,
// each event taken, the state after each update, each output, each effect
// started / finished / cancelled / failed, and the end of the run.

import Oak
import Testing

@Suite("Inspection (contract 5)")
struct InspectionTests {
    typealias Effect = Scripted.Effect

    /// Runs `Scripted` with a ``TraceInspector`` installed for the run.
    static func inspectedRun(
        _ state: Scripted.State, proxy: Scripted.Proxy, inspector: TraceInspector
    ) -> Task<String, any Error> {
        Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                try await Scripted.run(initialState: state, proxy: proxy)
            }
        }
    }

    @Test("5 the inspector sees each event, the state after it, its output and the actions, in order, then the end")
    func eventPathInOrder() async throws {
        let inspector = TraceInspector(trace: Trace())
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: Trace()) { event in
            event == "a" ? Effect { _, _ in "b" } : nil
        }
        for event in ["a", "end"] { try proxy.send(event) }

        #expect(try await value(of: Self.inspectedRun(state, proxy: proxy, inspector: inspector)) == "end")

        #expect(
            inspector.trace.entries == [
                "event a", "state updates=1", "output a",
                "started action #1",
                "event b", "state updates=2", "output b",
                "event end", "state updates=3 terminal", "output end",
                "ended",
            ])
    }

    @Test("5 the inspector sees operations start, then finish, get cancelled or fail, before the end")
    func operationLifecycle() async throws {
        let trace = Trace()
        let inspector = TraceInspector(trace: trace)
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: Trace()) { event in
            switch event {
            case "fin":
                return Effect(id: "fin") { _, input in try input.send("fin-done") }
            case "can":
                return Effect(id: "can") { _, _ in
                    await untilCancelled(started: { trace.append("can:waiting") })
                    try Task.checkCancellation()
                }
            case "stop-can":
                return .cancelTask("can")
            case "fail":
                return Effect(id: "fail") { _, _ in throw Boom(tag: "op") }
            default:
                return nil
            }
        }
        try proxy.send("fin")
        let run = Self.inspectedRun(state, proxy: proxy, inspector: inspector)
        await trace.waitFor("finished operation #1 (id: fin)")
        try proxy.send("can")
        await trace.waitFor("can:waiting")
        try proxy.send("stop-can")
        await trace.waitFor("cancelled operation #2 (id: can)")
        try proxy.send("fail")

        await #expect(throws: Boom(tag: "op")) { try await value(of: run) }

        let entries = trace.entries
        for (first, then) in [
            ("output fin", "started operation #1 (id: fin)"),
            ("started operation #1 (id: fin)", "finished operation #1 (id: fin)"),
            ("started operation #2 (id: can)", "cancelled operation #2 (id: can)"),
            ("started operation #3 (id: fail)", "failed operation #3 (id: fail): Boom(op)"),
            ("failed operation #3 (id: fail): Boom(op)", "ended: Boom(op)"),
        ] {
            #expect(trace.isOrdered(first, before: then), "\(first) → \(then) in \(entries)")
        }
        #expect(entries.last == "ended: Boom(op)")
        #expect(entries.filter { $0.hasPrefix("ended") }.count == 1)
    }

    @Test("5 operations cancelled by the end of the run are reported before the end")
    func operationsCancelledByTheEnd() async throws {
        let trace = Trace()
        let inspector = TraceInspector(trace: trace)
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: Trace()) { event in
            guard event == "start" else { return nil }
            return Effect(id: "bg") { _, _ in
                await untilCancelled(started: { trace.append("bg:waiting") })
                try Task.checkCancellation()
            }
        }
        try proxy.send("start")
        let run = Self.inspectedRun(state, proxy: proxy, inspector: inspector)
        await trace.waitFor("bg:waiting")
        proxy.cancel()

        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        #expect(trace.isOrdered("cancelled operation #1 (id: bg)", before: "ended: cancelled"))
        #expect(trace.entries.last == "ended: cancelled")
    }

    @Test("5 an .event action is reported as a started effect, like any other action")
    func eventActionIsReportedAsStarted() async throws {
        let inspector = TraceInspector(trace: Trace())
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: Trace()) { event in
            switch event {
            case "a": .event("b")
            case "b": .events("c")
            default: nil
            }
        }
        for event in ["a", "end"] { try proxy.send(event) }

        _ = try await value(of: Self.inspectedRun(state, proxy: proxy, inspector: inspector))

        #expect(
            inspector.trace.entries == [
                "event a", "state updates=1", "output a",
                "started action #1",
                "event b", "state updates=2", "output b",
                "started action #2",
                "event c", "state updates=3", "output c",
                "event end", "state updates=4 terminal", "output end",
                "ended",
            ])
    }

    @Test("5 an action that throws is reported as a failed effect before the end of the run")
    func throwingActionIsReportedAsFailed() async throws {
        let inspector = TraceInspector(trace: Trace())
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: Trace()) { event in
            guard event == "a" else { return nil }
            return Effect { _, _ in throw Boom(tag: "action") }
        }
        try proxy.send("a")

        await #expect(throws: Boom(tag: "action")) {
            try await value(of: Self.inspectedRun(state, proxy: proxy, inspector: inspector))
        }

        #expect(
            inspector.trace.entries == [
                "event a", "state updates=1", "output a",
                "started action #1",
                "failed action #1: Boom(action)",
                "ended: Boom(action)",
            ])
    }

    @Test("5 the inspector sees only the runs started in its scope, each with its own RunID")
    func inspectorIsScoped() async throws {
        let inspector = TraceInspector(trace: Trace())
        // Outside the scope: not inspected.
        _ = try await Scripted.run(
            initialState: Scripted.State(trace: Trace()), proxy: Scripted.Proxy(initialEvent: "end"))
        #expect(inspector.trace.entries.isEmpty)

        try await TransducerInspection.$inspector.withValue(inspector) {
            _ = try await Scripted.run(
                initialState: Scripted.State(trace: Trace()), proxy: Scripted.Proxy(initialEvent: "end"))
            _ = try await Scripted.run(
                initialState: Scripted.State(trace: Trace()), proxy: Scripted.Proxy(initialEvent: "end"))
        }
        #expect(inspector.runs.values.count == 2)
        #expect(Set(inspector.runs.values).count == 2)
        #expect(inspector.trace.entries.filter { $0 == "ended" }.count == 2)
    }
}
