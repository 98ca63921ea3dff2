// Contract section 4, bad input and limits: 4.1–4.3 and 4.5 (4.4 is in
// SyncSuspendingProxyTests). Every misuse must surface as a typed
// `TransducerError`, and nothing already enqueued may be dropped.

import Oak
import Testing

@Suite("Bad input and limits (contract 4.1–4.3, 4.5)")
struct MisuseTests {
    typealias Effect = Scripted.Effect

    // MARK: 4.1 bounded buffer

    @Test("4.1 send on a full buffer throws bufferFull; the event is not enqueued and nothing enqueued is dropped")
    func fullBufferRejectsOnlyTheNewEvent() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 3)
        try proxy.send("a")
        try proxy.send("b")
        try proxy.input.send("end")
        #expect(throws: TransducerError.bufferFull) { try proxy.send("rejected-1") }
        #expect(throws: TransducerError.bufferFull) { try proxy.input.send("rejected-2") }

        let last = try await Scripted.run(
            initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)

        #expect(last == "end")
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:b", "update:end"])
    }

    @Test("4.1 the initial event counts against the buffer size")
    func initialEventCountsAgainstTheBuffer() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 1, initialEvent: "end")
        #expect(throws: TransducerError.bufferFull) { try proxy.send("rejected") }
        let last = try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy)
        #expect(last == "end")
        #expect(trace.entries == ["update:end"])
    }

    @Test("4.1 the default buffer size is documented as Proxy.defaultBufferSize (8, as in Oak) and is enforced")
    func defaultBufferSizeIsEnforced() async throws {
        #expect(Scripted.Proxy.defaultBufferSize == 8)
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let size = Scripted.Proxy.defaultBufferSize
        for i in 0..<(size - 1) { try proxy.send("e\(i)") }
        try proxy.send("end")
        #expect(throws: TransducerError.bufferFull) { try proxy.send("rejected") }

        _ = try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy)
        #expect(trace.entries(withPrefix: "update:").count == size)
        #expect(trace.entries.last == "update:end")
    }

    @Test("4.1 while the run is busy, at most bufferSize events wait, and a rejected send drops nothing")
    func bufferBoundHoldsWhileRunning() async throws {
        let trace = Trace()
        let gate = Gate()
        let proxy = Scripted.Proxy(bufferSize: 3)
        // The run is held in the delivery of "block"; everything sent after
        // it waits in the proxy.
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "block" { await gate.wait() }
        }
        for event in ["block", "w1", "w2"] { try proxy.send(event) }
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: output)
        }
        await trace.waitFor("out:block")

        // "w1" and "w2" are waiting; one more fits in a buffer of three.
        var accepted = ["w1", "w2"]
        var firstRejected: Int?
        for i in 0..<10 {
            do {
                try proxy.send("x\(i)")
                accepted.append("x\(i)")
            } catch {
                #expect(error == .bufferFull)
                firstRejected = i
                break
            }
        }
        #expect(accepted.count == 3, "events accepted while 'block' was being processed: \(accepted)")
        #expect(firstRejected != nil)

        gate.open()
        await trace.waitFor("update:\(accepted[accepted.count - 1])")
        try proxy.send("end")
        #expect(try await value(of: run) == "end")
        // Everything accepted was processed, in order.
        #expect(trace.entries(withPrefix: "update:") == (["block"] + accepted + ["end"]).map { "update:\($0)" })
    }

    @Test(
        "4.1 / 4.5 a zero or negative buffer size makes send and run throw invalidBufferSize",
        arguments: [0, -1, Int.min])
    func invalidBufferSize(size: Int) async throws {
        let proxy = Scripted.Proxy(bufferSize: size, initialEvent: "ignored")
        #expect(throws: TransducerError.invalidBufferSize(size)) { try proxy.send("a") }
        #expect(throws: TransducerError.invalidBufferSize(size)) { try proxy.input.send("a") }
        await #expect(throws: TransducerError.invalidBufferSize(size)) {
            try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: proxy)
        }

        let syncProxy = SyncScripted.Proxy(bufferSize: size)
        await #expect(throws: TransducerError.invalidBufferSize(size)) { try await syncProxy.checkedSend("a") }
        await #expect(throws: TransducerError.invalidBufferSize(size)) {
            try await SyncScripted.run(initialState: SyncScripted.State(trace: Trace()), proxy: syncProxy)
        }
    }

    // MARK: 4.2 send after the end

    @Test(
        "4.2 send after the run has ended throws terminated, never blocks, whichever way the run ended",
        arguments: RunEnding.allCases)
    func sendAfterEndThrowsTerminated(ending: RunEnding) async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let state = Scripted.State(trace: trace) { event in
            event == "fail" ? Effect(id: "failing") { _, _ in throw Boom() } : nil
        }
        try proxy.send("started")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitFor("out:started")
        switch ending {
        case .terminalState: try proxy.send("end")
        case .proxyCancel: proxy.cancel()
        case .proxyCancelWithError: proxy.cancel(with: Boom())
        case .taskCancel: run.cancel()
        case .operationFailure: try proxy.send("fail")
        }
        _ = try? await value(of: run)

        #expect(throws: TransducerError.terminated) { try proxy.send("late") }
        #expect(throws: TransducerError.terminated) { try proxy.input.send("late") }
        // From another task, too (a component holding the input).
        let input = proxy.input
        let fromElsewhere = await Task.detached { () -> TransducerError? in
            do {
                try input.send("late")
                return nil
            } catch let error as TransducerError {
                return error
            } catch {
                return nil
            }
        }.value
        #expect(fromElsewhere == .terminated)
        #expect(!trace.contains("update:late"))
    }

    // MARK: 4.3 one proxy, one run

    @Test("4.3 a proxy whose run has ended throws proxyAlreadyInUse when run again")
    func proxyReusedAfterEnd() async throws {
        let proxy = Scripted.Proxy(initialEvent: "end")
        #expect(try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: proxy) == "end")
        await #expect(throws: TransducerError.proxyAlreadyInUse) {
            try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: proxy)
        }
        await #expect(throws: TransducerError.proxyAlreadyInUse) {
            try await Scripted.run(
                storage: StateBox(Scripted.State(trace: Trace())), proxy: proxy, env: (), output: NoCallback())
        }
        // Also after a run that was cancelled.
        let cancelled = Switch.Proxy()
        cancelled.cancel()
        await #expect(throws: TransducerError.cancelled) {
            try await Switch.run(initialState: Switch.State(isTerminal: false), proxy: cancelled)
        }
        await #expect(throws: TransducerError.proxyAlreadyInUse) {
            try await Switch.run(initialState: Switch.State(isTerminal: false), proxy: cancelled)
        }
    }

    @Test("4.3 a second run on a proxy in use throws proxyAlreadyInUse and leaves the first run and its events alone")
    func proxyReusedWhileRunning() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        try proxy.send("a")
        let first = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        await trace.waitFor("out:a")
        try proxy.send("b")

        let secondTrace = Trace()
        await #expect(throws: TransducerError.proxyAlreadyInUse) {
            try await Scripted.run(initialState: Scripted.State(trace: secondTrace), proxy: proxy)
        }

        try proxy.send("end")
        #expect(try await value(of: first) == "end")
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:b", "update:end"])
        #expect(secondTrace.entries.isEmpty)
    }

    @Test("4.3 two runs racing on one proxy from two threads: exactly one runs, the other throws proxyAlreadyInUse")
    func racingRunsOnOneProxy() async throws {
        enum Outcome: Equatable, Sendable {
            case returned(String)
            case threw(TransducerError)
            case other(String)
        }
        // Each racer runs on a thread of its own, so both can spin at the
        // barrier and then call run at the same moment.
        let threads = (0..<2).map { DedicatedThreadExecutor(label: "oak.contract.racer-\($0)") }
        for iteration in 0..<50 {
            let trace = Trace()
            let proxy = Scripted.Proxy(initialEvent: "a")
            try proxy.send("b")
            try proxy.send("end")
            let barrier = SpinBarrier(parties: 2)
            let racers = threads.map { thread in
                Task(executorPreference: thread) { () -> Outcome in
                    barrier.arriveAndWait()
                    do {
                        return .returned(
                            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy))
                    } catch let error as TransducerError {
                        return .threw(error)
                    } catch {
                        return .other("\(error)")
                    }
                }
            }
            var outcomes: [Outcome] = []
            for racer in racers {
                guard let outcome = await withinDeadline("racing run \(iteration)", { await racer.value }) else {
                    return
                }
                outcomes.append(outcome)
            }
            #expect(outcomes.filter { $0 == .returned("end") }.count == 1, "iteration \(iteration): \(outcomes)")
            #expect(
                outcomes.filter { $0 == .threw(.proxyAlreadyInUse) }.count == 1, "iteration \(iteration): \(outcomes)")
            // The winner processed every enqueued event exactly once.
            #expect(trace.entries == ["update:a", "update:b", "update:end"], "iteration \(iteration)")
            if outcomes.count != 2 || trace.entries.count != 3 { return }
        }
    }

    // MARK: 4.5 misuse is a typed error, never a trap

    @Test("4.5 cancelling twice, cancelling after the end and cancel(with:) after cancel() are harmless")
    func cancellingTwiceIsHarmless() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        try proxy.send("a")
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        await trace.waitFor("out:a")

        proxy.cancel()
        proxy.cancel()
        proxy.cancel(with: Boom(tag: "second"))

        // The first request wins.
        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        proxy.cancel()
        proxy.cancel(with: Boom(tag: "after-end"))
        #expect(throws: TransducerError.terminated) { try proxy.send("b") }

        // After a normal end, cancelling does not change anything either.
        let ended = Scripted.Proxy(initialEvent: "end")
        #expect(try await Scripted.run(initialState: Scripted.State(trace: Trace()), proxy: ended) == "end")
        ended.cancel()
        ended.cancel(with: Boom())
        #expect(throws: TransducerError.terminated) { try ended.send("x") }
    }

    @Test("4.5 an operation that throws (here: it floods the buffer) ends the run with that typed error, not a trap")
    func throwingOperationIsReportedNotTrapped() async throws {
        let trace = Trace()
        let startFlooding = Gate()
        let releaseRun = Gate()
        let proxy = Scripted.Proxy(bufferSize: 2)
        let state = Scripted.State(trace: trace) { event in
            guard event == "flood" else { return nil }
            return Effect(id: "flooder") { _, input in
                await startFlooding.wait()
                do {
                    for i in 0..<10 { try input.send("f\(i)") }
                } catch {
                    trace.append("flooder:threw \(TransducerErrorName.of(error))")
                    throw error
                }
            }
        }
        // The run is held in the delivery of "block" while the operation
        // floods the buffer.
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "block" { await releaseRun.wait() }
        }
        try proxy.send("flood")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: output) }
        await trace.waitFor("out:flood")
        try proxy.send("block")
        await trace.waitFor("out:block")
        startFlooding.open()
        await trace.waitFor("flooder:threw bufferFull")
        releaseRun.open()

        await #expect(throws: TransducerError.bufferFull) { try await value(of: run) }
        #expect(throws: TransducerError.terminated) { try proxy.send("late") }
    }

    @Test("4.5 every TransducerError names the situation and says what to do")
    func errorMessagesSayWhatToDo() {
        // (error, words naming the situation, words of the remedy)
        let cases: [(TransducerError, String, String)] = [
            (.proxyAlreadyInUse, "already", "new proxy"),
            (.noOutputProduced, "output", "initialoutput"),
            (.cancelled, "cancel", "new proxy"),
            (.bufferFull, "full", "buffersize"),
            (.terminated, "ended", "new run"),
            (.invalidBufferSize(0), "buffer", "positive"),
        ]
        for (error, situation, remedy) in cases {
            let message = error.description.lowercased()
            #expect(message.contains(situation), "\(error): \(message)")
            #expect(message.contains(remedy), "\(error): \(message)")
        }
        #expect(TransducerError.invalidBufferSize(-7).description.contains("-7"))
        #expect(Set(cases.map(\.0.description)).count == cases.count)
    }
}
