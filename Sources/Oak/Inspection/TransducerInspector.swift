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
final class _RunInspection: Sendable {
    @usableFromInline let inspector: any TransducerInspector
    @usableFromInline let runID: RunID

    @usableFromInline
    init(inspector: any TransducerInspector, runID: RunID) {
        self.inspector = inspector
        self.runID = runID
    }

    /// The inspection of a run starting now, if an inspector is installed.
    @usableFromInline
    static func current() -> _RunInspection? {
        TransducerInspection.inspector.map { _RunInspection(inspector: $0, runID: .next()) }
    }

    /// Hands `record` to the inspector.
    @inlinable
    func record<T: BaseTransducer>(_ record: InspectionRecord<T>) {
        inspector.record(record, of: runID)
    }
}

/// Where the inspector for new runs is installed: a task-local value, so
/// that it applies to the runs started in a scope (and by hosts created in
/// it), and to nothing else.
public enum TransducerInspection {
    /// The inspector that runs started in the current task use.
    @TaskLocal public static var inspector: (any TransducerInspector)?
}
