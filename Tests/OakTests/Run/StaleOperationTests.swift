// Contract 2.7: an operation that was cancelled (by `.cancelTask`, by
// replacement with the same id, or by the end of the run) cannot deliver
// events any more, even if its body ignores cancellation; its sends are
// refused and counted by the inspection hook, and what it throws afterwards
// does not fail the run.

import Dispatch
import Oak
import Testing

/// Loads comics by number; every load has the id "load", so a new load
/// replaces the one in flight. The service ignores cancellation.
enum ComicLoader: EffectTransducer {
    enum State: Terminable {
        case idle
        case loading(Int)
        case showing(Int, String)
        case closed

        var isTerminal: Bool {
            if case .closed = self { true } else { false }
        }
    }

    enum Event {
        case load(Int)
        case didLoad(Int, String)
        case cancel
        case close
    }

    struct Env: Sendable {
        /// Answers for comic `n` once the test lets it, cancelled or not.
        var fetch: @Sendable (Int) async -> String
        /// Records how each operation's last send went.
        var sent: @Sendable (Int, Result<Void, TransducerError>) -> Void
    }

    typealias Output = String

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .load(let number):
            state = .loading(number)
            let load = Effect(id: "load") { env, input in
                let title = await env.fetch(number)
                do throws(TransducerError) {
                    try input.send(.didLoad(number, title))
                    env.sent(number, .success(()))
                } catch {
                    env.sent(number, .failure(error))
                    throw error
                }
            }
            return (load, "loading \(number)")
        case .didLoad(let number, let title):
            state = .showing(number, title)
            return (nil, "showing \(number): \(title)")
        case .cancel:
            state = .idle
            return (.cancelTask("load"), "cancelled")
        case .close:
            state = .closed
            return (nil, "closed")
        }
    }
}

/// Collects the records of refused events.
struct RefusalInspector: TransducerInspector {
    let trace: Trace

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        switch record {
        case .eventRefused(let info): trace.append("refused \(info)")
        case .effectFailed(let info, let error): trace.append("failed \(info): \(error)")
        default: break
        }
    }
}

@Suite("Stale operation events (contract 2.7)", .timeLimit(.minutes(1)))
struct StaleOperationTests {
    /// One gate per comic number, and a trace of what happened.
    final class Service: Sendable {
        let trace = Trace()
        private let gates = Locked<[Int: Gate]>([:])

        func gate(_ number: Int) -> Gate {
            gates.withLock { gates in
                if let gate = gates[number] { return gate }
                let gate = Gate()
                gates[number] = gate
                return gate
            }
        }

        var env: ComicLoader.Env {
            ComicLoader.Env(
                fetch: { number in
                    self.trace.append("fetching \(number)")
                    // The runtime marks an operation cancelled before it
                    // cancels its task, so "saw cancellation" proves the
                    // operation's sends are refused from then on.
                    await withTaskCancellationHandler {
                        await self.gate(number).wait()
                    } onCancel: {
                        self.trace.append("\(number) saw cancellation")
                    }
                    return "comic \(number)"
                },
                sent: { number, result in
                    switch result {
                    case .success: self.trace.append("sent \(number)")
                    case .failure(let error): self.trace.append("refused \(number): \(error == .operationCancelled)")
                    }
                })
        }
    }

    @Test("2.7 load #5, then #6: #5's late answer never overwrites #6")
    func aReplacedLoadsLateAnswerIsRefused() async throws {
        let service = Service()
        let outputs = Trace()
        let proxy = ComicLoader.Proxy()
        let run = Task {
            try await TransducerInspection.$inspector.withValue(RefusalInspector(trace: service.trace)) {
                try await ComicLoader.run(
                    initialState: .idle, proxy: proxy, env: service.env,
                    output: Callback { outputs.append($0) })
            }
        }
        try proxy.send(.load(5))
        await service.trace.waitFor("fetching 5")
        try proxy.send(.load(6))
        await service.trace.waitFor("fetching 6")

        // #6 answers first and is shown.
        service.gate(6).open()
        await outputs.waitFor("showing 6: comic 6")
        // #5 answers late; it was replaced, so its send is refused.
        service.gate(5).open()
        await service.trace.waitFor("refused 5: true")

        try proxy.send(.close)
        #expect(try await value(of: run) == "closed")
        #expect(outputs.entries == ["loading 5", "loading 6", "showing 6: comic 6", "closed"])
        #expect(service.trace.contains("refused operation #1 (id: load)"))
        // The refused operation's error did not fail the run.
        #expect(service.trace.entries(withPrefix: "failed").isEmpty)
    }

    @Test("2.7 an operation cancelled by cancelTask cannot deliver its answer")
    func aCancelledLoadsAnswerIsRefused() async throws {
        let service = Service()
        let outputs = Trace()
        let proxy = ComicLoader.Proxy()
        let run = Task {
            try await TransducerInspection.$inspector.withValue(RefusalInspector(trace: service.trace)) {
                try await ComicLoader.run(
                    initialState: .idle, proxy: proxy, env: service.env,
                    output: Callback { outputs.append($0) })
            }
        }
        try proxy.send(.load(1))
        await service.trace.waitFor("fetching 1")
        try proxy.send(.cancel)
        // The output comes before the effect is applied (rule 2.4): wait
        // for the cancellation itself, or the answer could still be live.
        await outputs.waitFor("cancelled")
        await service.trace.waitFor("1 saw cancellation")
        service.gate(1).open()
        await service.trace.waitFor("refused 1: true")

        try proxy.send(.close)
        #expect(try await value(of: run) == "closed")
        #expect(outputs.entries == ["loading 1", "cancelled", "closed"])
        #expect(service.trace.contains("refused operation #1 (id: load)"))
    }

