// What every proxy offers (`TransducerProxy`), and what only Oak's two proxies
// give the run loop (`_ChannelProxy`: the channel, an operation's input).

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

/// The interface of the event channel of a run: what ``Proxy`` (buffered,
/// `send` returns at once) and ``SyncSuspendingProxy`` (`send` suspends
/// until the event has been processed) have in common.
///
/// A proxy is the event channel of exactly one run. It owns an `Input`, a
/// send-only handle that can be given to other components, and it can cancel
/// the run. Proxies are `Identifiable` and `Equatable` by their ``id``.
///
/// Conform your own type to write a stand-in proxy for a test or a preview
/// (a view that only needs a `proxy.input` to render). A transducer runs with
/// one of Oak's proxies: its `Proxy` type must also provide the channel the
/// run loop reads (`_ChannelProxy`), which only ``Proxy`` and
/// ``SyncSuspendingProxy`` do.
public protocol TransducerProxy<Event>: Identifiable, Equatable {
    /// The events this proxy carries.
    associatedtype Event
    /// The send-only handle of this proxy.
    associatedtype Input

    /// Creates a proxy that no run has used yet.
    init()

    /// The send-only handle of this proxy, to give to components that may send
    /// events but must not cancel the run.
    var input: Input { get }

    /// Ends the run: by throwing `error`, or ``TransducerError/cancelled``
    /// when `error` is `nil`. Every running operation is cancelled before
    /// `run` returns. Cancelling again, or after the run has ended, does
    /// nothing.
    func cancel(with error: (any Error)?)

    /// Identifies this proxy (and so its run) for its whole life.
    var id: UUID { get }
}

extension TransducerProxy {
    /// Ends the run with ``TransducerError/cancelled``; see
    /// ``cancel(with:)``.
    @inlinable
    public func cancel() {
        cancel(with: nil)
    }

    /// Two proxies are equal when they have the same ``id``.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }
}

/// A proxy that gives the run loop its event channel: ``Proxy`` and
/// ``SyncSuspendingProxy``. An implementation detail of the runtime, public
/// only because a transducer's `Proxy` type is constrained to it; do not
/// conform your own types.
public protocol _ChannelProxy: Sendable {
    /// The events this proxy carries.
    associatedtype Event
    /// The send-only handle of this proxy; it crosses into operation tasks.
    associatedtype Input: Sendable

    /// The channel shared with the run loop. Do not use it.
    var _channel: _EventChannel<Event> { get }

    /// The input given to one operation, whose sends are refused once that
    /// operation is cancelled. Do not use it.
    static func _input(_ channel: _EventChannel<Event>, operation: UInt64) -> Input

    /// The channel `input` sends to, and as whom (`0`: the proxy; else an
    /// operation): how a child's outputs reach its parent. Do not use it.
    static func _channel(of input: Input) -> (_EventChannel<Event>, origin: UInt64)
}

/// An input that can name its run's event channel: ``Proxy/Input`` and
/// ``SyncSuspendingProxy/Input``, which ``SharedRun/notify(_:with:)``
/// takes. An implementation detail of the runtime, public only because that
/// method is generic over it; do not conform your own types.
public protocol _ChannelInput<Event>: Sendable {
    /// The events the input carries.
    associatedtype Event
    /// The channel of the run the input sends to. Do not use it.
    var _runChannel: _EventChannel<Event> { get }
}

extension Proxy.Input: _ChannelInput {
    /// The channel of the run the input sends to. Do not use it.
    public var _runChannel: _EventChannel<Event> { channel }
}

extension SyncSuspendingProxy.Input: _ChannelInput {
    /// The channel of the run the input sends to. Do not use it.
    public var _runChannel: _EventChannel<Event> { channel }
}
