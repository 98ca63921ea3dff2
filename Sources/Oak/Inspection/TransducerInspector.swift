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

/// Where the inspector for new runs is installed: a task-local value, so
/// that it applies to the runs started in a scope (and by hosts created in
/// it), and to nothing else.
public enum TransducerInspection {
    /// The inspector that runs started in the current task use.
    @TaskLocal public static var inspector: (any TransducerInspector)?
}
