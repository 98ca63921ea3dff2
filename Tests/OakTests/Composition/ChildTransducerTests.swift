// Child transducers bound to a parent's state: a child runs exactly while
// the parent's state holds its handle, its outputs become parent events with
// back pressure, and once dismissed nothing of it is left: no task, and no
// late event reaching the parent, even from an operation that ignores
// cancellation.

import Oak
import Observation
import PropertyBased
import Testing

/// A child: counts the ticks it is told about; `.start` starts an operation
/// that waits for the test's gate, ignoring cancellation, then reports a
/// tick. Every update outputs the count.
enum Ticker: EffectTransducer {
    struct State: NonTerminal, Sendable, Equatable {
        var count = 0
    }

    enum Event: Sendable {
        case start(Int)
        case tick
    }

    struct Env: Sendable {
        let gates: Gates
        let trace: Trace
    }

    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .start(let number):
            return (
                Effect(id: "wait") { env, input in
                    env.trace.append("child waits \(number)")
                    await env.gates.gate(number).wait()
                    do {
                        try input.send(.tick)
                        env.trace.append("child ticked \(number)")
                    } catch {
                        env.trace.append("child refused \(number): \(TransducerErrorName.of(error))")
                        throw error
                    }
                }, state.count
            )
        case .tick:
            state.count += 1
            return (nil, state.count)
        }
    }
}

/// Gates by number: operations wait at them, ignoring cancellation.
final class Gates: Sendable {
    private let gates = Locked<[Int: Gate]>([:])

    func gate(_ number: Int) -> Gate {
        gates.withLock { gates in
            if let gate = gates[number] { return gate }
            let gate = Gate()
            gates[number] = gate
            return gate
        }
    }
}

/// A parent: `.open` shows a ticker (a child bound to the `.ticker` case),
/// `.close` goes home and so dismisses it; `.row(add:)` and `.row(remove:)`
/// keep a keyed collection of tickers.
enum Screen: EffectTransducer {
    struct State: NonTerminal, Sendable {
        enum Page: Sendable {
            case home
            case ticker(Child<Ticker>)
        }

        var page = Page.home
        var rows: [Int: Child<Ticker>] = [:]

        var tickers: [Child<Ticker>] {
            if case .ticker(let child) = page { [child] } else { [] }
        }

        var rowTickers: [Child<Ticker>] { rows.keys.sorted().compactMap { rows[$0] } }
    }

    enum Event: Sendable {
        case open
        case close
        case addRow(Int)
        case removeRow(Int)
        case tickerSaid(Int)
        case rowSaid(Int, Int)
        /// Changes nothing: once its output is seen, every earlier event and
        /// its effects have been processed.
        case probe(Int)
    }

    typealias Env = Ticker.Env
    typealias Output = String

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        let before = state
        let output: String
        switch event {
        case .open:
            state.page = .ticker(Child(Ticker.self, initialState: Ticker.State()))
            output = "opened"
        case .close:
            state.page = .home
            output = "closed"
        case .addRow(let key):
            state.rows[key] = Child(Ticker.self, initialState: Ticker.State())
            output = "added \(key)"
        case .removeRow(let key):
            state.rows[key] = nil
            output = "removed \(key)"
        case .tickerSaid(let count):
            output = "ticker \(count)"
        case .rowSaid(let key, let count):
            output = "row \(key) \(count)"
        case .probe(let number):
            output = "probe \(number)"
        }
        let page = Effect.children(\.tickers, from: before, to: state) { child in
            .run(child, env: { $0 }, output: { .tickerSaid($0) })
        }
        let rows = Effect.children(\.rowTickers, from: before, to: state) { child in
            let key = state.rows.first { $0.value == child }?.key ?? -1
            return .run(child, env: { $0 }, output: { .rowSaid(key, $0) })
        }
        let effects = [page, rows].compactMap { $0 }
        return (effects.isEmpty ? nil : .combine(effects), output)
    }
}

@Suite("Child transducers", .timeLimit(.minutes(1)))
struct ChildTransducerTests {
    /// Sends a probe and waits for its output: the events before it, and
    /// their effects, have been processed.
    func settle(_ proxy: Screen.Proxy, _ outputs: Trace, _ number: Int) async throws {
        try proxy.send(.probe(number))
        await outputs.waitFor("probe \(number)")
    }