    @Test("2.7 a live operation's answer is delivered")
    func aLiveLoadsAnswerIsDelivered() async throws {
        let service = Service()
        let outputs = Trace()
        let proxy = ComicLoader.Proxy()
        let run = Task {
            try await ComicLoader.run(
                initialState: .idle, proxy: proxy, env: service.env,
                output: Callback { outputs.append($0) })
        }
        try proxy.send(.load(3))
        service.gate(3).open()
        await outputs.waitFor("showing 3: comic 3")
        #expect(service.trace.contains("sent 3"))
        try proxy.send(.close)
        #expect(try await value(of: run) == "closed")
    }

    @Test("2.7 with a suspending proxy, a replaced operation's checked send throws")
    func aSuspendingInputRefusesAReplacedOperation() async throws {
        let trace = Trace()
        let first = Gate()
        let proxy = Suspending.Proxy()
        let run = Task {
            try await Suspending.run(
                initialState: .waiting, proxy: proxy,
                env: Suspending.Env(first: first, trace: trace))
        }
        await proxy.send(.start(1))
        await trace.waitFor("started 1")
        await proxy.send(.start(2))
        first.open()
        await trace.waitFor("1: operationCancelled")
        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await run.value }
    }
}

/// A transducer with a suspending proxy whose operations report how their
/// checked send went.
enum Suspending: EffectTransducer {
    typealias Proxy = SyncSuspendingProxy<Event>

    enum State: NonTerminal {
        case waiting
    }

    enum Event: Sendable {
        case start(Int)
        case done(Int)
    }

    struct Env: Sendable {
        let first: Gate
        let trace: Trace
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .start(let number):
            return Effect(id: "work") { env, input in
                env.trace.append("started \(number)")
                if number == 1 { await env.first.wait() }
                do {
                    try await input.checkedSend(.done(number))
                } catch {
                    env.trace.append("\(number): \(TransducerErrorName.of(error))")
                }
            }
        case .done:
            return nil
        }
    }
}

/// Searches; every search has the id "search". A search answers when the
/// test opens its gate, then stays until it is cancelled: a search replaced
/// after it answered is still running, its answer waiting in the buffer.
/// Every update outputs the results so far.
enum Search: EffectTransducer {
    struct State: Terminable {
        var results: [String] = []
        var isClosed = false
        var isTerminal: Bool { isClosed }
    }

    enum Event: Sendable {
        case search(String)
        case result(String)
        case close
    }

    struct Env: Sendable {
        var gate: @Sendable (String) -> Gate
        var trace: Trace
        /// Called once the search for the query has sent its result.
        var sent: @Sendable (String) -> Void
    }

    typealias Output = [String]

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .search(let query):
            let search = Effect(id: "search") { env, input in
                env.trace.append("searching \(query)")
                await env.gate(query).wait()
                try input.send(.result(query))
                env.sent(query)
                await untilCancelled()
            }
            return (search, state.results)
        case .result(let query):
            state.results.append(query)
            return (nil, state.results)
        case .close:
            state.isClosed = true
            return (nil, state.results)
        }
    }
}

extension StaleOperationTests {
    @Test("2.7 an answer already buffered when its operation is replaced never reaches update")
    @MainActor
    func aBufferedAnswerOfAReplacedOperationIsDropped() async throws {
        let trace = Trace()
        let gates = Locked<[String: Gate]>([:])
        let gate: @Sendable (String) -> Gate = { query in
            gates.withLock { gates in
                if let gate = gates[query] { return gate }
                let gate = Gate()
                gates[query] = gate
                return gate
            }
        }
        let answered = DispatchSemaphore(value: 0)
        let env = Search.Env(gate: gate, trace: trace, sent: { _ in answered.signal() })
        let proxy = Search.Proxy()
        let outputs = Trace()
        // The run is on the main actor, which this test holds between its
        // `await`s: the loop cannot take an event meanwhile.
        let run = Task { @MainActor in
            try await TransducerInspection.$inspector.withValue(RefusalInspector(trace: trace)) {
                try await Search.run(
                    initialState: Search.State(), proxy: proxy, env: env,
                    output: Callback { outputs.append($0.joined(separator: ",")) })
            }
        }
        try proxy.send(.search("a"))
        await trace.waitFor("searching a")

        // Without giving up the main actor: "b" is buffered, then a's answer
        // behind it (a runs on the global executor).
        try proxy.send(.search("b"))
        gate("a").open()
        answered.wait()

        // The loop takes both; "b" replaces a, whose answer is dropped.
        await trace.waitFor("refused operation #1 (id: search)")
        await trace.waitFor("searching b")
        gate("b").open()
        await outputs.waitFor("b")
        try proxy.send(.close)
        #expect(try await run.value == ["b"])
        #expect(!outputs.contains("a"))
    }
}
