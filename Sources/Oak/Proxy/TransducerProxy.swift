/// The interface shared by the proxies a transducer can run with:
/// ``Proxy`` (buffered, `send` returns at once) and ``SyncSuspendingProxy``
/// (`send` suspends until the event has been processed).
///
/// A proxy is the event channel of exactly one run. It owns an ``Input``, a
/// send-only handle that can be given to other components, and it can cancel
/// the run.
public protocol TransducerProxy: Sendable {
    /// The events this proxy carries.
    associatedtype Event
    /// The send-only handle of this proxy.
    associatedtype Input: Sendable

    /// The send-only handle of this proxy, to give to components that may send
    /// events but must not cancel the run.
    var input: Input { get }

    /// Ends the run with ``TransducerError/cancelled``. Every running
    /// operation is cancelled before `run` returns. Cancelling again, or after
    /// the run has ended, does nothing.
    func cancel()

    /// Ends the run by throwing `error`. Every running operation is cancelled
    /// before `run` returns. Cancelling again, or after the run has ended,
    /// does nothing.
    func cancel(with error: some Error)

    /// The channel shared with the run loop. An implementation detail of the
    /// runtime: do not use it.
    var _channel: _EventChannel<Event> { get }
}
