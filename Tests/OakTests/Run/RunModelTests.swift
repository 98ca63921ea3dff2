// Model-based property tests of the run: random sequences of sends, operation
// starts, replacements and cancellations, answers of cancelled operations,
// terminal updates, proxy cancellation, `finish()` and task cancellation, run
// against the real runtime and compared, step by step, with a small reference
// model written here. Failing sequences are shrunk to a minimal one and the
// seed is printed (x-sheep/swift-property-based).
//
// Determinism: the run, its outputs and its operations all live on one global
// actor with the driver, so the run loop only runs while the driver awaits.
// Sends between two settle points form a burst that the loop has not seen
// (which makes `bufferFull` predictable); at a settle point the driver awaits
// exactly the outputs and operation reports the model predicts. Every other
// command settles before and after. A quarter of the sequences run under
// load (BusyLoad), so that timing windows the settle points leave open are
// exercised too.

import PropertyBased
import Testing

@testable import Oak

/// The isolation of the driver, the run, its outputs and its operations.
@globalActor
actor ModelActor {
    static let shared = ModelActor()
}

// MARK: - The transducer under test

/// What an operation does once its gate opens.
enum OperationBehaviour: Int, Sendable, CustomStringConvertible {
    /// Sends its answer, cancelled or not.
    case ignoresCancellation
    /// Throws `CancellationError` when cancelled, else sends its answer.
    case respectsCancellation
    /// Throws `Boom`.
    case fails

    var description: String {
        switch self {
        case .ignoresCancellation: "ignoring"
        case .respectsCancellation: "respecting"
        case .fails: "failing"
        }
    }
}

enum Modelled: EffectTransducer {
    struct State: Terminable {
        var isTerminal = false
    }

    enum Event: Sendable, CustomStringConvertible {
        case value(Int)
        case start(operation: Int, id: Int?, behaviour: OperationBehaviour)
        case answer(operation: Int)
        case cancel(id: Int)
        case stop
        /// A shared run's notice (`SharedRun.notify`).
        case notice

        var description: String {
            switch self {
            case .notice: "notice"
            case .value(let value): "value \(value)"
            case .start(let operation, let id, let behaviour):
                "start \(operation) id \(id.map(String.init) ?? "-") \(behaviour)"
            case .answer(let operation): "answer \(operation)"
            case .cancel(let id): "cancel \(id)"
            case .stop: "stop"
            }
        }
    }

    struct Env: Sendable {
        let world: World
    }

    typealias Output = String

    static func initialOutput(initialState: State) -> String? { "started" }

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .value, .answer, .notice:
            return (nil, event.description)
        case .start(let number, let id, let behaviour):
            let operation = Effect(id: id) { @ModelActor env, input in
                let world = env.world
                await withTaskCancellationHandler {
                    await world.gate(number).wait()
                } onCancel: {
                    Task { @ModelActor in world.noteCancellation(of: number) }
                }
                switch behaviour {
                case .fails:
                    env.world.report(number, "threw")
                    throw Boom(tag: "\(number)")
                case .respectsCancellation where Task.isCancelled:
                    env.world.report(number, "cancelled")
                    throw CancellationError()
                case .respectsCancellation, .ignoresCancellation:
                    do throws(TransducerError) {
                        try input.send(.answer(operation: number))
                        env.world.report(number, "sent")
                    } catch {
                        env.world.report(number, TransducerErrorName.of(error))
                        throw error
                    }
                }
            }
            return (operation, "start \(number)")
        case .cancel(let id):
            return (.cancelTask(id), "cancel \(id)")
        case .stop:
            state.isTerminal = true
            return (nil, "stop")
        }
    }
}

/// What the run and its operations did, seen on the model actor; the driver
/// awaits it instead of sleeping.
@ModelActor
final class World {
    private(set) var outputs: [String] = []
    private(set) var reports: [Int: String] = [:]
    private var gates: [Int: Gate] = [:]
    private var waiter: (outputs: Int, reports: Int, continuation: CheckedContinuation<Void, Never>)?
    private var cancelled: Set<Int> = []
    private var cancellationWaiter: (operations: Set<Int>, continuation: CheckedContinuation<Void, Never>)?

    nonisolated init() {}

    func gate(_ operation: Int) -> Gate {
        if let gate = gates[operation] { return gate }
        let gate = Gate()
        gates[operation] = gate
        return gate
    }

    func output(_ output: String) {
        outputs.append(output)
        wakeIfReady()
    }

    func report(_ operation: Int, _ report: String) {
        reports[operation] = report
        wakeIfReady()
    }

