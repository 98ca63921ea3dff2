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

    /// Delivers `event` through `input` with back pressure: the outputs of
    /// a child on its parent. A buffered proxy enqueues it at once when its
    /// buffer has room, else the caller waits until the run has processed
    /// it; a suspending proxy always waits until then. Runs on the caller's
    /// isolation. Returns why it was not delivered, or `nil`. Do not use it.
    static func _deliver(
        _ event: sending Event, through input: Input, isolation: isolated (any Actor)?
    ) async -> TransducerError?

    /// Enqueues `event` through `input` if that needs no waiting. Do not
    /// use it.
    static func _offer(_ event: Event, through input: Input) -> _Offer
}

/// What ``_ChannelProxy/_offer(_:through:)`` did. Do not use it.
public enum _Offer: Sendable {
    /// The event was enqueued.
    case enqueued
    /// Nothing was done: delivering the event means waiting (the buffer is
    /// full, or the proxy waits until every event has been processed).
    case wouldWait
    /// The event was refused for this reason.
    case refused(TransducerError)
}