    @Test func aChildRunsWhileTheParentIsInItsCase() async throws {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 32)
        let states = Locked<[Screen.State]>([])
        let run = Task {
            try await TransducerInspection.$inspector.withValue(StateRecorder<Screen>(states: states)) {
                try await Screen.run(
                    initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
            }
        }
        try proxy.send(.open)
        await outputs.waitFor("opened")
        let child = try #require(states.withLock { $0.last?.tickers.first })
        // The parent's view sends intents to the child through its handle.
        try child.send(.start(1))
        await env.trace.waitFor("child waits 1")
        env.gates.gate(1).open()
        await outputs.waitFor("ticker 1")

        try proxy.send(.close)
        try await settle(proxy, outputs, 1)
        // Dismissed: the child's run is ending, its input closed.
        #expect(throws: TransducerError.terminated) { try child.send(.tick) }
        proxy.cancel()
        _ = try? await run.value
    }

    @Test("5 an inspector learns each run's start: its type, initial state and the run that started it")
    func anInspectorLearnsWhichRunStartedAChild() async throws {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 32)
        let starts = StartRecorder()
        let run = Task {
            // Started from a saved state: the parent is marked restored,
            // not the children its operations start.
            try await TransducerInspection.$inspector.withValue(starts) {
                try await TransducerInspection.$restoredFrom.withValue("saved") {
                    try await Screen.run(
                        initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
                }
            }
        }
        try proxy.send(.open)
        try proxy.send(.addRow(7))
        try await settle(proxy, outputs, 1)
        await starts.waitFor(count: 3)
        let recorded = starts.starts.withLock { $0 }
        // The parent first, started by no run; then its two children,
        // each naming the parent's run.
        #expect(recorded.map(\.type) == ["Screen", "Ticker", "Ticker"])
        #expect(recorded[0].parent == nil)
        #expect(recorded[1].parent == recorded[0].run)
        #expect(recorded[2].parent == recorded[0].run)
        #expect(recorded[1].initialState == "State(count: 0)")
        #expect(recorded.map(\.restoredFrom) == ["saved", nil, nil])
        #expect(Set(recorded.map(\.run)).count == 3)
        proxy.cancel()
        _ = try? await run.value
    }

    @Test func aDismissedChildsLateOperationNeverReachesTheParent() async throws {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 32)
        let states = Locked<[Screen.State]>([])
        let run = Task {
            try await TransducerInspection.$inspector.withValue(StateRecorder<Screen>(states: states)) {
                try await Screen.run(
                    initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
            }
        }
        try proxy.send(.open)
        await outputs.waitFor("opened")
        let child = try #require(states.withLock { $0.last?.tickers.first })
        try child.send(.start(7))
        await env.trace.waitFor("child waits 7")

        // The parent leaves the case: the child is cancelled. Its operation
        // ignores cancellation and, once let go, tries to report.
        try proxy.send(.close)
        await outputs.waitFor("closed")
        // "closed" is output before `.close`'s effect dismisses the child
        // (rule 2.4); the probe after it is taken only once that effect has
        // run. Released earlier, the operation may tick into the child's
        // buffer before the dismissal, which then drops it.
        try await settle(proxy, outputs, 0)
        env.gates.gate(7).open()
        await env.trace.waitUntil("the child's operation was refused") { entries in
            entries.contains { $0.hasPrefix("child refused 7") }
        }
        try await settle(proxy, outputs, 1)
        // The child's output for `.start` arrived; its late tick did not.
        #expect(outputs.entries.contains("ticker 0"))
        #expect(!outputs.entries.contains("ticker 1"))
        proxy.cancel()
        _ = try? await run.value
        // The run awaited the child's operation: it had ended before.
        #expect(
            env.trace.contains("child refused 7: terminated")
                || env.trace.contains("child refused 7: operationCancelled"))
    }

    @Test func keyedChildrenStartAndStopWithTheirRows() async throws {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 32)
        let states = Locked<[Screen.State]>([])
        let run = Task {
            try await TransducerInspection.$inspector.withValue(StateRecorder<Screen>(states: states)) {
                try await Screen.run(
                    initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
            }
        }
        for key in 1...3 { try proxy.send(.addRow(key)) }
        await outputs.waitFor("added 3")
        let rows = try #require(states.withLock { $0.last?.rows })
        #expect(rows.count == 3)
        for key in 1...3 {
            try rows[key]?.send(.tick)
        }
        await outputs.waitUntil("each row ticked") { entries in
            (1...3).allSatisfy { entries.contains("row \($0) 1") }
        }
        try proxy.send(.removeRow(2))
        try await settle(proxy, outputs, 1)
        let removed = try #require(rows[2])
        #expect(throws: TransducerError.terminated) { try removed.send(.tick) }
        try rows[1]?.send(.tick)
        await outputs.waitFor("row 1 2")
        proxy.cancel()
        _ = try? await run.value
        // The end of the parent ends every child.
        for key in [1, 3] {
            #expect(throws: TransducerError.terminated) { try rows[key]?.send(.tick) }
        }
    }
}

