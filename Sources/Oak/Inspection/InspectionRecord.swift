// What an inspector sees of a run, as values (`InspectionRecord`, `EffectInfo`).

/// What an inspector sees of a run, in order.
public enum InspectionRecord<T: BaseTransducer> {
    /// The run took `event` (from the proxy or from an action).
    case event(T.Event)
    /// The state after an update.
    case state(T.State)
    /// The output of an update, before it is delivered.
    case output(T.Output)
    /// An effect started: an action ran, or an operation's task was created.
    case effectStarted(EffectInfo)
    /// An operation finished normally.
    case effectFinished(EffectInfo)
    /// An operation was cancelled (by id, by `cancelTask`, or by the end of the run).
    case effectCancelled(EffectInfo)
    /// An operation or action failed with an error; the run fails with it.
    case effectFailed(EffectInfo, any Error)
    /// An event sent by an operation after it was cancelled or replaced was
    /// refused (``TransducerError/operationCancelled``); it never reaches
    /// `update`. Comes from the operation's task.
    case eventRefused(EffectInfo)
    /// An intent of a state-scoped model was invoked after the state had
    /// left its scope: its event was not sent (``Intent``).
    case intentRefused(T.Event)
    /// The run has processed every event it had and waits for the next one.
    /// Test harnesses use it to know that a sent event and everything it
    /// caused synchronously have been processed.
    case waitingForEvents
    /// The run ended: `nil` when it reached a terminal state, else the error
    /// it throws.
    case ended((any Error)?)
}

/// Identifies one effect within a run.
public struct EffectInfo: Hashable, Sendable, CustomStringConvertible {
    /// Whether the effect is an action or an operation.
    public enum Kind: String, Hashable, Sendable {
        /// Runs synchronously in the computation cycle.
        case action
        /// Runs in a managed task.
        case operation
    }

    /// Numbers the effects of a run in the order they started, from 1.
    public let sequenceNumber: UInt64
    /// The effect's id, for operations that have one.
    public let id: EffectID?
    /// Action or operation.
    public let kind: Kind

    /// Creates an effect description.
    public init(sequenceNumber: UInt64, id: EffectID?, kind: Kind) {
        self.sequenceNumber = sequenceNumber
        self.id = id
        self.kind = kind
    }

    /// For example `operation #3 (id: load)`.
    public var description: String {
        "\(kind.rawValue) #\(sequenceNumber)" + (id.map { " (id: \($0))" } ?? "")
    }
}
