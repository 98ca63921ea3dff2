// Rule 3.3 at every place a run can be when the task that awaits it is
// cancelled: before it starts, at each suspension point of its loop, and
// inside a chain of synchronous actions. Each case cancels the task alone, or together
// with `proxy.cancel()` in either order, on a run without isolation and on
// an actor, and checks the error `run` throws and that no event is processed
// after the first cancellation returned.
//
// The run is held at its place by a gate that ignores cancellation, so the
// cancellations happen while it is there, deterministically; then the gate
// opens and the run goes on to its end.

import Oak
import Testing

/// Where the run is when it is cancelled.
enum CancellationPoint: CaseIterable, Sendable, CustomTestStringConvertible {
    /// Its task waits before it calls `run`: nothing of the run has run.
    case beforeTheRunStarts
    /// It awaits the delivery of its initial output.
    case deliveringTheInitialOutput
    /// It has processed every event and waits for more.
    case waitingForEvents
    /// It awaits the delivery of the output of "a".
    case deliveringAnOutput
    /// It awaits the async action that "a" returned.
    case inAnAsyncAction
    /// A synchronous action of "a" cancels (the run is busy, not suspended).
    /// A chain of synchronous actions is one step (rule 2.3: nothing
    /// interleaves with it): the event the action returns is processed, and
    /// the stop ends the run after it.
    case insideAChainOfActions

    var testDescription: String {
        switch self {
        case .beforeTheRunStarts: "before the run starts"
        case .deliveringTheInitialOutput: "delivering the initial output"
        case .waitingForEvents: "waiting for events"
        case .deliveringAnOutput: "delivering an output"
        case .inAnAsyncAction: "in an async action"
        case .insideAChainOfActions: "inside a chain of actions"
        }
    }
}

/// Which endings are requested, in order.
enum CancellationOrder: CaseIterable, Sendable, CustomTestStringConvertible {
    case taskOnly
    case taskThenProxy
    case proxyThenTask

    var testDescription: String {
        switch self {
        case .taskOnly: "task"
        case .taskThenProxy: "task, then proxy"
        case .proxyThenTask: "proxy, then task"
        }
    }
}

/// The run under test: the initial output, then "a", whose output and
/// effect hold the run where the test says; every update is traced.
enum Interrupted: EffectTransducer {
    struct State: NonTerminal, Sendable {
        let trace: Trace
        let point: CancellationPoint
        let hold: Gate
        /// Cancels in the test's order; called from inside the action for
        /// ``CancellationPoint/insideAChainOfActions``.
        let cancel: @Sendable () -> Void
    }

    typealias Event = String
    typealias Output = String
    typealias Env = Void
    typealias Proxy = Oak.Proxy<String>
    typealias TransducerOutput = (Oak.Effect<Interrupted>?, String)

    static func initialOutput(initialState: State) -> String? { "initial" }

    static func update(_ state: inout State, event: String) -> (Self.Effect?, String) {
        state.trace.append("update:\(event)")
        guard event == "a" else { return (nil, event) }
        switch state.point {
        case .inAnAsyncAction:
            let (trace, hold) = (state.trace, state.hold)
            return (
                Effect(action: { _ in
                    trace.append("holding")
                    await hold.wait()
                    return "after-action"
                }), event
            )
        case .insideAChainOfActions:
            let cancel = state.cancel
            return (
                Effect { _, _ in
                    cancel()
                    return "after-action"
                }, event
            )
        default:
            return (.event("after-output"), event)
        }
    }

    /// The output subject: holds the run in the deliveries the point names.
    static func output(point: CancellationPoint, trace: Trace, hold: Gate) -> Callback<String> {
        Callback { value in
            let holds =
                switch point {
                case .deliveringTheInitialOutput: value == "initial"
                case .deliveringAnOutput: value == "a"
                default: false
                }
            if holds {
                trace.append("holding")
                await hold.wait()
            }
            trace.append("out:\(value)")
        }
    }
}

/// Runs ``Interrupted`` on its own actor instance.
actor InterruptedHost {
    func run(state: Interrupted.State, proxy: Interrupted.Proxy, output: Callback<String>) async throws -> String {
        try await Interrupted.run(initialState: state, proxy: proxy, output: output)
    }
}

/// Records in the trace when a run of ``Interrupted`` waits for events.
struct WaitingRecorder: TransducerInspector {
    let trace: Trace

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        if case .waitingForEvents = record { trace.append("waiting") }
    }
}

@Suite("3.3 task cancellation, wherever the run is")
struct TaskCancellationTests {
    @Test(
        "cancelling the task ends the run with CancellationError unless proxy.cancel() came first",
        arguments: CancellationPoint.allCases, CancellationOrder.allCases)
    func cancellation(at point: CancellationPoint, order: CancellationOrder) async throws {
        try await check(point: point, order: order, onAnActor: false)
    }