    /// Records that operation `operation`'s task was cancelled while it
    /// waited at its gate.
    func noteCancellation(of operation: Int) {
        cancelled.insert(operation)
        wakeIfReady()
    }

    /// Returns once the tasks of `operations` have all been cancelled.
    func waitUntilCancelled(_ operations: Set<Int>) async {
        if operations.isSubset(of: cancelled) { return }
        await withCheckedContinuation { cancellationWaiter = (operations, $0) }
    }

    /// Returns once at least `outputs` outputs and `reports` reports came.
    func waitUntil(outputs: Int, reports: Int) async {
        if self.outputs.count >= outputs, self.reports.count >= reports { return }
        await withCheckedContinuation { waiter = (outputs, reports, $0) }
    }

    private func wakeIfReady() {
        if let waiter, outputs.count >= waiter.outputs, reports.count >= waiter.reports {
            self.waiter = nil
            waiter.continuation.resume()
        }
        if let cancellationWaiter, cancellationWaiter.operations.isSubset(of: cancelled) {
            self.cancellationWaiter = nil
            cancellationWaiter.continuation.resume()
        }
    }
}

/// Counts the refused events an inspector sees, and checks the start's
/// rule: one `started` a run, before any of its records, naming no parent
/// (the run is not started by an operation) and no restored state.
struct RefusalCounter: TransducerInspector {
    let count = Locked(0)
    /// Starts told; records received before the run's start; parents named.
    let starts = Locked((count: 0, recordsBefore: 0, parents: 0))

    func started<T: BaseTransducer>(_ run: RunID, of type: T.Type, initialState: T.State, start: RunStart) {
        starts.withLock {
            $0.count += 1
            if start.parent != nil || start.restoredFrom != nil { $0.parents += 1 }
        }
    }

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        if case .eventRefused = record { count.withLock { $0 += 1 } }
        starts.withLock { if $0.count == 0 { $0.recordsBefore += 1 } }
    }
}

// MARK: - Commands

/// One step of a generated sequence, decoded from a small integer so that
/// shrinking the integers shrinks towards simple steps (`send value 0`).
enum Command: CustomStringConvertible, Sendable {
    case sendValue(Int)
    case sendStart(id: Int?, behaviour: OperationBehaviour)
    case sendCancel(id: Int)
    case sendStop
    /// Opens the gate of the `n`-th (modulo) started operation whose gate is
    /// still closed.
    case openGate(Int)
    case settle
    case cancelRun
    case finishInput
    case cancelTask
    /// A shared run the run follows changes: its notice is queued (or
    /// coalesced with the one waiting), outside the buffer.
    case notify

    init(_ code: Int) {
        let parameter = code / 17
        switch code % 17 {
        case 0, 1, 2: self = .sendValue(parameter)
        case 3, 4, 5:
            self = .sendStart(
                id: parameter % 4 == 3 ? nil : parameter % 3,
                behaviour: OperationBehaviour(rawValue: parameter % 3) ?? .ignoresCancellation)
        case 6, 7: self = .sendCancel(id: parameter % 3)
        case 8, 9, 10: self = .openGate(parameter)
        case 11, 12: self = .settle
        case 13: self = .sendStop
        case 14: self = parameter % 2 == 0 ? .cancelRun : .finishInput
        case 15: self = .cancelTask
        default: self = .notify
        }
    }

    var description: String {
        switch self {
        case .sendValue(let value): "send value \(value)"
        case .sendStart(let id, let behaviour): "send start id \(id.map(String.init) ?? "-") \(behaviour)"
        case .sendCancel(let id): "send cancel \(id)"
        case .sendStop: "send stop"
        case .openGate(let n): "open gate #\(n)"
        case .settle: "settle"
        case .cancelRun: "proxy.cancel()"
        case .finishInput: "proxy.finish()"
        case .cancelTask: "cancel the run's task"
        case .notify: "notify"
        }
    }
}

// MARK: - The reference model

/// What the run should do, computed without the runtime.
struct RunModel {
    enum Status { case live, cancelled, done }

    struct Operation {
        var id: Int?
        var behaviour: OperationBehaviour
        var status: Status = .live
        var opened = false
    }

