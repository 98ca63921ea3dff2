/// The buffered event channel of a running transducer.
///
/// Create a proxy, start the transducer with it and send events:
///
/// ```swift
/// let proxy = SimpleCounter.Proxy()
/// let task = Task {
///     try await SimpleCounter.run(initialState: SimpleCounter.initialState, proxy: proxy)
/// }
/// try proxy.send(.increment)
/// ```
///
/// `send` never blocks: it enqueues the event in a bounded FIFO buffer and
/// returns. When the buffer is full it throws ``TransducerError/bufferFull``
/// and enqueues nothing; after the run has ended it throws
/// ``TransducerError/terminated``. A proxy belongs to one run: a second `run`
/// with the same proxy throws ``TransducerError/proxyAlreadyInUse``.
public final class Proxy<Event>: TransducerProxy {
    /// The default capacity of the event buffer: 256 events.
    public static var defaultBufferSize: Int { 256 }

    /// The channel shared with the run loop (implementation detail).
    public let _channel: _EventChannel<Event>

    /// Creates a proxy with a buffer for `bufferSize` events.
    ///
    /// - Parameters:
    ///   - bufferSize: How many events may wait in the buffer; at least 1.
    ///     A non-positive size makes `run` and `send` throw
    ///     ``TransducerError/invalidBufferSize(_:)``.
    ///   - initialEvent: An event to enqueue at once, processed first by `run`.
    public init(bufferSize: Int = Proxy.defaultBufferSize, initialEvent: sending Event? = nil) {
        _channel = _EventChannel(bufferSize: bufferSize)
        if let initialEvent {
            // A fresh channel with a valid size has room for one event; with an
            // invalid size the error is reported by `run` and `send`.
            _ = try? _channel.send(initialEvent, ack: nil)
        }
    }

    /// The send-only handle of this proxy.
    public var input: Input { Input(channel: _channel) }

    /// Enqueues `event` for processing by the run.
    ///
    /// - Throws: ``TransducerError/bufferFull`` when the buffer is full,
    ///   ``TransducerError/terminated`` when the run has ended,
    ///   ``TransducerError/invalidBufferSize(_:)`` when the proxy was created
    ///   with a non-positive buffer size. The event is not enqueued then.
    /// - Complexity: O(1), one uncontended lock.
    @inlinable
    public func send(_ event: sending Event) throws(TransducerError) {
        try _channel.send(event, ack: nil)
    }

    /// Ends the run with ``TransducerError/cancelled``.
    public func cancel() {
        _channel.stop(.cancelled)
    }

    /// Ends the run by throwing `error`.
    public func cancel(with error: some Error) {
        _channel.stop(.failed(error))
    }

    /// The send-only handle of a ``Proxy``: it can send events but not cancel
    /// the run. Operations receive one; give it to any component that produces
    /// events.
    public struct Input: Sendable {
        @usableFromInline
        let channel: _EventChannel<Event>

        init(channel: _EventChannel<Event>) {
            self.channel = channel
        }

        /// Enqueues `event` for processing by the run; see ``Proxy/send(_:)``.
        @inlinable
        public func send(_ event: sending Event) throws(TransducerError) {
            try channel.send(event, ack: nil)
        }
    }
}
