// A proxy's input as a subject: the outputs of one run become the events of
// another (`output: otherProxy.input`).

/// The input of a buffered ``Proxy`` is a ``Subject``: pass it as the
/// `output` of another run to pipe that transducer's outputs into this one.
///
/// ```swift
/// // Every output of `Parser` becomes an event of `Evaluator`.
/// let evaluator = Evaluator.Proxy()
/// Task { try await Evaluator.run(initialState: .init(), proxy: evaluator) }
/// try await Parser.run(initialState: .init(), proxy: parser, output: evaluator.input)
/// ```
///
/// Delivery enqueues the output and returns; when the downstream buffer is
/// full the upstream run fails with ``TransducerError/bufferFull``. For back
/// pressure, give the downstream transducer a ``SyncSuspendingProxy``.
extension Proxy.Input: Subject {
    /// The outputs this input takes are the downstream transducer's events.
    public typealias Value = Event

    /// Enqueues `value` as an event of the downstream run. Called by the
    /// upstream run; `isolated` has no default so that `send(_:)` inside
    /// operations keeps meaning the synchronous send.
    ///
    /// - Throws: ``TransducerError/bufferFull`` or
    ///   ``TransducerError/terminated``; the upstream run fails with it.
    @inlinable
    public func send(_ value: sending Event, isolated: isolated any Actor) async throws {
        try channel.send(value, from: origin, ack: nil)
    }

    /// Enqueues `value` at once; see ``send(_:isolated:)``.
    @inlinable
    public func _sendSynchronously(_ value: Event) throws -> Bool {
        // Safety: the upstream run gives up each output it delivers.
        nonisolated(unsafe) let value = value
        try channel.send(value, from: origin, ack: nil)
        return true
    }
}

/// The input of a ``SyncSuspendingProxy`` is a ``Subject`` with back
/// pressure: the upstream run waits until the downstream transducer has
/// processed each output before it goes on.
///
/// ```swift
/// enum Sink: Transducer {
///     typealias Proxy = SyncSuspendingProxy<Event>
///     // …
/// }
/// let sink = Sink.Proxy()
/// Task { try await Sink.run(initialState: .init(), proxy: sink) }
/// try await Source.run(initialState: .init(), proxy: source, output: sink.input)
/// ```
extension SyncSuspendingProxy.Input: Subject {
    /// The outputs this input takes are the downstream transducer's events.
    public typealias Value = Event

    /// Sends `value` as an event of the downstream run and waits until that
    /// run has processed it.
    ///
    /// - Throws: ``TransducerError/bufferFull`` or
    ///   ``TransducerError/terminated``; the upstream run fails with it.
    public func send(_ value: sending Event, isolated: isolated any Actor) async throws {
        try await channel.sendAndWait(value, from: origin)
    }

    /// Sends `value` and waits until it has been processed; no actor is
    /// needed.
    public func _send(_ value: sending Event, isolation: isolated (any Actor)?) async throws {
        try await channel.sendAndWait(value, from: origin)
    }
}
