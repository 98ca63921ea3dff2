// Watching runs from a test or a tool: the inspector protocol and the per-run
// recorder the run loop calls only when one is installed.

/// Observes runs: every event taken, state after each update, output, effect
/// start / finish / cancellation / failure, and the end of the run.
///
/// Install an inspector for the runs started in a scope:
///
/// ```swift
/// struct Printer: TransducerInspector {
///     func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
///         logger.debug("\(run) \(T.self): \(record)")
///     }
/// }
/// try await TransducerInspection.$inspector.withValue(Printer()) {
///     try await Counter.run(initialState: .init(), proxy: proxy)
/// }
/// ```
///
/// Records of the event path (event, state, output, actions, end) are
/// delivered synchronously on the isolation of `run`; records of operations
/// (finished, cancelled, failed) come from the operation's task. The
/// inspector must therefore be `Sendable` and fast. With no inspector
/// installed the hot path only tests one optional.
public protocol TransducerInspector: Sendable {
    /// Receives one record of run `run` of transducer `T`.
    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID)

    /// A run of `T` starts, from `initialState`, before its first record.
    ///
    /// Called on the isolation of the run, once, before it takes its first
    /// event; `start` says which run started it and whether its state was
    /// restored. The default does nothing.
    func started<T: BaseTransducer>(_ run: RunID, of type: T.Type, initialState: T.State, start: RunStart)
}

extension TransducerInspector {
    /// Does nothing: an inspector that only reads records needs no more.
    public func started<T: BaseTransducer>(_ run: RunID, of type: T.Type, initialState: T.State, start: RunStart) {}
}

/// How a run began, as an inspector is told it
/// (``TransducerInspector/started(_:of:initialState:start:)``).
public struct RunStart: Hashable, Sendable {
    /// The run whose operation started this one — a ``Child`` run by
    /// ``Effect/run(_:env:output:)``, or any run an operation starts —
    /// `nil` for a run started elsewhere.
    public var parent: RunID?
    /// Where the initial state was restored from (a snapshot's file, a
    /// checkpoint), `nil` for a state made anew. Set with
    /// ``TransducerInspection/restoredFrom`` around the run; Oak's
    /// ``StateSnapshots`` runs set it themselves.
    public var restoredFrom: String?

    /// A start.
    public init(parent: RunID? = nil, restoredFrom: String? = nil) {
        self.parent = parent
        self.restoredFrom = restoredFrom
    }
}

/// Identifies one call of `run` for inspection.
public struct RunID: Hashable, Sendable, CustomStringConvertible {
    /// A number unique within the process.
    public let rawValue: UInt64

    @usableFromInline
    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `run#<number>`.
    public var description: String { "run#\(rawValue)" }

    static let counter = LockedState<UInt64>(0)

    @usableFromInline
    static func next() -> RunID {
        RunID(
            rawValue: counter.withLock { value in
                value &+= 1
                return value
            })
    }
}

/// The inspector of one run with the run's id, shared by reference so that
/// the run's effects and operations carry one pointer, `nil` when no
/// inspector is installed.
@usableFromInline
final class RunInspection: Sendable {
    @usableFromInline let inspector: any TransducerInspector
    @usableFromInline let runID: RunID
    /// The run whose operation started this one, if an inspected run's
    /// did, and where its state was restored from.
    @usableFromInline let start: RunStart
    /// The transducer of the run, for the records that operations make from
    /// their own tasks (which do not name the transducer type).
    ///
    /// Safety (`nonisolated(unsafe)`): a metatype is immutable; it is only
    /// used to name the transducer in the records handed to the inspector,
    /// which is `Sendable` and receives records from any isolation.
    nonisolated(unsafe) let transducer: any BaseTransducer.Type

    @usableFromInline
    init(
        inspector: any TransducerInspector, runID: RunID, start: RunStart, transducer: any BaseTransducer.Type
    ) {
        self.inspector = inspector
        self.runID = runID
        self.start = start
        self.transducer = transducer
    }

