// Oak's protocols for the two kinds of input (buffered, suspending).

/// The send-only handle of a buffered proxy: `send` enqueues the event and
/// returns at once. ``Proxy/Input`` conforms; write generic components
/// against it (a component that produces events for any transducer).
public protocol BufferedTransducerInput<Event>: Sendable {
    /// The events this input carries.
    associatedtype Event
    /// Enqueues `event` for processing by the run; throws when it cannot.
    func send(_ event: sending Event) throws
}

/// The send-only handle of a suspending proxy: `send` returns once the event
/// has been processed. ``SyncSuspendingProxy/Input`` conforms.
public protocol SyncSuspendingTransducerInput<Event>: Sendable {
    /// The events this input carries.
    associatedtype Event
    /// Sends `event` and suspends until the run has processed it.
    func send(_ event: sending Event) async
}
