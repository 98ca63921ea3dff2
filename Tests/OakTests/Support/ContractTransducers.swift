// Fake transducers for the contract tests.
//
// `Scripted` is an effect transducer whose events and outputs are strings and
// whose effects are supplied by each test through its state, so one type
// serves every scenario. Every update appends `update:<event>` to the test's
// trace; the output of an update is the event itself. Events listed in
// `terminalEvents` ("end" by default) make the state terminal.
//
// Per-test behaviour lives in the state (not in statics) because Swift Testing
// runs tests in parallel.

import Foundation
import Oak
import Testing

/// Checks run at the start and end of every update (isolation probes,
/// overlap detection).
struct UpdateHooks: Sendable {
    var before: @Sendable (String) -> Void = { _ in }
    var after: @Sendable (String) -> Void = { _ in }
}

/// The state of the scripted transducers.
struct ScriptState<T: EffectTransducer & SendableMetatype>: Terminable, Sendable, CustomStringConvertible {
    let trace: Trace
    var terminalEvents: Set<String>
    var hooks: UpdateHooks
    let effects: @Sendable (String) -> Effect<T>?
    private(set) var isTerminal = false
    private(set) var updates = 0

    init(
        trace: Trace,
        terminalEvents: Set<String> = ["end"],
        hooks: UpdateHooks = UpdateHooks(),
        effects: @escaping @Sendable (String) -> Effect<T>? = { _ in nil }
    ) {
        self.trace = trace
        self.terminalEvents = terminalEvents
        self.hooks = hooks
        self.effects = effects
    }

    /// A state that is terminal from the start.
    static func terminal(trace: Trace) -> ScriptState {
        var state = ScriptState(trace: trace)
        state.isTerminal = true
        return state
    }

    var description: String { "updates=\(updates)\(isTerminal ? " terminal" : "")" }

    mutating func apply(_ event: String) -> Effect<T>? {
        hooks.before(event)
        updates += 1
        trace.append("update:\(event)")
        if terminalEvents.contains(event) { isTerminal = true }
        let effect = effects(event)
        hooks.after(event)
        return effect
    }
}

/// A scriptable effect transducer with the default, buffered proxy.
enum Scripted: EffectTransducer {
    typealias State = ScriptState<Scripted>
    typealias Event = String
    typealias Output = String
    typealias Env = Void
    typealias TransducerOutput = (Oak.Effect<Scripted>?, String)
    // Spelled out: Swift 6.3.1 does not infer the default `Proxy` from other
    // files for a transducer whose `State` is generic over the transducer.
    typealias Proxy = Oak.Proxy<String>

    static func update(_ state: inout State, event: String) -> (Self.Effect?, String) {
        (state.apply(event), event)
    }
}

/// The same as ``Scripted``, but opted into the suspending proxy.
enum SyncScripted: EffectTransducer {
    typealias State = ScriptState<SyncScripted>
    typealias Event = String
    typealias Output = String
    typealias Env = Void
    typealias TransducerOutput = (Oak.Effect<SyncScripted>?, String)
    typealias Proxy = SyncSuspendingProxy<String>

    static func update(_ state: inout State, event: String) -> (Self.Effect?, String) {
        (state.apply(event), event)
    }
}

/// A scriptable transducer without output (`update` returns only the effect).
enum SilentScripted: EffectTransducer {
    typealias State = ScriptState<SilentScripted>
    typealias Event = String
    typealias Env = Void
    typealias TransducerOutput = Oak.Effect<SilentScripted>?
    typealias Proxy = Oak.Proxy<String>

    static func update(_ state: inout State, event: String) -> Self.Effect? {
        state.apply(event)
    }
}

/// A pure transducer with `Void` output that ends on "end".
enum Switch: Transducer {
    struct State: Terminable {
        var isOn = false
        var isTerminal: Bool
    }
    typealias Event = String
    // Spelled out: inferring `Output` from a `Void` update fails when the type
    // is used from other files in some build orders (Swift 6.3.1).
    typealias Output = Void

    static func update(_ state: inout State, event: String) {
        switch event {
        case "toggle": state.isOn.toggle()
        case "end": state.isTerminal = true
        default: break
        }
    }
}

/// A pure transducer with an `Int` output that ends on "end".
enum Tally: Transducer {
    struct State: Terminable {
        var count = 0
        var isTerminal = false
    }
    typealias Event = String
    typealias Output = Int

    static func update(_ state: inout State, event: String) -> Int {
        state.count += 1
        if event == "end" { state.isTerminal = true }
        return state.count
    }
}

