// The suspending proxy: `send` returns once the event has been processed.

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

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
/// await proxy.send(.chunk(data)) // returns once `.chunk` was processed
/// ```
///
/// ## Two ways to send
///
/// - ``send(_:)`` is Oak's form: it never throws. When the proxy's buffer of
///   waiting senders is full it waits for room; when the run has ended (or
///   ends while it waits) the event is not processed and `send` returns, with
///   a log message at `notice` level. Use it where an event may be lost
///   when the run is over, such as a view sending intents.
/// - ``checkedSend(_:)`` reports what happened: it throws
///   ``TransducerError/terminated`` when the run has ended or ends before the
///   event was processed, and ``TransducerError/bufferFull`` when more than
///   `bufferSize` senders wait. Use it in producers that must know that each
///   event was processed (pipelines, imports, tests).
public final class SyncSuspendingProxy<Event>: TransducerProxy, _ChannelProxy {
    /// The channel shared with the run loop (implementation detail).
    public let _channel: _EventChannel<Event>

    /// Creates a proxy with room for `bufferSize` waiting senders.
    ///
    /// - Parameter bufferSize: How many events may wait; at least 1. A
    ///   non-positive size makes `run` and `send` throw
    ///   ``TransducerError/invalidBufferSize(_:)``.
    public init(bufferSize: Int) {
        _channel = _EventChannel(bufferSize: bufferSize, waitsUntilProcessed: true)
    }

    /// Creates a proxy with room for ``Proxy/defaultBufferSize`` waiting
    /// senders.
    public convenience init() {
        self.init(bufferSize: Proxy<Event>.defaultBufferSize)
    }

    /// Identifies this proxy; created on first use.
    public var id: UUID { _channel.id }

    /// The send-only handle of this proxy.
    public var input: Input { Input(channel: _channel) }

    /// Sends `event` and suspends until the transducer has processed it.
    ///
    /// Never throws: when too many senders wait, it waits for room; when the
    /// run has ended, or ends before the event was processed, the event is
    /// dropped (logged at `notice` level) and `send` returns. Use
    /// ``checkedSend(_:)`` to learn about either.
    public func send(_ event: sending Event) async {
        await _channel.sendAndWaitReportingNothing(event)
    }

    /// Sends the events `events` make, one after another, each once the
    /// previous one has been processed; see ``send(_:)``.
    ///
    /// ```swift
    /// await proxy.send(events: { .start }, { .next }, { .stop })
    /// ```
    ///
    /// The closures are called on the caller's isolation (`isolation`).
    public func send(events: (() -> Event)..., isolation: isolated (any Actor)? = #isolation) async {
        for event in events {
            await _channel.sendAndWaitReportingNothing(event())
        }
    }

    /// Sends `event` and suspends until the transducer has processed it,
    /// reporting every way the event can fail to be processed.
    ///
    /// - Throws: ``TransducerError/bufferFull`` when `bufferSize` senders
    ///   already wait, ``TransducerError/terminated`` when the run has ended
    ///   or ends before the event was processed,
    ///   ``TransducerError/invalidBufferSize(_:)``.
    public func checkedSend(_ event: sending Event) async throws(TransducerError) {
        try await _channel.sendAndWait(event)
    }

    /// Ends the run by throwing `error`, or ``TransducerError/cancelled``
    /// when `error` is `nil`; see ``Proxy/cancel(with:)``.
    public func cancel(with error: (any Error)? = nil) {
        _channel.stop(error.map { .failed($0) } ?? .cancelled)
    }

    /// Closes the input; the run ends once the events already waiting have
    /// been processed. See ``Proxy/finish()``.
    public func finish() {
        _channel.finishInput()
    }

    /// The send-only handle of a ``SyncSuspendingProxy``.
    ///
    /// The input an operation receives is that operation's own: once the
    /// operation is cancelled or replaced by one with the same id, its events
    /// are refused (`send` drops them, `checkedSend` throws
    /// ``TransducerError/operationCancelled``).
    public struct Input: SyncSuspendingTransducerInput {
        @usableFromInline
        let channel: _EventChannel<Event>
        /// `0`, or the sequence number of the operation this input was made for.
        @usableFromInline
        let origin: UInt64

        init(channel: _EventChannel<Event>, origin: UInt64 = 0) {
            self.channel = channel
            self.origin = origin
        }

        /// Sends `event` and suspends until the transducer has processed it;
        /// see ``SyncSuspendingProxy/send(_:)``.
        public func send(_ event: sending Event) async {
            await channel.sendAndWaitReportingNothing(event, from: origin)
        }

        /// Sends `event` and suspends until the transducer has processed it,
        /// reporting failures; see ``SyncSuspendingProxy/checkedSend(_:)``.
        public func checkedSend(_ event: sending Event) async throws(TransducerError) {
            try await channel.sendAndWait(event, from: origin)
        }
    }

    /// The input of the operation with sequence number `operation`.
    public static func _input(_ channel: _EventChannel<Event>, operation: UInt64) -> Input {
        Input(channel: channel, origin: operation)
    }

    /// The channel `input` sends to, and as whom; see `_ChannelProxy`.
    @inlinable
    public static func _channel(of input: Input) -> (_EventChannel<Event>, origin: UInt64) {
        (input.channel, input.origin)
    }
}
