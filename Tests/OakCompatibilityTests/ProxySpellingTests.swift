// Proxies and inputs as Oak code uses them: `Proxy(bufferSize:initialEvent:)`,
// `Proxy()`, ids, equality, `cancel(with:)`, `finish()`,
// `SyncSuspendingProxy` whose `send` does not throw, `send(events:)`, the
// input protocols, and a custom proxy for a preview or a test.

import Foundation
import Oak
import Testing

/// A stand-in proxy, as written for SwiftUI previews or tests: it only
/// records what is sent.
struct RecordingProxy: TransducerProxy {
    typealias Event = String

    final class Log: @unchecked Sendable {
        var events: [String] = []
        var cancelled: (any Error)?
        var wasCancelled = false
    }

    struct Input {
        let log: Log
        func send(_ event: String) { log.events.append(event) }
    }

    let log = Log()
    let id = UUID()

    init() {}

    var input: Input { Input(log: log) }

    func cancel(with error: (any Error)?) {
        log.wasCancelled = true
        log.cancelled = error
    }
}

/// A pure transducer whose proxy suspends every sender until its event was
/// processed.
enum Lockstep: Transducer {
    struct State: Terminable {
        var values: [Int] = []
        var isTerminal = false
    }

    enum Event: Sendable {
        case value(Int)
        case stop
    }

    typealias Proxy = SyncSuspendingProxy<Event>

    static func update(_ state: inout State, event: Event) -> [Int] {
        switch event {
        case .value(let value): state.values.append(value)
        case .stop: state.isTerminal = true
        }
        return state.values
    }
}

/// Sends events through any buffered input.
func sendAll<I: BufferedTransducerInput>(_ events: [I.Event], to input: I) throws where I.Event: Sendable {
    for event in events { try input.send(event) }
}

/// Sends events through any suspending input.
func sendAll<I: SyncSuspendingTransducerInput>(_ events: [I.Event], to input: I) async where I.Event: Sendable {
    for event in events { await input.send(event) }
}

/// Sends two events with the variadic `send(events:)`. Oak 0.34 declares it
/// nonisolated with non-`Sendable` closures, so Oak code calls it from a
/// nonisolated function, as here. (Ours also accepts it from an actor.)
func sendValues(_ first: Int, _ second: Int, to proxy: Lockstep.Proxy) async {
    await proxy.send(events: { .value(first) }, { .value(second) })
}

@Suite("Oak spellings: proxies")
@MainActor
struct ProxySpellingTests {
    @Test func proxiesAreIdentifiableAndEquatableByID() {
        let a = SimpleCounter.Proxy()
        let b = SimpleCounter.Proxy()
        #expect(a.id == a.id)
        #expect(a.id != b.id)
        #expect(a == a)
        #expect(a != b)
        let ids: Set<UUID> = [a.id, b.id, Lockstep.Proxy().id]
        #expect(ids.count == 3)
    }

    @Test func aProxyTakesABufferSizeAndAnInitialEvent() async throws {
        let proxy = SimpleCounter.Proxy(bufferSize: 2, initialEvent: .increment)
        try proxy.send(.increment)
        #expect(throws: (any Error).self) { try proxy.send(.increment) }
        let outputs = Collector<Int>()
        let task = Task {
            try await SimpleCounter.run(
                initialState: SimpleCounter.initialState, proxy: proxy,
                output: Callback { output in
                    if case .value(let count) = output { await outputs.append(count) }
                })
        }
        #expect(await outputs.wait(for: 2) == [1, 2])
        proxy.cancel()
        _ = try? await task.value
    }

    @Test func theDefaultProxyHoldsEightEvents() throws {
        let proxy = SimpleCounter.Proxy()
        for _ in 0..<8 { try proxy.send(.increment) }
        #expect(throws: (any Error).self) { try proxy.send(.increment) }
    }

    @Test func buffersInputsAreBufferedTransducerInputs() async throws {
        let proxy = SelfEffect.Proxy()
        try sendAll([.add(1), .add(2), .stop], to: proxy.input)
        let result = try await SelfEffect.run(initialState: .counting(0), proxy: proxy, env: Void())
        #expect(result == 3)
    }

    @Test func aSuspendingSendReturnsOnceTheEventWasProcessed() async throws {
        let outputs = Collector<[Int]>()
        let proxy = Lockstep.Proxy()
        let run = Task {
            try await Lockstep.run(
                initialState: Lockstep.State(), proxy: proxy, output: Callback { await outputs.append($0) })
        }
        await proxy.send(.value(1))
        #expect(await outputs.values.last == [1])
        await proxy.input.send(.value(2))
        #expect(await outputs.values.last == [1, 2])
        await sendValues(3, 4, to: proxy)
        #expect(await outputs.values.last == [1, 2, 3, 4])
        await sendAll([.value(5), .stop], to: proxy.input)
        #expect(try await run.value == [1, 2, 3, 4, 5])
    }

    @Test func aSuspendingSendAfterTheEndReturnsWithoutThrowing() async throws {
        let proxy = Lockstep.Proxy()
        let run = Task { try await Lockstep.run(initialState: Lockstep.State(), proxy: proxy) }
        await proxy.send(.stop)
        _ = try await run.value
        await proxy.send(.value(1))  // the run has ended: dropped, no error
        await proxy.input.send(.value(2))
    }

    @Test func aSuspendingProxyIsCancelledLikeAnyProxy() async throws {
        let proxy = Lockstep.Proxy()
        let run = Task { try await Lockstep.run(initialState: Lockstep.State(), proxy: proxy) }
        await proxy.send(.value(1))
        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) { try await run.value }
    }

    @Test func aCustomProxyStandsInForARealOne() {
        let proxy = RecordingProxy()
        proxy.input.send("tap")
        proxy.cancel()
        #expect(proxy.log.events == ["tap"])
        #expect(proxy.log.wasCancelled)
        #expect(proxy.log.cancelled == nil)
        #expect(proxy == proxy)
        #expect(proxy != RecordingProxy())
    }

    @Test func finishLetsTheRunProcessWhatIsBuffered() async throws {
        let proxy = Lockstep.Proxy()
        let run = Task { try await Lockstep.run(initialState: Lockstep.State(), proxy: proxy) }
        await proxy.send(.value(1))
        proxy.finish()
        await #expect(throws: TransducerError.noOutputProduced) { try await run.value }
    }
}