/// Host-owned state for the `run(storage:…)` overloads.
final class StateBox<Value>: Storage {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Output subjects that append to a trace.
extension Trace {
    /// A synchronous callback that appends `out:<value>`.
    var output: Callback<String> {
        Callback { [self] value in self.append("out:\(value)") }
    }
}

// MARK: - Inspection

/// An inspector that writes every record to a trace as a short line, for
/// example `event a`, `state updates=1`, `output a`,
/// `started operation #2 (id: load)`, `ended` or `ended: cancelled`.
struct TraceInspector: TransducerInspector {
    let trace: Trace
    let runs = Recorder<UInt64>()

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        if !runs.values.contains(run.rawValue) { runs.append(run.rawValue) }
        trace.append(Self.line(record))
    }

    static func line<T: BaseTransducer>(_ record: InspectionRecord<T>) -> String {
        switch record {
        case .event(let event): "event \(event)"
        case .state(let state): "state \(state)"
        case .output(let output): "output \(output)"
        case .effectStarted(let info): "started \(info)"
        case .effectFinished(let info): "finished \(info)"
        case .effectCancelled(let info): "cancelled \(info)"
        case .effectFailed(let info, let error): "failed \(info): \(error)"
        case .eventRefused(let info): "refused event of \(info)"
        case .waitingForEvents: "waiting"
        case .intentRefused(let event): "refused intent \(event)"
        case .ended(let error): error.map { "ended: \(TransducerErrorName.of($0))" } ?? "ended"
        }
    }
}

/// Short names of run-ending errors, for readable traces.
enum TransducerErrorName {
    static func of(_ error: any Error) -> String {
        switch error {
        case let error as TransducerError: short(error)
        case is CancellationError: "CancellationError"
        default: "\(error)"
        }
    }

    private static func short(_ error: TransducerError) -> String {
        switch error {
        case .proxyAlreadyInUse: "proxyAlreadyInUse"
        case .noOutputProduced: "noOutputProduced"
        case .cancelled: "cancelled"
        case .bufferFull: "bufferFull"
        case .terminated: "terminated"
        case .invalidBufferSize(let size): "invalidBufferSize(\(size))"
        case .operationCancelled: "operationCancelled"
        }
    }
}

// MARK: - Isolation

/// A serial executor on a dispatch queue that knows whether the current
/// thread is running one of its jobs: a non-trapping way to check that code
/// runs on the isolation of an actor that uses it.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    private let runningThread = Locked<ObjectIdentifier?>(nil)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            let thread = ObjectIdentifier(Thread.current)
            self.runningThread.withLock { $0 = thread }
            job.runSynchronously(on: self.asUnownedSerialExecutor())
            self.runningThread.withLock { $0 = nil }
        }
    }

    /// Whether the calling code runs on this executor right now.
    var isCurrent: Bool {
        let thread = ObjectIdentifier(Thread.current)
        return runningThread.withLock { $0 == thread }
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the QueueExecutor")
    }
}

/// An actor on a ``QueueExecutor`` that runs transducers, standing in for a
/// host's actor.
actor QueueActor {
    let executor: QueueExecutor

    init(label: String = "oak.contract.actor") {
        executor = QueueExecutor(label: label)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `Scripted` on this actor against storage owned by the actor,
    /// returning the states the storage saw written.
    func runWithStorage(_ state: Scripted.State, proxy: Scripted.Proxy) async throws -> (String, [String]) {
        let storage = CheckedStorage(state, executor: executor)
        let last = try await Scripted.run(storage: storage, proxy: proxy, env: (), output: NoCallback())
        return (last, storage.log)
    }

    /// Runs `Scripted` on this actor, calling `onOutput` for every output.
    /// (The `Callback` is made here: it is not `Sendable`, so it must be
    /// created on the isolation of the `run` it is given to.)
    func run(
        _ state: Scripted.State, proxy: Scripted.Proxy, onOutput: @escaping @Sendable (String) -> Void
    ) async throws -> String {
        try await Scripted.run(initialState: state, proxy: proxy, output: Callback { onOutput($0) })
    }
}

/// Storage that records, for every read and write, whether it happened on
/// the executor of the actor that owns it.
final class CheckedStorage: Storage {
    private var state: Scripted.State
    private let executor: QueueExecutor
    private(set) var log: [String] = []

    init(_ state: Scripted.State, executor: QueueExecutor) {
        self.state = state
        self.executor = executor
    }

    var value: Scripted.State {
        get {
            log.append(executor.isCurrent ? "read" : "READ-OFF-ACTOR")
            return state
        }
        set {
            log.append(executor.isCurrent ? "write \(newValue.updates)" : "WRITE-OFF-ACTOR")
            state = newValue
        }
    }
}