    @Test(
        "the same with the run on an actor",
        arguments: CancellationPoint.allCases, CancellationOrder.allCases)
    func cancellationOnAnActor(at point: CancellationPoint, order: CancellationOrder) async throws {
        try await check(point: point, order: order, onAnActor: true)
    }

    func check(point: CancellationPoint, order: CancellationOrder, onAnActor: Bool) async throws {
        let trace = Trace()
        let hold = Gate()
        let start = Gate()
        let proxy = Interrupted.Proxy()
        let runTask = Locked<Task<String, any Error>?>(nil)

        /// Requests the endings in `order`; marks the trace once the first
        /// has returned.
        @Sendable func cancel() {
            let task = runTask.withLock { $0 }
            switch order {
            case .taskOnly:
                task?.cancel()
                trace.append("cancelled")
            case .taskThenProxy:
                task?.cancel()
                trace.append("cancelled")
                proxy.cancel()
            case .proxyThenTask:
                proxy.cancel()
                trace.append("cancelled")
                task?.cancel()
            }
        }

        let state = Interrupted.State(trace: trace, point: point, hold: hold, cancel: cancel)
        let output = Interrupted.output(point: point, trace: trace, hold: hold)
        let host = InterruptedHost()
        let inspector = WaitingRecorder(trace: trace)
        if point != .waitingForEvents { try proxy.send("a") }
        let task = Task {
            // Waits until the test knows the task (the chain's action
            // cancels it); for the first point, until it is cancelled.
            await start.wait()
            return try await TransducerInspection.$inspector.withValue(inspector) {
                if onAnActor {
                    return try await host.run(state: state, proxy: proxy, output: output)
                }
                return try await Interrupted.run(initialState: state, proxy: proxy, output: output)
            }
        }
        runTask.withLock { $0 = task }

        switch point {
        case .beforeTheRunStarts:
            cancel()
            start.open()
        default:
            start.open()
        }
        switch point {
        case .beforeTheRunStarts:
            break
        case .waitingForEvents:
            await trace.waitFor("waiting")
            cancel()
        case .insideAChainOfActions:
            break  // The action cancels.
        case .deliveringTheInitialOutput, .deliveringAnOutput, .inAnAsyncAction:
            await trace.waitFor("holding")
            cancel()
            hold.open()
        }
        // Sent after the cancellation: refused or never processed.
        try? proxy.send("late")

        let expectsProxyError = order == .proxyThenTask && point != .beforeTheRunStarts
        if expectsProxyError {
            await #expect(throws: TransducerError.cancelled) { try await value(of: task) }
        } else {
            await #expect(throws: CancellationError.self) { try await value(of: task) }
        }
        let entries = trace.entries
        let cancelled = try #require(entries.firstIndex(of: "cancelled"))
        let late = entries[cancelled...].filter { $0.hasPrefix("update:") }
        let chain = point == .insideAChainOfActions ? ["update:after-action"] : []
        #expect(late == chain, "processed after the cancellation: \(late) in \(entries)")
    }

    /// A run that starts in a task already cancelled cannot tell whether a
    /// `proxy.cancel()` came before or after that cancellation: nothing of
    /// the run ran on the task to see it happen. It ends with
    /// `CancellationError` either way, like any Swift API called in a
    /// cancelled task, and processes nothing.
    @Test("a run started in a cancelled task throws CancellationError and processes nothing")
    func startInCancelledTask() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        try proxy.send("a")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Scripted.run(
                initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        await #expect(throws: CancellationError.self) { try await value(of: task) }
        #expect(trace.entries(withPrefix: "update:").isEmpty)
        #expect(throws: TransducerError.terminated) { try proxy.send("b") }
    }

    /// The second run refused with `proxyAlreadyInUse` must not stop the
    /// first when its own task is cancelled.
    @Test("a run refused because the proxy is in use does not stop the run that uses it")
    func refusedRunDoesNotStopTheOther() async throws {
        let trace = Trace()
        let proxy = Scripted.Proxy()
        let first = Task {
            try await Scripted.run(initialState: Scripted.State(trace: trace), proxy: proxy, output: trace.output)
        }
        try proxy.send("a")
        await trace.waitFor("out:a")
        let second = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Scripted.run(
                initialState: Scripted.State(trace: Trace()), proxy: proxy, output: NoCallback())
        }
        await #expect(throws: TransducerError.proxyAlreadyInUse) { try await value(of: second) }
        try proxy.send("b")
        await trace.waitFor("out:b")
        try proxy.send("end")
        #expect(try await value(of: first) == "end")
    }
}
