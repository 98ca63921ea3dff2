// Contract 2.1: `update` is called serially, never concurrently, always on
// the isolation of the caller of `run`. Synchronous actions and isolated
// operations run there too.
//
// The checks do not trap: each update reports through its state's hooks
// whether it runs where it must, so one broken rule fails one test instead of
// crashing the test process. (The hooks live in the state rather than in a
// static because Swift Testing runs tests in parallel.)

import Dispatch
import Oak
import Synchronization
import Testing

@Suite("Isolation (contract 2.1)")
struct IsolationTests {
    typealias Effect = Scripted.Effect

    @Test("2.1 update, actions and isolated operations run on the actor that calls run")
    func updateRunsOnCallingActor() async throws {
        let trace = Trace()
        let host = QueueActor()
        let executor = host.executor
        // The probe itself must work: the test body is not on the actor.
        #expect(!executor.isCurrent)
        let check: @Sendable (String) -> Void = { what in
            trace.append(executor.isCurrent ? "on-actor:\(what)" : "OFF-ACTOR:\(what)")
        }
        let remoteDone = Gate()
        let state = Scripted.State(
            trace: trace,
            hooks: UpdateHooks(before: { check("update \($0)") })
        ) { event in
            switch event {
            case "start":
                // An operation on the global executor that sends events from
                // there, an isolated operation, and two kinds of sync action.
                return .combine(
                    Effect(id: "elsewhere") { _, input in
                        for i in 0..<20 { try input.send("remote-\(i)") }
                    },
                    Effect(
                        id: "isolated",
                        isolatedOperation: { _, input, _ in
                            await remoteDone.wait()
                            check("isolated operation")
                            try input.send("end")
                        }),
                    Effect { _, _ in
                        check("action")
                        return "from-action"
                    },
                    Effect(isolatedAction: { _, _ in
                        check("isolated action")
                        return "from-isolated-action"
                    }))
            case "remote-19":
                remoteDone.open()
                return nil
            default:
                return nil
            }
        }
        let proxy = Scripted.Proxy(bufferSize: 256, initialEvent: "start")

        let last = await withinDeadline("run on the actor") {
            try? await host.run(state, proxy: proxy, onOutput: { check("output \($0)") })
        }

        #expect(last == "end")
        let entries = trace.entries
        #expect(entries.filter { $0.hasPrefix("OFF-ACTOR") }.isEmpty, "\(entries.filter { $0.hasPrefix("OFF-ACTOR") })")
        for what in [
            "update start", "update remote-0", "update remote-19", "update end", "action", "isolated action",
            "isolated operation", "output start", "output end",
        ] {
            #expect(entries.contains("on-actor:\(what)"), "\(what) was not seen on the actor")
        }
    }

    @Test("2.1 run(storage:) reads and writes the host's storage on the actor that calls run, once per update")
    func storageIsUsedOnCallingActor() async throws {
        let trace = Trace()
        let host = QueueActor()
        let proxy = Scripted.Proxy(bufferSize: 256)
        for event in ["a", "b", "end"] { try proxy.send(event) }

        let result = await withinDeadline("run with storage on the actor") {
            try? await host.runWithStorage(Scripted.State(trace: trace), proxy: proxy)
        }

        let (last, log) = try #require(result ?? nil)
        #expect(last == "end")
        #expect(!log.contains { $0.contains("OFF-ACTOR") }, "\(log)")
        #expect(log.filter { $0.hasPrefix("write") } == ["write 1", "write 2", "write 3"])
        #expect(trace.entries == ["update:a", "update:b", "update:end"])
    }

    @Test("2.1 update runs on the main actor when run is called from the main actor")
    @MainActor
    func updateRunsOnMainActor() async throws {
        let trace = Trace()
        let probe = MainQueueProbe()
        // The probe itself must work: the test body runs on the main actor.
        #expect(probe.isOnMainActor)
        #expect(await Task.detached { probe.isOnMainActor }.value == false)
        let check: @Sendable (String) -> Void = { what in
            trace.append(probe.isOnMainActor ? "main:\(what)" : "NOT-MAIN:\(what)")
        }
        let state = Scripted.State(
            trace: trace,
            hooks: UpdateHooks(before: { check("update \($0)") })
        ) { event in
            switch event {
            case "start":
                return .combine(
                    Effect(id: "elsewhere") { _, input in
                        for i in 0..<10 { try input.send("remote-\(i)") }
                    },
                    Effect { _, _ in
                        check("action")
                        return "from-action"
                    })
            case "remote-9":
                return Effect(
                    id: "isolated",
                    isolatedOperation: { _, input, _ in
                        check("isolated operation")
                        try input.send("end")
                    })
            default:
                return nil
            }
        }
        let proxy = Scripted.Proxy(bufferSize: 256, initialEvent: "start")

        let last = try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)

