// Contract 4.4: the suspending proxy makes `send` wait until the event has
// been processed (its update has run and its output was delivered). A
// transducer opts in with `typealias Proxy = SyncSuspendingProxy<Event>`;
// `Proxy` defaults to the buffered `Proxy<Event>`.

import Oak
import Testing

@Suite("SyncSuspendingProxy (contract 4.4)")
struct SyncSuspendingProxyTests {
    typealias Effect = SyncScripted.Effect

    @Test("4.4 send returns only after the event's update has run and its output was delivered")
    func sendWaitsForUpdateAndDelivery() async throws {
        let trace = Trace()
        let releaseDelivery = Gate()
        let proxy = SyncScripted.Proxy()
        // A slow subject: the delivery of "slow" is held until the test
        // releases it.
        let output = Callback<String> { value in
            trace.append("out-begin:\(value)")
            if value == "slow" { await releaseDelivery.wait() }
            for _ in 0..<10 { await Task.yield() }
            trace.append("out-end:\(value)")
        }
        let run = Task {
            try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy, output: output)
        }
        let sender = Task {
            try await proxy.checkedSend("slow")
            trace.append("send-returned:slow")
        }
        await trace.waitFor("out-begin:slow")
        for _ in 0..<50 { await Task.yield() }
        #expect(!trace.contains("send-returned:slow"), "send returned while the output was still being delivered")

        releaseDelivery.open()
        try await value(of: sender)
        #expect(trace.isOrdered("update:slow", before: "send-returned:slow"))
        #expect(trace.isOrdered("out-end:slow", before: "send-returned:slow"))

