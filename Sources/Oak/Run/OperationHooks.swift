// What an operation's task needs from its run once started: sending its
// failure, leaving the registry when it ends, and recording for an
// inspecting test; and the library's logger.

import Logging

/// The library's logger. Made on each use (only slow paths log) so that it
/// follows a `LoggingSystem.bootstrap` that happens after the first run.
@usableFromInline
var logger: Logger { Logger(label: "oak") }

/// What the task of one operation needs from its run: the channel (to send
/// failures and deregister), and inspection.
///
/// Generic over the event type only, not over the transducer: an operation's
/// task may run on another isolation than its run, and a transducer declared
/// in a module whose default isolation is the main actor has a conformance
/// isolated to the main actor, which such a task must not use. Inspection
/// records name the transducer through ``RunInspection``.
@usableFromInline
struct OperationHooks<Event>: Sendable {
    @usableFromInline let channel: _EventChannel<Event>
    @usableFromInline let info: EffectInfo
    @usableFromInline let inspection: RunInspection?

    @usableFromInline
    init(channel: _EventChannel<Event>, info: EffectInfo, inspection: RunInspection?) {
        self.channel = channel
        self.info = info
        self.inspection = inspection
    }

    /// Runs an operation body to its end and reports how it ended.
    ///
    /// `CancellationError`, or any error thrown once the operation was
    /// cancelled or its run is ending (input closed: terminal state, stop
    /// request), ends it quietly; any other error fails the run (contract
    /// 3.4). An operation cancelled by id or replaced has a cancelled task, so
    /// whatever it throws afterwards (``TransducerError/operationCancelled``
    /// from a send among others) is quiet too (contract 2.7).
    ///
    /// `actor` is the isolation the body receives: the run's own
    /// (`isolation`), or the actor made for a run without isolation.
    @inlinable
    @inline(__always)
    func run<Env, Input: Sendable>(
        _ body: @Sendable (Env, Input, isolated any Actor) async throws -> Void,
        env: AssumedSendable<Env>,
        input: Input,
        actor: any Actor,
        isolation: isolated (any Actor)?
    ) async {
        // Safety: see `AssumedSendable`; `env` stays on `actor`, the run's
        // isolation, unless `Env` is `Sendable`.
        nonisolated(unsafe) let env = env.value
        do {
            if let inspection {
                try await inspection.asCurrentRun { try await body(env, input, actor) }
            } else {
                try await body(env, input, actor)
            }
            finished()
        } catch {
            ended(error)
        }
    }

    /// Runs an operation body that has an isolation of its own.
    @inlinable
    @inline(__always)
    func run<Env, Input: Sendable>(
        _ body: @Sendable @isolated(any) (Env, Input) async throws -> Void,
        env: AssumedSendable<Env>,
        input: Input
    ) async {
        // Safety: see `AssumedSendable`; `Env` is Sendable for every operation.
        nonisolated(unsafe) let env = env.value
        do {
            if let inspection {
                try await inspection.asCurrentRun { try await body(env, input) }
            } else {
                try await body(env, input)
            }
            finished()
        } catch {
            ended(error)
        }
    }

    /// Reports that an operation returned and deregisters it.
    @inlinable
    func finished() {
        inspection?.recordOperation(.finished, info)
        channel.complete(info.sequenceNumber, id: info.id)
    }

    /// Reports how an operation that threw ended and deregisters it.
    @usableFromInline
    func ended(_ error: any Error) {
        switch error {
        case is CancellationError:
            inspection?.recordOperation(.cancelled, info)
        default:
            if Task.isCancelled || !channel.acceptsEvents {
                logger.debug(
                    "Operation ended with an error after cancellation; not a failure.",
                    metadata: ["effect": "\(info)", "error": "\(error)"])
                inspection?.recordOperation(.cancelled, info)
            } else {
                inspection?.recordOperation(.failed(error), info)
                channel.stop(.failed(error))
            }
        }
        channel.complete(info.sequenceNumber, id: info.id)
    }
}