    /// The inspection of a run of `T` starting now, if an inspector is
    /// installed.
    @usableFromInline
    static func current<T: BaseTransducer>(for type: T.Type) -> RunInspection? {
        TransducerInspection.inspector.map {
            RunInspection(
                inspector: $0, runID: .next(),
                start: RunStart(
                    parent: TransducerInspection.currentRun, restoredFrom: TransducerInspection.restoredFrom),
                transducer: type)
        }
    }

    /// Tells the inspector that the run starts from `initialState`. Out of
    /// line: called once per inspected run.
    @usableFromInline @inline(never)
    func recordStart<T: BaseTransducer>(_ type: T.Type, initialState: T.State) {
        inspector.started(runID, of: type, initialState: initialState, start: start)
    }

    /// Runs an operation's `body` as part of this run: the runs it starts
    /// name this one as their parent, and their state is not this run's
    /// restored one.
    @usableFromInline @inline(never)
    func asCurrentRun(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async throws {
        let run = runID
        try await TransducerInspection.$restoredFrom.withValue(
            nil,
            operation: {
                try await TransducerInspection.$currentRun.withValue(run, operation: body, isolation: isolation)
            }, isolation: isolation)
    }

    /// Hands `record` to the inspector.
    @inlinable
    func record<T: BaseTransducer>(_ record: InspectionRecord<T>) {
        inspector.record(record, of: runID)
    }

    /// How an operation ended, as its task reports it.
    @usableFromInline
    enum OperationEnd {
        case finished
        case cancelled
        case failed(any Error)
    }

    /// Hands the record of an operation's end to the inspector, naming the
    /// run's transducer.
    @usableFromInline
    func recordOperation(_ end: OperationEnd, _ info: EffectInfo) {
        func record<T: BaseTransducer>(_ type: T.Type) {
            switch end {
            case .finished: inspector.record(InspectionRecord<T>.effectFinished(info), of: runID)
            case .cancelled: inspector.record(InspectionRecord<T>.effectCancelled(info), of: runID)
            case .failed(let error): inspector.record(InspectionRecord<T>.effectFailed(info, error), of: runID)
            }
        }
        record(transducer)
    }

    /// Hands the record of a stale intent to the inspector, naming the
    /// run's transducer.
    @usableFromInline
    func recordRefusedIntent<Event>(_ event: Event) {
        func record<T: BaseTransducer>(_ type: T.Type) {
            guard let event = event as? T.Event else { return }
            inspector.record(InspectionRecord<T>.intentRefused(event), of: runID)
        }
        record(transducer)
    }

    /// Hands the record of an event refused from a cancelled operation to
    /// the inspector, naming the run's transducer.
    @usableFromInline
    func recordRefusedEvent(_ info: EffectInfo) {
        func record<T: BaseTransducer>(_ type: T.Type) {
            inspector.record(InspectionRecord<T>.eventRefused(info), of: runID)
        }
        record(transducer)
    }
}

/// Where the inspector for new runs is installed: a task-local value, so
/// that it applies to the runs started in a scope (and by hosts created in
/// it), and to nothing else.
public enum TransducerInspection {
    /// The inspector that runs started in the current task use.
    @TaskLocal public static var inspector: (any TransducerInspector)?

    /// The inspected run whose operation is running: the parent of the runs
    /// it starts.
    @TaskLocal static var currentRun: RunID?

    /// Where the state of the runs started in the current task was
    /// restored from, for their inspector (``RunStart/restoredFrom``): set
    /// it around a run you start from a saved state.
    ///
    /// ```swift
    /// try await TransducerInspection.$restoredFrom.withValue("checkpoint") {
    ///     try await Meeting.run(initialState: saved, proxy: proxy, env: env)
    /// }
    /// ```
    ///
    /// The runs that run's operations start are not marked.
    @TaskLocal public static var restoredFrom: String?
}