        try await proxy.checkedSend("end")
        #expect(try await value(of: run) == "end")
    }

    @Test("4.4 a producer using send cannot outrun the transducer")
    func producerCannotOutrunConsumer() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        let output = Callback<String> { value in
            for _ in 0..<3 { await Task.yield() }
            trace.append("out:\(value)")
        }
        let run = Task {
            try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy, output: output)
        }
        for i in 0..<40 {
            try await proxy.checkedSend("e\(i)")
            // Nothing is pending: the last thing that happened is the
            // delivery of exactly this event.
            #expect(trace.entries.suffix(2) == ["update:e\(i)", "out:e\(i)"])
        }
        try await proxy.input.checkedSend("end")
        #expect(try await value(of: run) == "end")
    }

    @Test("4.4 send returns once the events its event's actions returned were processed too")
    func sendWaitsForTheActionChain() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        let state = SyncScripted.State(trace: trace) { event in
            event == "a" ? .events("a1", "a2") : nil
        }
        let run = Task { try await SyncScripted.run(initialState: state, proxy: proxy, output: trace.output) }
        try await proxy.checkedSend("a")
        #expect(trace.entries.last == "out:a2")
        try await proxy.checkedSend("end")
        #expect(try await value(of: run) == "end")
    }

    @Test("4.4 the sender of the event that reaches the terminal state returns normally")
    func terminalEventSenderReturns() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        let run = Task {
            try await SyncScripted.run(
                initialState: SyncScripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        try await proxy.checkedSend("end")
        #expect(trace.entries == ["update:end", "out:end"])
        #expect(try await value(of: run) == "end")
    }

    @Test("4.4 / 4.2 a sender whose event is never processed gets terminated instead of waiting forever")
    func unprocessedEventSenderGetsTerminated() async throws {
        let trace = Trace()
        let releaseDelivery = Gate()
        let proxy = SyncScripted.Proxy()
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == "hold" { await releaseDelivery.wait() }
        }
        let run = Task {
            try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy, output: output)
        }
        let holder = Task { try await proxy.checkedSend("hold") }
        await trace.waitFor("out:hold")
        // While the run is busy, more senders line up.
        let waiting = (0..<3).map { i in Task { try await proxy.checkedSend("waiting-\(i)") } }
        proxy.cancel()
        releaseDelivery.open()

        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        // "hold" was processed (update and delivery) before the run ended.
        try await value(of: holder)
        for sender in waiting {
            await #expect(throws: TransducerError.terminated) { try await value(of: sender) }
        }
        #expect(!trace.entries.contains { $0.hasPrefix("update:waiting") })
    }

    /// How the run of ``operationWaitingForItsEventIsReleasedWhenTheRunEnds(_:)``
    /// ends while it holds the delivery of an event.
    enum HeldEnding: String, CaseIterable, Sendable {
        /// `proxy.cancel()` while the held event's output is being delivered.
        case cancel
        /// The held event reaches the terminal state.
        case terminalState
    }

    @Test(
        "4.4 / 3.3 an operation waiting until its event is processed is released when the run ends, and run returns",
        arguments: HeldEnding.allCases)
    func operationWaitingForItsEventIsReleasedWhenTheRunEnds(_ ending: HeldEnding) async throws {
        let trace = Trace()
        let releaseDelivery = Gate()
        let operationGo = Gate()
        let held = ending == .cancel ? "hold" : "end"
        let proxy = SyncScripted.Proxy()
        let output = Callback<String> { value in
            trace.append("out:\(value)")
            if value == held { await releaseDelivery.wait() }
        }
        let state = SyncScripted.State(trace: trace) { event in
            guard event == "start" else { return nil }
            return Effect(id: "producer") { _, input in
                await operationGo.wait()
                do {
                    try await input.checkedSend("from-operation")
                    trace.append("operation:sent")
                } catch {
                    trace.append("operation:\(TransducerErrorName.of(error))")
                }
            }
        }
        let run = Task { try await SyncScripted.run(initialState: state, proxy: proxy, output: output) }
        try await proxy.checkedSend("start")
        let holder = Task { try await proxy.checkedSend(held) }
        await trace.waitFor("out:\(held)")
        // The run is busy delivering the held output; the operation's event
        // waits in the buffer, its sender suspended until it is processed.
        operationGo.open()
        _ = await withinDeadline("the operation's event in the buffer") {
            while proxy._channel.pendingEvents == 0 { await Task.yield() }
        }
        if ending == .cancel { proxy.cancel() }
        releaseDelivery.open()

        if ending == .cancel {
            await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        } else {
            #expect(try await value(of: run) == "end")
        }
        try await value(of: holder)
        // `run` returned after the operation ended (3.3), which its sender
        // was told: the event was not processed.
        #expect(trace.contains("operation:terminated"))
        #expect(!trace.contains("update:from-operation"))
    }

    @Test("4.4 / 3.1 senders of events behind the terminal one get terminated; the terminal sender returns")
    @ContractActor
    func sendersBehindTheTerminalEventGetTerminated() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        // All four events wait, in this order, before the run takes any.
        var senders: [Task<Void, any Error>] = []
        for event in ["a", "end", "after-1", "after-2"] {
            senders.append(Task { @ContractActor in try await proxy.checkedSend(event) })
            await waitUntil(proxy, hasPending: senders.count)
        }
        let run = Task { @ContractActor in
            try await SyncScripted.run(
                initialState: SyncScripted.State(trace: trace), proxy: proxy, output: trace.output)
        }

        #expect(try await value(of: run) == "end")
        try await value(of: senders[0])
        try await value(of: senders[1])
        await #expect(throws: TransducerError.terminated) { try await value(of: senders[2]) }
        await #expect(throws: TransducerError.terminated) { try await value(of: senders[3]) }
        #expect(trace.entries(withPrefix: "update:") == ["update:a", "update:end"])
    }

    @Test("4.4 / 4.2 send after the run has ended throws terminated at once")
    func sendAfterEndThrows() async throws {
        let proxy = SyncScripted.Proxy()
        let run = Task { try await SyncScripted.run(initialState: SyncScripted.State(trace: Trace()), proxy: proxy) }
        try await proxy.checkedSend("end")
        #expect(try await value(of: run) == "end")

        let input = proxy.input
        let attempt = Task { try await input.checkedSend("late") }
        await #expect(throws: TransducerError.terminated) { try await value(of: attempt) }
        await #expect(throws: TransducerError.terminated) { try await proxy.checkedSend("late") }
    }

    @Test("4.4 / 4.1 with more waiting senders than bufferSize, send throws bufferFull")
    @ContractActor
    func moreSendersThanBufferSize() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy(bufferSize: 1)
        // No run yet: the first sender's event waits in the buffer.
        let first = Task { @ContractActor in try await proxy.checkedSend("end") }
        await waitUntil(proxy, hasPending: 1)
        let second = Task { @ContractActor () -> TransducerError? in
            do {
                try await proxy.checkedSend("second")
                return nil
            } catch let error as TransducerError {
                return error
            } catch {
                return nil
            }
        }
        #expect(await second.value == .bufferFull)

        #expect(try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy) == "end")
        try await first.value
        #expect(trace.entries == ["update:end"])
    }

    @Test("4.4 an operation of a suspending transducer sends through an Input whose send waits too")
    func operationInputWaits() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        let state = SyncScripted.State(trace: trace) { event in
            guard event == "start" else { return nil }
            return Effect(id: "producer") { _, input in
                for i in 0..<5 {
                    try await input.checkedSend("p\(i)")
                    trace.append("producer-sent:p\(i)")
                }
                try await input.checkedSend("end")
            }
        }
        let run = Task { try await SyncScripted.run(initialState: state, proxy: proxy, output: trace.output) }
        try await proxy.checkedSend("start")
        #expect(try await value(of: run) == "end")
        for i in 0..<5 {
            #expect(trace.isOrdered("out:p\(i)", before: "producer-sent:p\(i)"))
        }
    }

    @Test("4.4 Proxy defaults to the buffered Proxy<Event>, whose send does not wait")
    func proxyDefaultsToBufferedProxy() async throws {
        #expect(Scripted.Proxy.self == Oak.Proxy<String>.self)
        #expect(Switch.Proxy.self == Oak.Proxy<String>.self)
        #expect(SyncScripted.Proxy.self == SyncSuspendingProxy<String>.self)

        // Without any run, a buffered send returns at once.
        let proxy = Switch.Proxy()
        try proxy.send("toggle")
        try proxy.send("end")
        try await Switch.run(initialState: Switch.State(isTerminal: false), proxy: proxy)
    }
}