    let capacity: Int
    /// `nil` while the run goes on; then how it ended.
    var result: String?
    /// The input refuses events (terminal state processed, cancel, finish,
    /// task cancellation).
    var inputClosed = false
    var buffer: [Modelled.Event] = []
    var outputs = ["started"]
    var operations: [Int: Operation] = [:]
    var ids: [Int: Int] = [:]
    /// Reports of operations whose gate opened while the run went on.
    var reports: [Int: String] = [:]
    var nextOperation = 1
    /// A notice waits in the channel (at most one: they are coalesced).
    var noticeQueued = false
    /// Whether the loop's next refill takes the notice before the buffer:
    /// after each batch, so that neither starves.
    var noticeTurn = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The result of a send: "ok", "bufferFull" or "terminated".
    mutating func send(_ event: Modelled.Event) -> String {
        if inputClosed { return "terminated" }
        guard buffer.count < capacity else { return "bufferFull" }
        buffer.append(event)
        return "ok"
    }

    /// The result of a notice: "ok" (queued, or coalesced with the one
    /// waiting) or "refused" (the input takes no more events).
    mutating func notify() -> String {
        if inputClosed { return "refused" }
        noticeQueued = true
        return "ok"
    }

    /// The loop refills until it parks: a waiting notice on its turn (or
    /// when nothing is buffered), else the buffered events as one batch.
    mutating func settle() {
        while result == nil {
            if noticeQueued, noticeTurn || buffer.isEmpty {
                noticeQueued = false
                noticeTurn = false
                outputs.append("notice")
            } else if !buffer.isEmpty {
                processBatch()
                noticeTurn = true
            } else {
                return
            }
        }
    }

    /// The loop processes the buffered events (fewer than a batch's 64).
    private mutating func processBatch() {
        let events = buffer
        buffer = []
        for event in events {
            outputs.append(event.description.starts(with: "start") ? startOutput(event) : event.description)
            switch event {
            case .value, .answer, .notice:
                break
            case .start(let number, let id, let behaviour):
                if let id, let replaced = ids[id] { operations[replaced]?.status = .cancelled }
                operations[number] = Operation(id: id, behaviour: behaviour)
                if let id { ids[id] = number }
            case .cancel(let id):
                if let cancelled = ids.removeValue(forKey: id) { operations[cancelled]?.status = .cancelled }
            case .stop:
                end("output stop")
                return
            }
        }
    }

    private func startOutput(_ event: Modelled.Event) -> String {
        guard case .start(let number, _, _) = event else { return "" }
        return "start \(number)"
    }

    /// The started operations whose gates are still closed, oldest first.
    var closedGates: [Int] {
        operations.filter { !$0.value.opened }.keys.sorted()
    }

    /// Opens the gate of operation `number` while the run goes on.
    mutating func open(_ number: Int) {
        guard var operation = operations[number] else { return }
        operation.opened = true
        let report: String
        switch (operation.behaviour, operation.status) {
        case (.fails, .live):
            report = "threw"
            operations[number] = operation
            reports[number] = report
            complete(number)
            end("error Boom(\(number))")
            return
        case (.fails, _): report = "threw"
        case (.respectsCancellation, .cancelled): report = "cancelled"
        case (_, .cancelled): report = "operationCancelled"
        case (_, _):
            report = "sent"
            buffer.append(.answer(operation: number))
        }
        operations[number] = operation
        reports[number] = report
        complete(number)
        settle()
    }

    /// An operation returned: its id is free again.
    private mutating func complete(_ number: Int) {
        operations[number]?.status = .done
        if let id = operations[number]?.id, ids[id] == number { ids[id] = nil }
    }

    /// The run ends with `result`; buffered events are not processed.
    mutating func end(_ result: String) {
        guard self.result == nil else { return }
        self.result = result
        inputClosed = true
        buffer = []
        noticeQueued = false
    }

    /// The reports allowed for an operation whose gate opens at the end of
    /// the run (its task is cancelled then, or is about to be).
    func reportsAtTheEnd(_ number: Int) -> Set<String> {
        guard let operation = operations[number] else { return [] }
        switch operation.behaviour {
        case .fails: return ["threw"]
        case .ignoresCancellation: return ["terminated"]
        case .respectsCancellation:
            return operation.status == .cancelled ? ["cancelled"] : ["cancelled", "terminated"]
        }
    }
}

// MARK: - The property

@Suite("The run against a reference model", .timeLimit(.minutes(2)))
struct RunModelTests {
    @Test @ModelActor
    func randomSequencesBehaveAsTheModelSays() async {
        await propertyCheck(
            count: 2_000,
            input: Gen.int(in: 1...4), Gen.int(in: 0...511).map { Command($0) }.array(of: 1...24), Gen.bool(0.25)
        ) { capacity, commands, loaded in
            // A quarter of the sequences run with every core busy beside
            // them (BusyLoad): preempted at arbitrary points, as on a loaded
            // machine.
            await withBusyLoad(loaded) {
                await Self.check(capacity: capacity, commands: commands)
            }
        }
    }