/// Records every state of the runs it inspects.
struct StateRecorder<T: BaseTransducer>: TransducerInspector {
    let states: Locked<[T.State]>

    func record<R: BaseTransducer>(_ record: InspectionRecord<R>, of run: RunID) {
        if case .state(let state as T.State) = record {
            states.withLock { $0.append(state) }
        }
    }
}

/// Records every run's start, as an inspector is told it.
final class StartRecorder: TransducerInspector {
    struct Start: Sendable {
        var run: RunID
        var type: String
        var initialState: String
        var parent: RunID?
        var restoredFrom: String?
    }

    let starts = Locked<[Start]>([])
    private let trace = Trace()

    func started<T: BaseTransducer>(_ run: RunID, of type: T.Type, initialState: T.State, start: RunStart) {
        let count = starts.withLock {
            $0.append(
                Start(
                    run: run, type: "\(type)", initialState: "\(initialState)", parent: start.parent,
                    restoredFrom: start.restoredFrom))
            return $0.count
        }
        trace.append("started \(count)")
    }

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {}

    /// Waits until `count` runs have started.
    func waitFor(count: Int) async {
        await trace.waitFor("started \(count)")
    }
}

/// A child that echoes every number it is sent.
enum Echo: Transducer {
    struct State: NonTerminal, Sendable {}
    enum Event: Sendable { case number(Int) }

    static func update(_ state: inout State, event: Event) -> Int {
        switch event {
        case .number(let number): number
        }
    }
}

/// A parent with a small buffer that collects its child's echoes; terminal
/// once it has `expected` of them.
enum Collector: EffectTransducer {
    struct State: Terminable, Sendable {
        var child: Child<Echo>?
        var received: [Int] = []
        let expected: Int
        var isTerminal: Bool { received.count == expected }
    }

    enum Event: Sendable {
        case start(Child<Echo>)
        case echo(Int)
    }

    typealias Output = [Int]

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .start(let child):
            state.child = child
            return (.run(child, output: { .echo($0) }), state.received)
        case .echo(let number):
            state.received.append(number)
            return (nil, state.received)
        }
    }
}

@Suite("Child transducers: back pressure", .timeLimit(.minutes(1)))
struct ChildBackPressureTests {
    static let count = 200

    /// Runs a parent whose buffer holds two events with a child whose whole
    /// input is already buffered, on the caller's isolation: the child runs
    /// through its input in one go, far faster than the parent takes its
    /// outputs. Returns what the parent received.
    static func runParentOfAFastChild(isolation: isolated (any Actor)? = #isolation) async throws -> [Int] {
        let child = Child(Echo.self, initialState: Echo.State(), proxy: Echo.Proxy(bufferSize: count))
        for number in 1...count { try child.send(.number(number)) }
        let proxy = Collector.Proxy(bufferSize: 2)
        try proxy.send(.start(child))
        return try await Collector.run(
            initialState: Collector.State(expected: count), proxy: proxy, env: (), output: NoCallback())
    }

    @Test func aChildFasterThanItsParentWaitsInsteadOfFailing() async throws {
        #expect(try await Self.runParentOfAFastChild() == Array(1...Self.count))
    }

    @Test @MainActor func onAnActorToo() async throws {
        #expect(try await Self.runParentOfAFastChild() == Array(1...Self.count))
    }
}

@Suite("Child transducers: the child's state kept once", .timeLimit(.minutes(1)))
struct ChildStateTests {
    /// Runs a `Screen` with an open ticker; returns the ticker's
    /// environment, the proxy, the outputs, the recorded states, the
    /// ticker's handle and the run. A test that starts an operation of the
    /// ticker opens its gate before it ends: the operation ignores
    /// cancellation, and the run waits for it.
    func openTicker() async throws -> (
        env: Ticker.Env, proxy: Screen.Proxy, outputs: Trace, states: Locked<[Screen.State]>, child: Child<Ticker>,
        run: Task<Void, any Error>
    ) {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 64)
        let states = Locked<[Screen.State]>([])
        let run = Task {
            try await TransducerInspection.$inspector.withValue(StateRecorder<Screen>(states: states)) {
                _ = try await Screen.run(
                    initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
            }
        }
        try proxy.send(.open)
        await outputs.waitFor("opened")
        let child = try #require(states.withLock { $0.last?.tickers.first })
        return (env, proxy, outputs, states, child, run)
    }

