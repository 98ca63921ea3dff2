// Effects: composition (combine, sequence), operation ids and cancelTask
// (contract 2.5), and delayed operations on a caller-supplied clock (2.6).

import Clocks
import Oak
import Testing

@Suite("Effects (contract 2.5, 2.6; combine, sequence)")
struct EffectTests {
    typealias Effect = Scripted.Effect

    /// An operation with `id` that announces itself, waits until it is
    /// cancelled and records that.
    static func waitingOperation(_ id: String, trace: Trace) -> Effect {
        Effect(id: id) { _, _ in
            await untilCancelled(
                started: { trace.append("\(id):waiting") },
                cancelled: { trace.append("\(id):cancelled") })
            trace.append("\(id):ended")
        }
    }

    // MARK: combine

    @Test("combine runs its actions in order and processes their events in that order, before buffered events")
    func combineRunsActionsInOrder() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event == "go" else { return nil }
            return .combine(
                .event("a"),
                Effect { _, _ in "b" },
                .events("c", "d"),
                .combine(.event("e"), Effect(isolatedAction: { _, _ in "f" })))
        }
        for event in ["go", "buffered", "end"] { try proxy.send(event) }

        _ = try await Scripted.run(initialState: state, proxy: proxy)

        #expect(
            trace.entries(withPrefix: "update:")
                == ["go", "a", "b", "c", "d", "e", "f", "buffered", "end"].map { "update:\($0)" })
    }

    @Test("combine starts its operations in order and runs them in parallel")
    func combineRunsOperationsInParallel() async throws {
        let trace = Trace()
        let inspection = TraceInspector(trace: Trace())
        let proxy = Scripted.Proxy()
        let bStarted = Gate()
        let aStarted = Gate()
        let state = Scripted.State(trace: trace) { event in
            guard event == "go" else { return nil }
            // Each operation waits for the other to have started: both can
            // only finish when they run at the same time.
            return .combine(
                Effect(id: "A") { _, input in
                    aStarted.open()
                    await bStarted.wait()
                    try input.send("A-done")
                },
                Effect(id: "B") { _, input in
                    bStarted.open()
                    await aStarted.wait()
                    try input.send("B-done")
                })
        }
        try proxy.send("go")
        let run = Task {
            try await TransducerInspection.$inspector.withValue(inspection) {
                try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)
            }
        }
        await trace.waitUntil("both operations done") { $0.contains("out:A-done") && $0.contains("out:B-done") }
        try proxy.send("end")
        #expect(try await value(of: run) == "end")

        let started = inspection.trace.entries(withPrefix: "started operation")
        #expect(started.count == 2)
        if started.count == 2 {
            #expect(started[0].hasSuffix("(id: A)"))
            #expect(started[1].hasSuffix("(id: B)"))
        }
    }

    // MARK: sequence

    @Test("sequence runs its operations one after another, each after the previous one finished")
    func sequenceRunsOperationsOneAfterAnother() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let releaseFirst = Gate()
        let state = Scripted.State(trace: trace) { event in
            guard event == "go" else { return nil }
            return .chain(
                id: "seq",
                Effect { _, _ in
                    trace.append("first:started")
                    await releaseFirst.wait()
                    trace.append("first:finished")
                },
                Effect(operation: { _, _ in trace.append("second:started") }),
                Effect(operation: { _, input in
                    trace.append("third:started")
                    try input.send("end")
                }))
        }
        try proxy.send("go")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("first:started")
        for _ in 0..<50 { await Task.yield() }
        #expect(!trace.contains("second:started"))
        releaseFirst.open()

        #expect(try await value(of: run) == "end")
        #expect(
            trace.entries.filter { $0.contains(":") && !$0.hasPrefix("update:") && !$0.hasPrefix("out:") }
                == ["first:started", "first:finished", "second:started", "third:started"])
    }

    @Test("sequence executes its actions at once, when it starts")
    func sequenceExecutesActionsAtOnce() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let release = Gate()
        let state = Scripted.State(trace: trace) { event in
            guard event == "go" else { return nil }
            return .chain(
                Effect { _, input in
                    await release.wait()
                    try input.send("end")
                },
                .event("immediate"))
        }
        try proxy.send("go")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("out:immediate")
        release.open()
        #expect(try await value(of: run) == "end")
        #expect(trace.entries(withPrefix: "update:") == ["update:go", "update:immediate", "update:end"])
    }

    @Test("sequence cancelled by its id never starts its next operation")
    func cancelledSequenceStopsEarly() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "go":
                // The first operation swallows its cancellation and returns
                // normally; the sequence must still stop.
                return .chain(
                    id: "seq",
                    Effect { _, _ in
                        await untilCancelled(
                            started: { trace.append("first:waiting") },
                            cancelled: { trace.append("first:cancelled") })
                    },
                    Effect(operation: { _, _ in trace.append("second:started") }))
            case "stop":
                return .cancelTask("seq")
            default:
                return nil
            }
        }
        try proxy.send("go")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("first:waiting")
        try proxy.send("stop")
        await trace.waitFor("first:cancelled")
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        #expect(!trace.contains("second:started"))
    }

    // MARK: 2.5 ids and cancelTask

    @Test("2.5 starting an operation with the id of a running one cancels the running one first")
    func sameIDReplacesRunningOperation() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "first":
                return Self.waitingOperation("x", trace: trace)
            case "second":
                return Effect(id: "x") { _, input in
                    trace.append("second:started")
                    try input.send("second-done")
                }
            default:
                return nil
            }
        }
        try proxy.send("first")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("x:waiting")
        try proxy.send("second")
        await trace.waitFor("out:second-done")
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        #expect(trace.isOrdered("x:cancelled", before: "second:started"))
    }

    @Test("2.5 operations with different ids (or none) do not replace each other")
    func differentIDsDoNotReplace() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "x": return Self.waitingOperation("x", trace: trace)
            case "y": return Self.waitingOperation("y", trace: trace)
            case "anonymous":
                return Effect { _, _ in
                    await untilCancelled(
                        started: { trace.append("anonymous:waiting") },
                        cancelled: { trace.append("anonymous:cancelled") })
                }
            default: return nil
            }
        }
        for event in ["x", "y", "anonymous", "anonymous"] { try proxy.send(event) }
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("all four waiting") { entries in
            entries.filter { $0.hasSuffix(":waiting") }.count == 4
        }
        try proxy.send("ping")
        await trace.waitFor("out:ping")
        #expect(trace.entries.filter { $0.hasSuffix(":cancelled") }.isEmpty)
        try proxy.send("end")
        #expect(try await value(of: run) == "end")
    }

    @Test("2.5 cancelTask cancels the running operation with that id, and the run goes on")
    func cancelTaskCancelsById() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start":
                return .combine(Self.waitingOperation("x", trace: trace), Self.waitingOperation("y", trace: trace))
            case "stop-x": return .cancelTask("x")
            default: return nil
            }
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("x and y waiting") { $0.contains("x:waiting") && $0.contains("y:waiting") }
        try proxy.send("stop-x")
        await trace.waitFor("x:ended")
        try proxy.send("ping")
        await trace.waitFor("out:ping")
        #expect(!trace.contains("y:cancelled"))
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        #expect(trace.isOrdered("x:cancelled", before: "update:ping"))
    }

    @Test("2.5 cancelTask is a no-op when no operation with that id runs")
    func cancelTaskWithoutOperationIsNoOp() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start-y": return Self.waitingOperation("y", trace: trace)
            case "quick": return Effect(id: "quick") { _, input in try input.send("quick-done") }
            case "cancel-unknown": return .cancelTask("never-started")
            case "cancel-finished": return .cancelTask("quick")
            case "cancel-int": return .cancelTask(42)
            case "stop-y": return .cancelTask("y")
            default: return nil
            }
        }
        for event in ["cancel-unknown", "start-y", "quick"] { try proxy.send(event) }
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("y waiting, quick done") { $0.contains("y:waiting") && $0.contains("out:quick-done") }
        for event in ["cancel-unknown", "cancel-finished", "cancel-int", "ping"] { try proxy.send(event) }
        await trace.waitFor("out:ping")
        #expect(!trace.contains("y:cancelled"))

        // The registry is intact: y can still be cancelled by its id.
        try proxy.send("stop-y")
        await trace.waitFor("y:cancelled")
        try proxy.send("end")
        #expect(try await value(of: run) == "end")
    }

    @Test("2.5 after a replacement, cancelTask targets the new operation")
    func cancelTaskAfterReplacementTargetsNewOperation() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "old":
                return Effect(id: "x") { _, _ in
                    await untilCancelled(
                        started: { trace.append("old:waiting") },
                        cancelled: { trace.append("old:cancelled") })
                    await lingerAfterCancellation()
                    trace.append("old:ended")
                }
            case "new":
                return Effect(id: "x") { _, _ in
                    await untilCancelled(
                        started: { trace.append("new:waiting") },
                        cancelled: { trace.append("new:cancelled") })
                }
            case "stop-x":
                return .cancelTask("x")
            default:
                return nil
            }
        }
        try proxy.send("old")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("old:waiting")
        try proxy.send("new")
        await trace.waitUntil("old replaced and ended, new waiting") {
            $0.contains("old:ended") && $0.contains("new:waiting")
        }
        try proxy.send("stop-x")
        await trace.waitFor("new:cancelled")
        try proxy.send("end")
        #expect(try await value(of: run) == "end")
    }

    // MARK: 2.6 delayed operations

    /// Waits until something sleeps on `clock` (polls the test clock's
    /// suspensions, never sleeps); records an issue after many attempts.
    static func waitForSleeper(on clock: TestClock<Duration>, sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<2_000 {
            do {
                try await clock.checkSuspension()
            } catch {
                return  // a sleeper is registered
            }
        }
        Issue.record("nothing started sleeping on the test clock", sourceLocation: sourceLocation)
    }

    /// Waits until nothing sleeps on `clock` any more.
    static func waitForNoSleeper(on clock: TestClock<Duration>, sourceLocation: SourceLocation = #_sourceLocation) async
    {
        for _ in 0..<2_000 {
            if (try? await clock.checkSuspension()) != nil { return }
        }
        Issue.record("a sleeper is still waiting on the test clock", sourceLocation: sourceLocation)
    }

    @Test("2.6 a delayed operation waits on the given clock before its body runs")
    func delayedOperationWaitsOnClock() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event == "schedule" else { return nil }
            return Effect(
                id: "timer",
                operation: { _, input in
                    trace.append("timer:fired")
                    try input.send("end")
                },
                after: .seconds(60),
                clock: clock)
        }
        try proxy.send("schedule")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await Self.waitForSleeper(on: clock)

        await clock.advance(by: .seconds(59))
        #expect(!trace.contains("timer:fired"))

        await clock.advance(by: .seconds(1))
        #expect(try await value(of: run) == "end")
        #expect(trace.contains("timer:fired"))
    }

    @Test("2.6 a delayed isolated operation waits on the given clock too")
    func delayedIsolatedOperationWaitsOnClock() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event == "schedule" else { return nil }
            return Effect(
                id: "timer",
                isolatedOperation: { _, input, _ in
                    trace.append("timer:fired")
                    try input.send("end")
                },
                after: .milliseconds(1500),
                clock: clock)
        }
        try proxy.send("schedule")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await Self.waitForSleeper(on: clock)
        await clock.advance(by: .milliseconds(1499))
        #expect(!trace.contains("timer:fired"))
        await clock.advance(by: .milliseconds(1))
        #expect(try await value(of: run) == "end")
    }

    @Test("2.6 cancelling a delayed operation during its wait means its body never runs")
    func cancelledDelayedOperationNeverRuns() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "schedule":
                return Effect(
                    id: "timer", operation: { _, _ in trace.append("timer:fired") }, after: .seconds(10), clock: clock)
            case "cancel":
                return .cancelTask("timer")
            default:
                return nil
            }
        }
        try proxy.send("schedule")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await Self.waitForSleeper(on: clock)
        try proxy.send("cancel")
        await Self.waitForNoSleeper(on: clock)
        await clock.advance(by: .seconds(60))
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        #expect(!trace.contains("timer:fired"))
    }

    @Test("2.6 a delayed operation replaced by id during its wait never runs; the new one waits its own delay")
    func replacedDelayedOperationNeverRuns() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event.hasPrefix("schedule-") else { return nil }
            let name = String(event.dropFirst("schedule-".count))
            return Effect(
                id: "timer",
                operation: { _, input in
                    trace.append("\(name):fired")
                    try input.send("end")
                },
                after: .seconds(10),
                clock: clock)
        }
        let inspection = TraceInspector(trace: trace)
        try proxy.send("schedule-first")
        let run = Task {
            try await TransducerInspection.$inspector.withValue(inspection) {
                try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)
            }
        }
        await Self.waitForSleeper(on: clock)
        await clock.advance(by: .seconds(5))
        try proxy.send("schedule-second")
        // Once the first timer has been cancelled (and has left the clock),
        // the only sleeper is the second one, until 5 + 10 s.
        await trace.waitFor("cancelled operation #1 (id: timer)")
        await Self.waitForSleeper(on: clock)
        await clock.advance(by: .seconds(9))
        #expect(!trace.contains("first:fired"))
        #expect(!trace.contains("second:fired"))
        await clock.advance(by: .seconds(1))

        #expect(try await value(of: run) == "end")
        #expect(trace.contains("second:fired"))
        #expect(!trace.contains("first:fired"))
    }

    @Test("2.6 / 3.5 a delayed operation still waiting does not keep run from returning, and never runs")
    func endOfRunCancelsDelayedOperation() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event == "schedule" else { return nil }
            return Effect(
                id: "timer", operation: { _, _ in trace.append("timer:fired") }, after: .seconds(1), clock: clock)
        }
        try proxy.send("schedule")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await Self.waitForSleeper(on: clock)
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        await clock.advance(by: .seconds(10))
        #expect(!trace.contains("timer:fired"))
        await Self.waitForNoSleeper(on: clock)
    }
}
