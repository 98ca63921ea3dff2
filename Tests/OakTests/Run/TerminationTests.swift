// Contract section 3, termination rules 3.1–3.5 (3.6 is about hosts).

import Clocks
import Oak
import Testing

/// The ways a run can end, for the rules that hold for all of them.
enum RunEnding: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case terminalState
    case proxyCancel
    case proxyCancelWithError
    case taskCancel
    case operationFailure

    var testDescription: String { rawValue }
}

@Suite("Termination (contract 3.1–3.5)")
struct TerminationTests {
    typealias Effect = Scripted.Effect

    /// An operation that announces it is running, waits for cancellation,
    /// then keeps going for a while (slow clean-up) and records its end; at
    /// its very end it tries to send an event and records what happened.
    static func lingeringOperation(_ name: String, trace: Trace) -> Effect {
        Effect(id: name) { _, input in
            await untilCancelled(
                started: { trace.append("\(name):waiting") },
                cancelled: { trace.append("\(name):cancelled") })
            await lingerAfterCancellation()
            do {
                try input.send("late-\(name)")
                trace.append("\(name):late-send-accepted")
            } catch {
                trace.append("\(name):late-send-\(TransducerErrorName.of(error))")
            }
            trace.append("\(name):ended")
        }
    }

    @Test("3.1 reaching a terminal state delivers that update's output and run returns it")
    func terminalStateReturnsLastOutput() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        for event in ["a", "end", "after"] { try proxy.send(event) }

        let last = try await Scripted.run(
            initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)