    /// Runs `commands` against the runtime and the model and compares them.
    @ModelActor
    static func check(capacity: Int, commands: [Command]) async {
        let world = World()
        let refusals = RefusalCounter()
        let proxy = Modelled.Proxy(bufferSize: capacity)
        let notice = _ChannelNotice<Modelled.Event>(event: .notice)
        var model = RunModel(capacity: capacity)
        let run = Task { @ModelActor in
            try await TransducerInspection.$inspector.withValue(refusals) {
                try await Modelled.run(
                    initialState: Modelled.State(), proxy: proxy, env: Modelled.Env(world: world),
                    output: Callback { world.output($0) })
            }
        }

        /// Awaits what the model predicts the runtime has done by now.
        func settle() async -> Bool {
            model.settle()
            let (outputs, reports) = (model.outputs.count, model.reports.count)
            let done = await withinDeadline("\(outputs) outputs and \(reports) reports") { @ModelActor in
                await world.waitUntil(outputs: outputs, reports: reports)
                return true
            }
            return done == true
        }

        func send(_ event: Modelled.Event) {
            let expected = model.send(event)
            let actual: String
            do {
                try proxy.send(event)
                actual = "ok"
            } catch {
                actual = TransducerErrorName.of(error)
            }
            #expect(actual == expected, "send \(event)")
        }

        /// Awaits the end of a run the model has ended: it cancels the
        /// operations in flight and awaits them. Their gates open once they
        /// are cancelled (an operation let go before would still see a live
        /// run).
        func untilTheRunEnds() async -> Bool {
            let waiting = Set(model.closedGates)
            let cancelled = await withinDeadline("the cancellation of \(waiting.sorted())") { @ModelActor in
                await world.waitUntilCancelled(waiting)
                return true
            }
            guard cancelled == true else { return false }
            for number in waiting { world.gate(number).open() }
            _ = await run.result
            return true
        }

        guard await settle() else { return }
        for command in commands {
            switch command {
            case .sendValue(let value):
                send(.value(value))
            case .sendStart(let id, let behaviour):
                send(.start(operation: model.nextOperation, id: id, behaviour: behaviour))
                model.nextOperation += 1
            case .sendCancel(let id):
                send(.cancel(id: id))
            case .sendStop:
                send(.stop)
            case .notify:
                let expected = model.notify()
                let actual = proxy._channel.notify(notice) ? "ok" : "refused"
                #expect(actual == expected, "notify")
            case .settle:
                guard await settle() else { return }
            case .openGate(let n):
                guard await settle() else { return }
                let closed = model.closedGates
                guard model.result == nil, !closed.isEmpty else { continue }
                let number = closed[n % closed.count]
                model.open(number)
                world.gate(number).open()
                guard await settle() else { return }
                if model.result != nil {
                    // The operation failed. Its error reaches the run from
                    // the operation's task, off this actor; wait for the
                    // end before sending more.
                    guard await untilTheRunEnds() else { return }
                }
            case .cancelRun, .finishInput, .cancelTask:
                guard await settle() else { return }
                switch command {
                case .cancelRun:
                    proxy.cancel()
                    model.end("error cancelled")
                case .finishInput:
                    proxy.finish()
                    model.end("error noOutputProduced")
                    // Finishing is not an ending until the loop has seen
                    // the input end (nothing is buffered here): a cancel
                    // before then would still decide (rule 3.3), and this
                    // actor may not have let the loop run yet.
                    guard await untilTheRunEnds() else { return }
                default:
                    run.cancel()
                    model.end("error CancellationError")
                }
            }
        }
        guard await settle() else { return }
        if model.result == nil {
            send(.stop)
            guard await settle() else { return }
        }

        // The run ends; it waits for its operations, whose gates open now.
        for number in model.closedGates { world.gate(number).open() }
        let result: String
        do {
            result = "output " + (try await value(of: run))
        } catch {
            result = "error \(TransducerErrorName.of(error))"
        }
        #expect(result == model.result)
        #expect(world.outputs == model.outputs)
        for (number, operation) in model.operations.sorted(by: { $0.key < $1.key }) {
            let report = world.reports[number]
            if operation.opened {
                #expect(report == model.reports[number], "operation \(number)")
            } else {
                #expect(
                    report.map { model.reportsAtTheEnd(number).contains($0) } == true,
                    "operation \(number) at the end: \(report ?? "no report")")
            }
        }
        let refused = world.reports.values.filter { $0 == "operationCancelled" }.count
        #expect(refusals.count.withLock { $0 } == refused)
        let starts = refusals.starts.withLock { $0 }
        #expect(starts.count == 1 && starts.recordsBefore == 0 && starts.parents == 0, "run's start: \(starts)")
    }
}