    @Test func theHandleReadsTheChildsStateAsItsRunWritesIt() async throws {
        let (_, proxy, outputs, states, child, run) = try await openTicker()
        #expect(child.state == Ticker.State(count: 0))
        for tick in 1...3 {
            try child.send(.tick)
            await outputs.waitFor("ticker \(tick)")
            #expect(child.state.count == tick)
        }
        // One copy: every state of the parent that holds the handle reads
        // the child's state now, whatever it was when it was recorded.
        let handles = states.withLock { $0.compactMap(\.tickers.first) }
        #expect(!handles.isEmpty)
        #expect(handles.allSatisfy { $0.state.count == 3 })
        #expect(child.initialState.count == 0)

        // Dismissed: the last state stays readable.
        try proxy.send(.close)
        await outputs.waitFor("closed")
        try proxy.send(.probe(1))
        await outputs.waitFor("probe 1")
        #expect(child.state.count == 3)
        proxy.cancel()
        _ = try? await run.value
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anObserverOfTheStateIsToldOfAChangeAndOnlyOfAChange() async throws {
        let (env, proxy, outputs, _, child, run) = try await openTicker()
        let told = Locked(0)
        withObservationTracking {
            _ = child.state
        } onChange: {
            told.withLock { $0 += 1 }
        }
        // `.start` leaves the state as it was (it is `Equatable`): no one
        // is told. Its output is seen once the update has been written.
        try child.send(.start(1))
        await outputs.waitFor("ticker 0")
        #expect(told.withLock { $0 } == 0)

        // Let go, the operation ticks: the state changes.
        env.gates.gate(1).open()
        await outputs.waitFor("ticker 1")
        #expect(told.withLock { $0 } == 1)
        proxy.cancel()
        _ = try? await run.value
    }

    @Test func intentsMadeFromTheHandleAreRefusedOnceTheChildsStateMovedOn() async throws {
        let (_, proxy, outputs, _, child, run) = try await openTicker()
        let intents = Intents(for: child, scope: { (state: Ticker.State) in state.count })
        #expect(intents.stamp == 0)
        #expect(intents(.tick)() == .sent)
        await outputs.waitFor("ticker 1")
        // Made at count 0, the state is at 1 now: stale.
        #expect(intents(.tick)() == .stale)
        let fresh = Intents(for: child, scope: { (state: Ticker.State) in state.count })
        #expect(fresh.stamp == 1)
        #expect(fresh(.tick)() == .sent)
        await outputs.waitFor("ticker 2")
        proxy.cancel()
        _ = try? await run.value
    }

    @Test func readersOnOtherTasksSeeTheCountOnlyGrow() async throws {
        let (_, proxy, outputs, _, child, run) = try await openTicker()
        let count = 200
        let readers = (0..<4).map { _ in
            Task {
                var last = 0
                while last < count {
                    let now = child.state.count
                    if now < last { return false }
                    last = now
                    await Task.yield()
                }
                return true
            }
        }
        for tick in 1...count {
            try child.send(.tick)
            await outputs.waitFor("ticker \(tick)")
        }
        for reader in readers { #expect(await reader.value) }
        proxy.cancel()
        _ = try? await run.value
    }
}

/// One step of a generated program over keyed tickers.
enum ChildStateStep: Sendable, CustomStringConvertible {
    case add(Int)
    case tick(Int)
    case remove(Int)
    /// A view reads the row's state inside a tracking.
    case observe(Int)

    var description: String {
        switch self {
        case .add(let key): "add \(key)"
        case .tick(let key): "tick \(key)"
        case .remove(let key): "remove \(key)"
        case .observe(let key): "observe \(key)"
        }
    }
}

/// A tracking installed by a generated `observe` step: the count it read,
/// and how often it was told of a change.
final class ObservedRow: Sendable {
    let key: Int
    let read: Int
    let told = Locked(0)

    init(key: Int, read: Int) {
        self.key = key
        self.read = read
    }
}

@Suite("Child transducers: random rows, ticks, reads and removals", .timeLimit(.minutes(3)))
struct ChildStatePropertyTests {
    static func program(seed: UInt64) -> [ChildStateStep] {
        var random = SplitMix64(seed: seed)
        return (0..<(5 + Int(random.next() % 40))).map { _ in
            let key = Int(random.next() % 4)
            switch random.next() % 6 {
            case 0: return .add(key)
            case 1: return .remove(key)
            case 2, 3: return .tick(key)
            default: return .observe(key)
            }
        }
    }

    /// Each handle reads the count of the ticks its child processed, while
    /// it runs and after it was removed (its last state); a view that read
    /// a row is told of a change exactly when the row changed after the
    /// read; readers on other tasks never see a count fall. Half the
    /// programs run with every core busy beside them.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func everyHandleReadsItsChildsOneStateAndObserversAreToldOfEachChange() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max)), Gen.bool) { seed, loaded in
            await withBusyLoad(loaded) { await Self.check(Self.program(seed: UInt64(seed))) }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    static func check(_ program: [ChildStateStep]) async {
        let env = Ticker.Env(gates: Gates(), trace: Trace())
        let outputs = Trace()
        let proxy = Screen.Proxy(bufferSize: 64)
        let states = Locked<[Screen.State]>([])
        let run = Task {
            try await TransducerInspection.$inspector.withValue(StateRecorder<Screen>(states: states)) {
                _ = try await Screen.run(
                    initialState: Screen.State(), proxy: proxy, env: env, output: Callback { outputs.append($0) })
            }
        }
        var live: [Int: Child<Ticker>] = [:]
        var counts: [Int: Int] = [:]
        var removed: [(child: Child<Ticker>, count: Int)] = []
        var observed: [(row: ObservedRow, child: Child<Ticker>, changedAfter: Bool)] = []
        var readers: [Task<Bool, Never>] = []
        var probe = 0
        // A row removed and added again says "added 1", "row 1 1" … again:
        // each entry is awaited as its next occurrence.
        var occurrences: [String: Int] = [:]
        func next(_ entry: String) async {
            let count = (occurrences[entry] ?? 0) + 1
            occurrences[entry] = count
            await outputs.waitUntil("occurrence \(count) of \"\(entry)\"") { entries in
                entries.lazy.filter { $0 == entry }.count >= count
            }
        }
        for step in program {
            switch step {
            case .add(let key):
                guard live[key] == nil else { continue }
                try? proxy.send(.addRow(key))
                await next("added \(key)")
                probe += 1
                try? proxy.send(.probe(probe))
                await outputs.waitFor("probe \(probe)")
                guard let child = states.withLock({ $0.last?.rows[key] }) else {
                    Issue.record("row \(key) has no handle after it was added: \(program)")
                    return
                }
                live[key] = child
                counts[key] = 0
                // A reader on another task: the count only rises.
                readers.append(
                    Task {
                        var last = 0
                        for _ in 0..<50 {
                            let now = child.state.count
                            if now < last { return false }
                            last = now
                            await Task.yield()
                        }
                        return true
                    })
            case .tick(let key):
                guard let child = live[key], let count = counts[key] else { continue }
                try? child.send(.tick)
                await next("row \(key) \(count + 1)")
                counts[key] = count + 1
                for index in observed.indices where observed[index].child == child {
                    observed[index].changedAfter = true
                }
            case .remove(let key):
                guard let child = live.removeValue(forKey: key), let count = counts.removeValue(forKey: key) else {
                    continue
                }
                try? proxy.send(.removeRow(key))
                await next("removed \(key)")
                removed.append((child, count))
            case .observe(let key):
                guard let child = live[key] else { continue }
                let read = withObservationTracking {
                    child.state.count
                } onChange: {
                }
                let row = ObservedRow(key: key, read: read)
                withObservationTracking {
                    _ = child.state
                } onChange: {
                    row.told.withLock { $0 += 1 }
                }
                #expect(read == counts[key], "\(program): observe \(key)")
                observed.append((row, child, false))
            }
            for (key, child) in live {
                #expect(child.state.count == counts[key], "\(program): row \(key) after \(step)")
            }
        }
        for (child, count) in removed {
            #expect(child.state.count == count, "\(program): a removed row keeps its last state")
        }
        for (row, _, changedAfter) in observed {
            #expect(row.told.withLock { $0 } == (changedAfter ? 1 : 0), "\(program): observed \(row.key)")
        }
        for reader in readers {
            #expect(await reader.value, "\(program): a reader saw a count fall")
        }
        proxy.cancel()
        _ = try? await run.value
    }
}
