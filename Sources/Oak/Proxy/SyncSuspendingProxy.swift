/// An event channel whose `send` suspends until the event has been processed:
/// its `update` has run and its output was delivered.
///
/// Use it for producers that must not outrun the transducer. A transducer opts
/// in by declaring its proxy type:
///
/// ```swift
/// enum Pipeline: Transducer {
///     typealias Proxy = SyncSuspendingProxy<Event>
///     // …
/// }
/// let proxy = Pipeline.Proxy()
/// try await proxy.send(.chunk(data)) // returns once `.chunk` was processed
/// ```
///
/// Senders still share a bounded buffer: with more concurrent senders than
/// `bufferSize`, `send` throws ``TransducerError/bufferFull``.
public final class SyncSuspendingProxy<Event>: TransducerProxy {
    /// The channel shared with the run loop (implementation detail).
    public let _channel: _EventChannel<Event>

    /// Creates a proxy with room for `bufferSize` waiting senders.
    ///
    /// - Parameter bufferSize: How many events may wait; at least 1. A
    ///   non-positive size makes `run` and `send` throw
    ///   ``TransducerError/invalidBufferSize(_:)``.
    public init(bufferSize: Int = Proxy<Event>.defaultBufferSize) {
        _channel = _EventChannel(bufferSize: bufferSize)
    }

    /// The send-only handle of this proxy.
    public var input: Input { Input(channel: _channel) }

    /// Sends `event` and suspends until the transducer has processed it.
    ///
    /// - Throws: ``TransducerError/bufferFull``,
    ///   ``TransducerError/terminated`` (also when the run ends before the
    ///   event was processed), ``TransducerError/invalidBufferSize(_:)``.
    public func send(_ event: sending Event) async throws(TransducerError) {
        try await _channel.sendAndWait(event)
    }

    /// Ends the run with ``TransducerError/cancelled``.
    public func cancel() {
        _channel.stop(.cancelled)
    }

    /// Ends the run by throwing `error`.
    public func cancel(with error: some Error) {
        _channel.stop(.failed(error))
    }

    /// The send-only handle of a ``SyncSuspendingProxy``.
    public struct Input: Sendable {
        let channel: _EventChannel<Event>

        /// Sends `event` and suspends until the transducer has processed it;
        /// see ``SyncSuspendingProxy/send(_:)``.
        public func send(_ event: sending Event) async throws(TransducerError) {
            try await channel.sendAndWait(event)
        }
    }
}