// Oak's form of `send`: it never throws. It waits for room instead of
// failing on a full buffer, and drops (and logs) what the run will never
// process.
@Suite("SyncSuspendingProxy.send, Oak's non-throwing form (contract 4.4)")
struct SyncSuspendingProxyNonThrowingSendTests {
    @Test("4.4 with more waiting senders than bufferSize, send waits for room instead of failing; order is kept")
    @ContractActor
    func sendWaitsForRoom() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy(bufferSize: 1)
        // No run yet: "a" fills the buffer, "b" and "c" wait for room, in order.
        var senders: [Task<Void, Never>] = []
        for event in ["a", "b", "c"] {
            senders.append(Task { @ContractActor in await proxy.send(event) })
            await waitUntil(proxy, hasPending: senders.count)
        }
        // A checked sender behind them is told that the buffer is full.
        let checked = Task { @ContractActor () -> TransducerError? in
            do throws(TransducerError) {
                try await proxy.checkedSend("rejected")
                return nil
            } catch {
                return error
            }
        }
        #expect(await checked.value == .bufferFull)
        let run = Task { @ContractActor in
            try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy)
        }
        for sender in senders { await sender.value }
        await proxy.send("end")
        #expect(try await value(of: run) == "end")
        #expect(trace.entries == ["update:a", "update:b", "update:c", "update:end"])
    }

    @Test(
        "4.2 / 4.4 send after the end, or while the run ends, returns without throwing and the event is not processed")
    func sendAfterTheEndReturns() async throws {
        let trace = Trace()
        let releaseDelivery = Gate()
        let proxy = SyncScripted.Proxy()
        let output = Callback<String> { value in
            if value == "hold" { await releaseDelivery.wait() }
        }
        let run = Task {
            try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy, output: output)
        }
        let holder = Task { await proxy.send("hold") }
        await trace.waitFor("update:hold")
        let waiting = Task { await proxy.send("waiting") }
        proxy.cancel()
        releaseDelivery.open()
        await #expect(throws: TransducerError.cancelled) { try await value(of: run) }
        await holder.value
        await waiting.value
        await proxy.send("late")
        await proxy.input.send("late")
        #expect(!trace.entries.contains("update:waiting"))
        #expect(!trace.entries.contains("update:late"))
    }

    @Test("send(events:) sends each event once the previous one was processed")
    func sendEventsInLockstep() async throws {
        let trace = Trace()
        let proxy = SyncScripted.Proxy()
        let run = Task { try await SyncScripted.run(initialState: SyncScripted.State(trace: trace), proxy: proxy) }
        await proxy.send(events: { "a" }, { "b" }, { "end" })
        #expect(try await value(of: run) == "end")
        #expect(trace.entries == ["update:a", "update:b", "update:end"])
    }
}

/// Suspends until `count` events sent through `proxy` wait (buffered or
/// waiting for room), so that senders started one after another wait in
/// that order: tasks are not promised to start in the order they were
/// created (a serial run under ThreadSanitizer once started them out of it).
private func waitUntil(_ proxy: SyncScripted.Proxy, hasPending count: Int) async {
    _ = await withinDeadline("\(count) events waiting") {
        while proxy._channel.pendingEvents < count { await Task.yield() }
    }
}
