import Logging

/// The library's logger. Made on each use (only slow paths log) so that it
/// follows a `LoggingSystem.bootstrap` that happens after the first run.
@usableFromInline
var logger: Logger { Logger(label: "oak") }

/// What the task of one operation needs from its run: the channel (to send
/// failures and deregister), and inspection.
@usableFromInline
struct _OperationHooks<T: BaseTransducer>: Sendable {
    let channel: _EventChannel<T.Event>
    let info: EffectInfo
    let inspector: (any TransducerInspector)?
    let runID: RunID

    @usableFromInline
    init(channel: _EventChannel<T.Event>, info: EffectInfo, inspector: (any TransducerInspector)?, runID: RunID) {
        self.channel = channel
        self.info = info
        self.inspector = inspector
        self.runID = runID
    }

    /// Runs an operation body to its end and reports how it ended.
    ///
    /// `CancellationError`, or any error thrown once the operation was
    /// cancelled or its run is ending (input closed: terminal state, stop
    /// request), ends it quietly; any other error fails the run (contract 3.4).
    func run<Env, Input>(
        _ body: @Sendable (Env, Input, isolated (any Actor)?) async throws -> Void,
        env: Env,
        input: Input,
        isolation: isolated (any Actor)?
    ) async {
        do {
            try await body(env, input, isolation)
            ended(nil)
        } catch {
            ended(error)
        }
    }

    /// Runs an operation body that has an isolation of its own.
    func run<Env, Input: Sendable>(
        _ body: @Sendable @isolated(any) (Env, Input) async throws -> Void,
        env: _AssumedSendable<Env>,
        input: Input
    ) async {
        // Safety: see `_AssumedSendable`; `Env` is Sendable for every operation.
        nonisolated(unsafe) let env = env.value
        do {
            try await body(env, input)
            ended(nil)
        } catch {
            ended(error)
        }
    }

    /// Reports how an operation ended and deregisters it.
    private func ended(_ error: (any Error)?) {
        switch error {
        case nil:
            inspector?.record(InspectionRecord<T>.effectFinished(info), of: runID)
        case is CancellationError:
            inspector?.record(InspectionRecord<T>.effectCancelled(info), of: runID)
        case let error?:
            if Task.isCancelled || channel.isClosed {
                logger.debug(
                    "Operation ended with an error after cancellation; not a failure.",
                    metadata: ["effect": "\(info)", "error": "\(error)"])
                inspector?.record(InspectionRecord<T>.effectCancelled(info), of: runID)
            } else {
                inspector?.record(InspectionRecord<T>.effectFailed(info, error), of: runID)
                channel.stop(.failed(error))
            }
        }
        channel.complete(info.sequenceNumber, id: info.id)
    }
}
