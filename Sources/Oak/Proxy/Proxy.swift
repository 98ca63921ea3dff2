// The buffered proxy: `send` enqueues the event and returns at once.

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

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
public final class Proxy<Event>: TransducerProxy, _ChannelProxy {
    /// The default capacity of the event buffer: 8 events, as in Oak. Pass a
    /// larger `bufferSize` for producers that send in bursts.
    public static var defaultBufferSize: Int { 8 }

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
        _channel = _EventChannel(bufferSize: bufferSize, waitsUntilProcessed: false)
        if let initialEvent {
            // A fresh channel with a valid size has room for one event; with an
            // invalid size the error is reported by `run` and `send`.
            _ = try? _channel.send(initialEvent, ack: nil)
        }
    }

    /// Creates a proxy with a buffer of ``defaultBufferSize`` events.
    public convenience init() {
        self.init(bufferSize: Proxy.defaultBufferSize, initialEvent: nil)
    }

    /// Identifies this proxy; created on first use.
    public var id: UUID { _channel.id }

    /// The send-only handle of this proxy.
    public var input: Input { Input(channel: _channel) }

    /// Enqueues `event` for processing by the run.
    ///
    /// - Throws: ``TransducerError/bufferFull`` when the buffer is full,
    ///   ``TransducerError/terminated`` when the run has ended (or the input
    ///   was finished), ``TransducerError/invalidBufferSize(_:)`` when the
    ///   proxy was created with a non-positive buffer size. The event is not
    ///   enqueued then.
    /// - Complexity: O(1), one uncontended lock.
    @inlinable
    public func send(_ event: sending Event) throws(TransducerError) {
        try _channel.send(event, ack: nil)
    }

    /// Ends the run by throwing `error`, or ``TransducerError/cancelled``
    /// when `error` is `nil`. Every running operation is cancelled before
    /// `run` returns. Cancelling again, or after the run has ended, does
    /// nothing.
    public func cancel(with error: (any Error)? = nil) {
        _channel.stop(error.map { .failed($0) } ?? .cancelled)
    }

    /// Closes the input: later sends throw ``TransducerError/terminated``.
    /// The run goes on with the events already buffered and ends when they
    /// have been processed (or earlier, on a terminal state). A run that
    /// ends this way in a state that is not terminal has no final output:
    /// it throws ``TransducerError/noOutputProduced``, except for an
    /// ``EffectTransducer`` whose `update` returns only an effect, whose run
    /// returns normally.
    public func finish() {
        _channel.finishInput()
    }

    /// The send-only handle of a ``Proxy``: it can send events but not cancel
    /// the run. Operations receive one; give it to any component that produces
    /// events.
    ///
    /// The input an operation receives is that operation's own: once the
    /// operation is cancelled or replaced by one with the same id, its sends
    /// throw ``TransducerError/operationCancelled`` (a late answer never
    /// reaches `update`).
    public struct Input: BufferedTransducerInput {
        @usableFromInline
        let channel: _EventChannel<Event>
        /// `0`, or the sequence number of the operation this input was made for.
        @usableFromInline
        let origin: UInt64

        @usableFromInline
        init(channel: _EventChannel<Event>, origin: UInt64 = 0) {
            self.channel = channel
            self.origin = origin
        }

        /// Enqueues `event` for processing by the run; see ``Proxy/send(_:)``.
        ///
        /// - Throws: as ``Proxy/send(_:)``, and
        ///   ``TransducerError/operationCancelled`` when this is the input of
        ///   an operation that was cancelled or replaced.
        @inlinable
        public func send(_ event: sending Event) throws(TransducerError) {
            try channel.send(event, from: origin, ack: nil)
        }
    }

    /// The input of the operation with sequence number `operation`.
    @inlinable
    public static func _input(_ channel: _EventChannel<Event>, operation: UInt64) -> Input {
        Input(channel: channel, origin: operation)
    }

    /// The channel `input` sends to, and as whom; see `_ChannelProxy`.
    @inlinable
    public static func _channel(of input: Input) -> (_EventChannel<Event>, origin: UInt64) {
        (input.channel, input.origin)
    }
}