        #expect(last == "end")
        let entries = trace.entries
        #expect(entries.filter { $0.hasPrefix("NOT-MAIN") }.isEmpty, "\(entries.filter { $0.hasPrefix("NOT-MAIN") })")
        for what in ["update start", "update remote-9", "update end", "action", "isolated operation"] {
            #expect(entries.contains("main:\(what)"), "\(what) was not seen on the main actor")
        }
    }

    @Test("2.5 an operation with no isolation of its own runs off the main actor when run is on the main actor")
    @MainActor
    func nonisolatedOperationLeavesTheMainActor() async throws {
        let trace = Trace()
        let probe = MainQueueProbe()
        let state = Scripted.State(trace: trace) { event in
            guard event == "start" else { return nil }
            // Synchronous up to its send: were it started on the run's thread,
            // it would run on the main actor.
            return Effect(id: "work") { _, input in
                trace.append(probe.isOnMainActor ? "op on main" : "op off main")
                try input.send("end")
            }
        }

        let proxy = Scripted.Proxy(bufferSize: 256, initialEvent: "start")
        _ = try await Scripted.run(initialState: state, proxy: proxy, output: trace.output)

        #expect(trace.entries.contains("op off main"), "\(trace.entries)")
    }

    @Test("2.5 an operation on the run's own isolation starts at once and runs until it first suspends")
    func operationOnTheRunsIsolationStartsAtOnce() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let trace = Trace()
        let host = QueueActor()
        let state = Scripted.State(trace: trace) { event in
            switch event {
            case "start":
                return .combine(
                    Effect(isolatedOperation: { _, input, _ in
                        trace.append("isolated op")
                        try input.send("end")
                    }),
                    Effect { _, _ in "from-action" })
            default:
                return nil
            }
        }
        // "queued" waits in the buffer while "start" is processed: the
        // operation's first part runs before it; the event it sends comes after.
        let proxy = Scripted.Proxy(bufferSize: 256, initialEvent: "start")
        try proxy.send("queued")

        _ = await withinDeadline("run on the actor") {
            try? await host.run(state, proxy: proxy, onOutput: { _ in })
        }

        #expect(
            trace.entries.filter { !$0.hasPrefix("output") }
                == ["update:start", "isolated op", "update:from-action", "update:queued", "update:end"])
    }

    @Test("2.5 with run on no actor, an operation on no actor starts at once too")
    func nonisolatedOperationOfANonisolatedRunStartsAtOnce() async throws {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let trace = Trace()
        let state = Scripted.State(trace: trace) { event in
            guard event == "start" else { return nil }
            return Effect(id: "op") { _, input in
                trace.append("op")
                try input.send("end")
            }
        }
        let proxy = Scripted.Proxy(bufferSize: 256, initialEvent: "start")
        try proxy.send("queued")

        _ = try await Scripted.run(initialState: state, proxy: proxy)

        #expect(trace.entries == ["update:start", "op", "update:queued", "update:end"])
    }

    @Test("2.1 update is called serially, never concurrently, with events arriving from many tasks")
    func updateIsSerial() async throws {
        let trace = Trace()
        let monitor = OverlapMonitor()
        let producers = 8
        let eventsPerProducer = 50
        let state = Scripted.State(
            trace: trace,
            hooks: UpdateHooks(before: { _ in monitor.enter() }, after: { _ in monitor.leave() })
        ) { event in
            guard event == "start" else { return nil }
            return .combine(
                (0..<producers).map { p in
                    Effect(id: "producer-\(p)") { _, input in
                        for i in 0..<eventsPerProducer {
                            try input.send("p\(p)-\(i)")
                            if i % 8 == 0 { await Task.yield() }
                        }
                    }
                })
        }
        let proxy = Scripted.Proxy(bufferSize: producers * eventsPerProducer + 1, initialEvent: "start")
        let run = Task { try await Scripted.run(initialState: state, proxy: proxy) }
        let total = producers * eventsPerProducer
        await trace.waitUntil("every produced event processed") { entries in
            entries.count == total + 1
        }
        try proxy.send("end")
        #expect(try await value(of: run) == "end")

        #expect(monitor.overlaps == 0)
        #expect(monitor.entries == total + 2)
        // Each producer's events kept their order (2.2) even interleaved.
        let updated = trace.entries(withPrefix: "update:p")
        for p in 0..<producers {
            #expect(
                updated.filter { $0.hasPrefix("update:p\(p)-") } == (0..<eventsPerProducer).map { "update:p\(p)-\($0)" }
            )
        }
    }
}