        #expect(last == "end")
        #expect(trace.entries == ["update:a", "out:a", "update:end", "out:end"])
    }

    @Test("3.1 the effect of the terminal update still runs, but the events it returns are not processed")
    func terminalEffectRunsButItsEventsAreDropped() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            guard event == "end" else { return nil }
            return .combine(
                Effect { _, _ in
                    trace.append("cleanup-action")
                    return "from-cleanup-action"
                },
                .event("from-cleanup-event"),
                .events("from-cleanup-events-1", "from-cleanup-events-2"),
                Effect(id: "cleanup-op") { _, _ in trace.append("cleanup-operation-ran") })
        }
        try proxy.send("end")

        let last = try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)

        #expect(last == "end")
        #expect(trace.contains("cleanup-action"))
        // An operation started by the clean-up effect is started (and then
        // cancelled with the others); its first statement has run by the time
        // run returns, because run awaits it.
        #expect(trace.contains("cleanup-operation-ran"))
        #expect(trace.entries(withPrefix: "update:") == ["update:end"])
        #expect(trace.entries(withPrefix: "out:") == ["out:end"])
    }

    @Test("3.1 at the terminal state the input is closed and every running operation is cancelled before run returns")
    func terminalStateClosesInputAndCancelsOperations() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start-a": Self.lingeringOperation("a", trace: trace)
            case "start-b": Self.lingeringOperation("b", trace: trace)
            default: nil
            }
        }
        try proxy.send("start-a")
        try proxy.send("start-b")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("both operations running") { $0.contains("a:waiting") && $0.contains("b:waiting") }
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        for name in ["a", "b"] {
            #expect(trace.contains("\(name):cancelled"))
            #expect(trace.contains("\(name):ended"))
            #expect(trace.contains("\(name):late-send-terminated"))
        }
        #expect(throws: TransducerError.terminated) { try proxy.send("x") }
        #expect(throws: TransducerError.terminated) { try proxy.input.send("x") }
        #expect(!trace.entries.contains { $0.hasPrefix("update:late-") })
    }

    @Test("3.2 an initial state that is already terminal throws noOutputProduced at once, also for a Void output")
    func terminalInitialStateWithVoidOutput() async throws {
        let proxy = Switch.Proxy(initialEvent: "toggle")
        try proxy.send("toggle")
        // No event ever ends this run: it must end on its own. Without an
        // initial output there is no final output, even a `Void` one (as in
        // Oak).
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Switch.run(initialState: Switch.State(isTerminal: true), proxy: proxy)
        }
        #expect(throws: TransducerError.terminated) { try proxy.send("toggle") }
    }

    @Test("3.2 an effect transducer whose update returns only Effect? returns at once from a terminal initial state")
    func terminalInitialStateOfEffectOnlyTransducer() async throws {
        let trace = Trace()
        let silentProxy = SilentScripted.Proxy()
        try silentProxy.send("a")
        try await SilentScripted.run(initialState: .terminal(trace: trace), proxy: silentProxy)
        #expect(trace.entries.isEmpty)
    }

    @Test("3.2 an initial state that is already terminal throws noOutputProduced when Output is not Void")
    func terminalInitialStateWithoutOutputThrows() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        try proxy.send("a")
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Scripted.run(initialState: .terminal(trace: trace), proxy: proxy, output: trace.output)
        }
        #expect(trace.entries.isEmpty)

        let tallyProxy = Tally.Proxy()
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Tally.run(initialState: Tally.State(count: 0, isTerminal: true), proxy: tallyProxy)
        }
    }

    @Test("3.3 proxy.cancel() ends the run with TransducerError.cancelled after cancelling every operation")
    func proxyCancelEndsRun() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            event == "start" ? Self.lingeringOperation("op", trace: trace) : nil
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("op:waiting")

        proxy.cancel()

        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        #expect(trace.contains("op:cancelled"))
        #expect(trace.contains("op:ended"))
    }

    @Test("3.3 proxy.cancel() wins over events still waiting in the buffer")
    func proxyCancelWinsOverBufferedEvents() async throws {
        let trace = Trace()
        let gate = Gate()
        let proxy = Scripted.Proxy()
        // The subject holds the run inside the delivery of "a" until the test
        // has cancelled; "b" and "end" are already buffered (and possibly
        // already taken by the run loop) by then.
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "a" { await gate.wait() }
        }
        for event in ["a", "b", "end"] { try proxy.send(event) }
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: output)
        }
        await trace.waitFor("out:a")
        proxy.cancel()
        gate.open()

        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        #expect(trace.entries(withPrefix: "update:") == ["update:a"])
    }

    @Test("3.3 cancelling the task that awaits run ends it with CancellationError after cancelling every operation")
    func taskCancellationEndsRun() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            event == "start" ? Self.lingeringOperation("op", trace: trace) : nil
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("op:waiting")

        run.cancel()

        await #expect(throws: CancellationError.self) { try await value(of: run) }
        #expect(trace.contains("op:cancelled"))
        #expect(trace.contains("op:ended"))
        #expect(throws: TransducerError.terminated) { try proxy.send("x") }
    }

    @Test("3.3 cancelling the task ends the run with CancellationError even when events are still buffered")
    func taskCancellationWinsOverBufferedEvents() async throws {
        let trace = Trace()
        let gate = Gate()
        let proxy = Scripted.Proxy()
        // The run is held inside the delivery of "a" while its task is
        // cancelled; "b" and the terminal "end" are already buffered.
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "a" { await gate.wait() }
        }
        for event in ["a", "b", "end"] { try proxy.send(event) }
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: output)
        }
        await trace.waitFor("out:a")
        run.cancel()
        gate.open()

        await #expect(throws: CancellationError.self) { try await value(of: run) }
        #expect(!trace.contains("update:end"))
    }

    @Test("3.3 the first stop requested wins: proxy.cancel() or the task's cancellation", arguments: [true, false])
    func theFirstStopWins(proxyFirst: Bool) async throws {
        let trace = Trace()
        let gate = Gate()
        let proxy = Scripted.Proxy()
        // The run is held inside the delivery of "a" while both stops are
        // requested, one after the other; "b" waits in the buffer.
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "a" { await gate.wait() }
        }
        for event in ["a", "b"] { try proxy.send(event) }
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: output)
        }
        await trace.waitFor("out:a")
        if proxyFirst {
            proxy.cancel()
            run.cancel()
        } else {
            run.cancel()
            proxy.cancel()
        }
        gate.open()

        if proxyFirst {
            await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        } else {
            await #expect(throws: CancellationError.self) { try await value(of: run) }
        }
        #expect(!trace.contains("update:b"))
    }

    @Test("3.3 cancel(with:) ends the run with that error after cancelling every operation")
    func proxyCancelWithErrorEndsRun() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            event == "start" ? Self.lingeringOperation("op", trace: trace) : nil
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("op:waiting")

        proxy.cancel(with: Boom(tag: "host"))

        await #expect(throws: Boom(tag: "host")) { try await value(of: run) }
        #expect(trace.contains("op:ended"))
    }

    @Test("3.4 an operation that throws fails the run with its error, after the other operations were cancelled")
    func failingOperationFailsRun() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start": Self.lingeringOperation("other", trace: trace)
            case "fail": Effect(id: "failing") { _, _ in throw Boom(tag: "operation") }
            default: nil
            }
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("other:waiting")
        try proxy.send("fail")

        await #expect(throws: Boom(tag: "operation")) { try await value(of: run) }
        #expect(trace.contains("other:cancelled"))
        #expect(trace.contains("other:ended"))
        #expect(throws: TransducerError.terminated) { try proxy.send("x") }
    }

    @Test("3.4 an operation that ends by cancellation does not fail the run")
    func cancelledOperationDoesNotFailRun() async throws {
        let trace = Trace()
        let clock = TestClock()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "self-cancel":
                // Ends by throwing CancellationError without being cancelled.
                return Effect(id: "self-cancel") { _, input in
                    try input.send("self-cancel-sent")
                    throw CancellationError()
                }
            case "cancellable":
                // Once cancelled, ends with whatever error its work throws.
                return Effect(id: "cancellable") { _, _ in
                    await untilCancelled(started: { trace.append("cancellable:waiting") })
                    throw Boom(tag: "after-cancellation")
                }
            case "stop-cancellable":
                return .cancelTask("cancellable")
            case "sleeper":
                // Waits on a clock nobody advances, until cancelled.
                return Effect(id: "sleeper") { _, _ in
                    trace.append("sleeper:waiting")
                    try await clock.sleep(for: .seconds(3600))
                }
            case "stop-sleeper":
                return .cancelTask("sleeper")
            default:
                return nil
            }
        }
        for event in ["self-cancel", "cancellable", "sleeper"] { try proxy.send(event) }
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("all operations running") {
            $0.contains("update:self-cancel-sent") && $0.contains("cancellable:waiting")
                && $0.contains("sleeper:waiting")
        }
        try proxy.send("stop-cancellable")
        try proxy.send("stop-sleeper")
        try proxy.send("ping")
        await trace.waitFor("out:ping")
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
    }

    @Test("3.5 runs that end at the same moment on different threads end cleanly (also under ThreadSanitizer)")
    func runsEndingTogether() async throws {
        let threads = (0..<2).map { DedicatedThreadExecutor(label: "oak.contract.ending-\($0)") }
        for iteration in 0..<50 {
            let barrier = SpinBarrier(parties: 2)
            let runs = threads.map { thread in
                Task(executorPreference: thread) { () -> String? in
                    let proxy = Scripted.Proxy(initialEvent: "end")
                    let state = Scripted.State(trace: Trace())
                    barrier.arriveAndWait()
                    return try? await Scripted.run(initialState: state, proxy: proxy)
                }
            }
            for run in runs {
                guard let last = await withinDeadline("run \(iteration)", { await run.value }) else { return }
                #expect(last == "end", "iteration \(iteration)")
            }
        }
    }

    @Test("3.5 when run has returned or thrown, no effect of the run is still executing", arguments: RunEnding.allCases)
    func noEffectOutlivesRun(ending: RunEnding) async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start-1": Self.lingeringOperation("op1", trace: trace)
            case "start-2": Self.lingeringOperation("op2", trace: trace)
            case "fail": Effect(id: "failing") { _, _ in throw Boom() }
            default: nil
            }
        }
        try proxy.send("start-1")
        try proxy.send("start-2")
        let input = proxy.input
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("operations running") { $0.contains("op1:waiting") && $0.contains("op2:waiting") }

        switch ending {
        case .terminalState: try proxy.send("end")
        case .proxyCancel: proxy.cancel()
        case .proxyCancelWithError: proxy.cancel(with: Boom())
        case .taskCancel: run.cancel()
        case .operationFailure: try proxy.send("fail")
        }
        do {
            let last = try await value(of: run)
            #expect(ending == .terminalState)
            #expect(last == "end")
        } catch let error as TransducerError {
            #expect(ending == .proxyCancel)
            #expect(error == .cancelled)
        } catch let error as Boom {
            #expect(ending == .proxyCancelWithError || ending == .operationFailure)
            #expect(error == Boom())
        } catch {
            #expect(ending == .taskCancel)
            #expect(error is CancellationError)
        }

        // Both operations had to be cancelled and awaited: their slow
        // clean-up is over, and what they sent at the very end was refused.
        let snapshot = trace.entries
        for name in ["op1", "op2"] {
            #expect(snapshot.contains("\(name):ended"))
            #expect(snapshot.contains("\(name):late-send-terminated"))
        }
        #expect(!snapshot.contains { $0.hasPrefix("update:late-") || $0.hasPrefix("out:late-") })
        // And the input stays closed.
        #expect(throws: TransducerError.terminated) { try input.send("after-return") }
        #expect(throws: TransducerError.terminated) { try proxy.send("after-return") }
    }

    // MARK: finish()

    @Test("finish() closes the input; the run processes what is buffered, then ends without a final output")
    func finishDrainsTheBufferThenEnds() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        for event in ["a", "b"] { try proxy.send(event) }
        proxy.finish()
        #expect(throws: TransducerError.terminated) { try proxy.send("late") }
        await #expect(throws: TransducerError.noOutputProduced) {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        #expect(trace.entries == ["update:a", "out:a", "update:b", "out:b"])
    }

    @Test("finish() ends a waiting run; a terminal state among the buffered events still returns its output")
    func finishWhileWaitingAndTerminalEvent() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let run = Task { try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy) }
        try proxy.send("a")
        await trace.waitFor("update:a")
        proxy.finish()
        await #expect(throws: TransducerError.noOutputProduced) { try await value(of: run) }

        let second = Scripted.Proxy()
        for event in ["x", "end", "after"] { try second.send(event) }
        second.finish()
        let last = try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: second)
        #expect(last == "end")
    }

    @Test("finish() after cancel() changes nothing: the run ends cancelled")
    func finishAfterCancel() async throws {
        let proxy = Scripted.Proxy()
        proxy.cancel()
        proxy.finish()
        await #expect(throws: TransducerError.cancelled) {
            try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: proxy)
        }
    }
}
