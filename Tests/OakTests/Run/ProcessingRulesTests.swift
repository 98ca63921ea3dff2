// Contract section 2, processing rules 2.2–2.5 (2.1 is in IsolationTests,
// 2.5's ids and cancelTask and 2.6 are in EffectTests).

import Oak
import Testing

@Suite("Processing rules (contract 2.2–2.5)")
struct ProcessingRulesTests {
    typealias Effect = Scripted.Effect

    @Test("2.2 events sent through the proxy are processed in FIFO order")
    func proxyEventsAreFIFO() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let early = (0..<50).map { "e\($0)" }
        let late = (50..<100).map { "e\($0)" }
        for event in early { try proxy.send(event) }
        let run = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        // Half of the events are buffered before the run starts, half are
        // sent while it is running.
        await trace.waitFor("out:e10")
        for event in late { try proxy.send(event) }
        try proxy.send("end")

        #expect(try await value(of: run) == "end")
        #expect(trace.entries(withPrefix: "update:") == (early + late + ["end"]).map { "update:\($0)" })
        #expect(trace.entries(withPrefix: "out:") == (early + late + ["end"]).map { "out:\($0)" })
    }

    @Test("2.2 events sent through an Input keep each producer's order")
    func inputEventsKeepProducerOrder() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start":
                let a = Effect(id: "a") { _, input in
                    for i in 0..<40 { try input.send("a\(i)") }
                }
                let b = Effect(id: "b") { _, input in
                    for i in 0..<40 { try input.send("b\(i)") }
                }
                return .combine(a, b)
            case "a39":
                return .event("a-done")
            default:
                return nil
            }
        }
        try proxy.send("start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }
        await trace.waitUntil("both producers delivered") { entries in
            entries.contains("update:a39") && entries.contains("update:b39")
        }
        try proxy.send("end")
        #expect(try await value(of: run) == "end")

        let updates = trace.entries(withPrefix: "update:")
        #expect(
            updates.filter { $0.hasPrefix("update:a") && $0 != "update:a-done" } == (0..<40).map { "update:a\($0)" })
        #expect(updates.filter { $0.hasPrefix("update:b") } == (0..<40).map { "update:b\($0)" })
        // The event returned by the action of a39 comes right after a39.
        #expect(trace.isOrdered("update:a39", before: "update:a-done"))
        if let a39 = updates.firstIndex(of: "update:a39") {
            #expect(updates[a39 + 1] == "update:a-done")
        }
    }

    @Test("2.3 action events are processed before buffered events, depth first")
    func actionEventsAreDepthFirst() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "a": .events("a1", "a2")
            case "a1": .event("a11")
            case "a11": Effect { _, _ in "a111" }
            case "a2": .combine(.event("a21"), .events("a22", "a23"))
            case "a22": Effect(isolatedAction: { _, _ in "a221" })
            default: nil
            }
        }
        for event in ["a", "b", "end"] { try proxy.send(event) }

        let last = try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)

        #expect(last == "end")
        #expect(
            trace.entries(withPrefix: "update:")
                == ["a", "a1", "a11", "a111", "a2", "a21", "a22", "a221", "a23", "b", "end"].map { "update:\($0)" })
    }

    @Test("2.3 nothing interleaves with an action chain, not even events sent while it runs")
    func nothingInterleavesWithAnActionChain() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let input = proxy.input
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "go":
                // A synchronous action that sends an event before returning one.
                Effect { _, input in
                    try input.send("intruder1")
                    return "chained1"
                }
            case "chained1":
                // An asynchronous action on another actor: the run awaits it,
                // and what it sends meanwhile still waits in the buffer.
                Effect(action: { @ContractActor _ in
                    try input.send("intruder2")
                    for _ in 0..<20 { await Task.yield() }
                    return "chained2"
                })
            case "chained2":
                .event("chained3")
            case "intruder2":
                .event("end")
            default:
                nil
            }
        }
        try proxy.send("go")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) }

        #expect(try await value(of: run) == "end")
        #expect(
            trace.entries(withPrefix: "update:")
                == ["go", "chained1", "chained2", "chained3", "intruder1", "intruder2", "end"].map { "update:\($0)" })
    }

    @Test("2.4 the output of an update is delivered before its effect runs (synchronous subject)")
    func outputBeforeEffectSyncSubject() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "x":
                .combine(
                    Effect { _, _ in
                        trace.append("action:x")
                        return "y"
                    },
                    Effect(id: "op-x") { _, _ in trace.append("op:x") })
            case "end":
                Effect { _, _ in
                    trace.append("action:end")
                    return "ignored"
                }
            default:
                nil
            }
        }
        for event in ["x", "end"] { try proxy.send(event) }
        _ = try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)

        #expect(trace.isOrdered("out:x", before: "action:x"))
        #expect(trace.isOrdered("out:x", before: "op:x"))
        #expect(trace.isOrdered("out:end", before: "action:end"))
    }

    @Test("2.4 the output of an update is delivered (awaited) before its effect runs (asynchronous subject)")
    func outputBeforeEffectAsyncSubject() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "x":
                .combine(
                    Effect(id: "op-x") { _, _ in trace.append("op:x") },
                    Effect { _, _ in
                        trace.append("action:x")
                        return "y"
                    })
            case "end":
                Effect { _, _ in
                    trace.append("action:end")
                    return "ignored"
                }
            default:
                nil
            }
        }
        // A slow subject on another actor: the run must wait for it.
        let output = Callback<String> { @ContractActor value in
            trace.append("out-begin:\(value)")
            for _ in 0..<50 { await Task.yield() }
            trace.append("out-end:\(value)")
        }
        for event in ["x", "end"] { try proxy.send(event) }
        _ = try await Scripted.run(initialState: state, proxy: proxy, output: output)

        #expect(trace.isOrdered("out-end:x", before: "update:y"))
        #expect(trace.isOrdered("out-end:x", before: "action:x"))
        #expect(trace.isOrdered("out-end:x", before: "op:x"))
        #expect(trace.isOrdered("out-end:end", before: "action:end"))
        #expect(
            trace.entries(withPrefix: "out-") == ["x", "y", "end"].flatMap { ["out-begin:\($0)", "out-end:\($0)"] })
    }

    @Test("2.5 an operation starts after the update that returned it, and after its output was delivered")
    func operationStartsAfterItsUpdate() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy(bufferSize: 256)
        let seenAtStart = Recorder<[String]>()
        let state = Scripted.State(trace: trace) { event in
            guard event == "go" else { return nil }
            return Effect(id: "op") { _, input in
                seenAtStart.append(trace.entries)
                try input.send("end")
            }
        }
        try proxy.send("go")
        #expect(try await Scripted.run(initialState: state, proxy: proxy, output: trace.output) == "end")

        let seen = try #require(seenAtStart.values.first)
        #expect(seen.contains("update:go"))
        #expect(seen.contains("out:go"))
    }

    @Test("2.4 a pure transducer delivers every output in order and run returns the last one")
    func pureTransducerOutputs() async throws {
        let outputs = Recorder<Int>()
        let proxy = Tally.Proxy()
        for event in ["a", "b", "c", "end"] { try proxy.send(event) }
        let last = try await Tally.run(
            initialState: Tally.State(), proxy: proxy, output: Callback { outputs.append($0) })
        #expect(last == 4)
        #expect(outputs.values == [1, 2, 3, 4])
    }
}