/// Detects overlapping calls: `enter` at the start of every update, `leave`
/// at its end.
private final class OverlapMonitor: Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let entryCount = Atomic<Int>(0)

    func enter() {
        if inside.exchange(true, ordering: .sequentiallyConsistent) {
            overlapCount.add(1, ordering: .sequentiallyConsistent)
        }
        entryCount.add(1, ordering: .sequentiallyConsistent)
    }

    func leave() {
        inside.store(false, ordering: .sequentiallyConsistent)
    }

    var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }
    var entries: Int { entryCount.load(ordering: .sequentiallyConsistent) }
}

/// Tells whether code runs on the main actor without trapping. On Linux the
/// main actor's jobs run on the main dispatch queue but not necessarily on the
/// main thread (`dispatch_main` gives up the thread), so the probe marks the
/// queue instead of testing `Thread.isMainThread`.
///
/// Safety (`@unchecked Sendable`): the only stored value is an immutable
/// dispatch key, which libdispatch reads and writes thread-safely.
private final class MainQueueProbe: @unchecked Sendable {
    private let key = DispatchSpecificKey<UInt8>()

    init() {
        DispatchQueue.main.setSpecific(key: key, value: 1)
    }

    var isOnMainActor: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    @Test(
        "2.1 a run without isolation keeps a class environment on one actor: isolated effects and later actions never overlap"
    )
    func nonisolatedRunKeepsAClassEnvironmentOnOneActor() async throws {
        let tally = ClassTally()
        let proxy = TallyCounter.Proxy(bufferSize: 1_000)
        try proxy.send(.start)
        // Called from nonisolated code: the run has no actor of its own.
        let result = try await TallyCounter.run(initialState: .counting, proxy: proxy, env: tally, output: NoCallback())
        #expect(result == 400)
        #expect(tally.count == 400)
        #expect(tally.operationActors.count == 1)
    }
}

/// A mutable, non-`Sendable` environment.
final class ClassTally {
    var count = 0
    /// The actors the isolated effects received, by identity.
    var operationActors: Set<ObjectIdentifier> = []
}

/// Increments a `ClassTally` from an isolated operation and from the synchronous
/// actions its events trigger; with an environment used from two places at
/// once, ThreadSanitizer reports a race.
enum TallyCounter: EffectTransducer {
    enum State: Terminable {
        case counting
        case done

        var isTerminal: Bool { self == .done }
    }

    enum Event: Sendable {
        case start
        case tick
        case counted
        case stop
    }

    typealias Env = ClassTally
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
        switch event {
        case .start:
            let operation = Effect(isolatedOperation: { env, input, isolated in
                env.operationActors.insert(ObjectIdentifier(isolated))
                for _ in 0..<200 {
                    env.count += 1
                    try input.send(.tick)
                    await Task.yield()
                }
                try input.send(.stop)
            })
            return (operation, 0)
        case .tick:
            return (
                Effect { env, _ in
                    env.count += 1
                    return .counted
                }, 0
            )
        case .counted:
            return (nil, 0)
        case .stop:
            state = .done
            return (
                Effect(isolatedAction: { env, isolated in
                    env.operationActors.insert(ObjectIdentifier(isolated))
                    return .counted
                }), 400
            )
        }
    }
}
