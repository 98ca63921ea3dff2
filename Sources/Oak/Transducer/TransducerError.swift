// The errors the runtime throws, each saying what to do.

/// The errors that the Oak runtime throws for misuse and for the ways a run
/// can end other than by reaching a terminal state.
///
/// Every case's ``description`` says what happened and what to do about it.
public enum TransducerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The proxy is already used by another run (or was used by one that has
    /// ended). A proxy belongs to exactly one run.
    case proxyAlreadyInUse
    /// `run` ended without a final output: the initial state was already
    /// terminal and the transducer has no initial output, or the input was
    /// finished before the state became terminal.
    case noOutputProduced
    /// The run was cancelled through its proxy (`proxy.cancel()`).
    case cancelled
    /// The event buffer of the proxy is full; the event was not enqueued and
    /// nothing already enqueued was dropped.
    case bufferFull
    /// The run this input belongs to has ended (terminal state, cancellation
    /// or failure), or its input was finished; the event was not enqueued.
    case terminated
    /// The proxy was created with a buffer size that is not positive.
    case invalidBufferSize(Int)
    /// The operation that sent the event was cancelled (by `.cancelTask`, or
    /// replaced by a newer operation with the same id): its events are no
    /// longer processed. Contract rule 2.7.
    case operationCancelled

    /// A message that says what happened and what to do.
    public var description: String {
        switch self {
        case .proxyAlreadyInUse:
            "The proxy is already used by another run. A proxy belongs to exactly one run: create a new proxy for each call of run."
        case .noOutputProduced:
            "The run ended without a final output: the initial state was already terminal and the transducer defines no initialOutput, or proxy.finish() ended the input before the state became terminal. Start from a non-terminal state, define initialOutput(initialState:), or check isTerminal before calling run."
        case .cancelled:
            "The run was cancelled through its proxy. Create a new proxy to start the transducer again."
        case .bufferFull:
            "The event was dropped: the proxy's event buffer is full (the event was not enqueued; nothing already enqueued was lost). Send events no faster than the transducer processes them: create the proxy with a larger bufferSize, retry later, or use SyncSuspendingProxy whose send waits until the event is processed."
        case .terminated:
            "The transducer has ended (terminal state, cancellation or failure) and takes no more events. Start a new run with a new proxy to continue."
        case .invalidBufferSize(let size):
            "The proxy was created with bufferSize \(size); the buffer size must be at least 1. Create the proxy with a positive bufferSize."
        case .operationCancelled:
            "The event was refused: the operation that sent it was cancelled (by cancelTask, or replaced by a newer operation with the same id), so its results are stale. Return from the operation when it is cancelled: check Task.isCancelled, or let this error end it."
        }
    }
}