// MARK: - Suspending senders, concurrently

/// A transducer whose senders wait until their events were processed.
enum SuspendingModelled: EffectTransducer {
    typealias Proxy = SyncSuspendingProxy<Event>

    struct State: Terminable {
        var isTerminal = false
    }

    enum Event: Sendable {
        case value(sender: Int, index: Int)
        case stop
    }

    typealias Output = String

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .value(let sender, let index):
            return (nil, "\(sender).\(index)")
        case .stop:
            state.isTerminal = true
            return (nil, "stop")
        }
    }
}

/// One sender of the concurrent property: how it sends its two events.
struct SuspendingSender: CustomStringConvertible, Sendable {
    /// `checkedSend` (reports) or `send` (drops silently).
    var checked: Bool
    /// Sends `.stop` instead of its second event.
    var stops: Bool

    init(_ code: Int) {
        checked = code % 2 == 0
        stops = code % 7 == 6
    }

    var description: String { "\(checked ? "checked" : "unchecked")\(stops ? " stopping" : "")" }
}

extension RunModelTests {
    /// Senders race on a `SyncSuspendingProxy` from many tasks, with the run
    /// on no actor and, sometimes, `proxy.cancel()` in the middle. What holds
    /// whatever the interleaving: an event whose checked send returned was
    /// processed exactly once; one whose checked send threw was not; no event
    /// is processed twice; each sender's events keep their order; every
    /// sender returns (none is left waiting) once the run has ended.
    @Test func concurrentSuspendingSendersKeepTheirGuarantees() async {
        await propertyCheck(
            count: 1_000,
            input: Gen.int(in: 1...4), Gen.int(in: 0...13).map { SuspendingSender($0) }.array(of: 1...12),
            Gen.int(in: 0...20), Gen.bool(0.25)
        ) { capacity, senders, cancelAfter, loaded in
            await withBusyLoad(loaded) {
                await Self.checkSuspending(capacity: capacity, senders: senders, cancelAfter: cancelAfter)
            }
        }
    }

    static func checkSuspending(capacity: Int, senders: [SuspendingSender], cancelAfter: Int) async {
        let outputs = Recorder<String>()
        let proxy = SuspendingModelled.Proxy(bufferSize: capacity)
        let cancelsTheRun = cancelAfter < senders.count
        let run = Task {
            try await SuspendingModelled.run(
                initialState: SuspendingModelled.State(), proxy: proxy,
                output: Callback { outputs.append($0) })
        }
        let results = await withTaskGroup(of: (Int, [String]).self) { group in
            for (number, sender) in senders.enumerated() {
                group.addTask {
                    var results: [String] = []
                    for index in 0..<2 {
                        let event: SuspendingModelled.Event =
                            sender.stops && index == 1 ? .stop : .value(sender: number, index: index)
                        if sender.checked {
                            do {
                                try await proxy.checkedSend(event)
                                results.append("ok")
                            } catch {
                                results.append(TransducerErrorName.of(error))
                            }
                        } else {
                            await proxy.send(event)
                            results.append("returned")
                        }
                    }
                    return (number, results)
                }
                if cancelsTheRun, number == cancelAfter { proxy.cancel() }
            }
            // Without a stopping sender the run goes on: end it once every
            // sender has returned.
            var results: [Int: [String]] = [:]
            for await (number, result) in group { results[number] = result }
            return results
        }
        proxy.cancel()
        _ = await run.result

        let processed = outputs.values
        #expect(Set(processed).count == processed.count, "no event is processed twice: \(processed)")
        if let stop = processed.firstIndex(of: "stop") {
            #expect(stop == processed.count - 1, "nothing after the terminal update: \(processed)")
        }
        for (number, sender) in senders.enumerated() {
            let mine = processed.filter { $0.hasPrefix("\(number).") }
            #expect(mine == mine.sorted(), "sender \(number) keeps its order: \(mine)")
            guard sender.checked, let result = results[number] else { continue }
            for index in 0..<2 where !(sender.stops && index == 1) {
                let wasProcessed = processed.contains("\(number).\(index)")
                #expect(
                    wasProcessed == (result[index] == "ok"),
                    "sender \(number) event \(index): \(result[index]), processed: \(wasProcessed)")
                #expect(["ok", "terminated", "bufferFull"].contains(result[index]))
            }
        }
    }
}
