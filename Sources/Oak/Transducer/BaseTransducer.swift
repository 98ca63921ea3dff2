#if compiler(>=6.2)
/// Transducer types are namespaces whose metatypes cross into operation tasks.
public typealias _TransducerMetatype = SendableMetatype
#else
/// Transducer types are namespaces whose metatypes cross into operation tasks.
public protocol _TransducerMetatype {}
#endif

/// The vocabulary shared by ``Transducer`` and ``EffectTransducer``.
///
/// You do not conform to `BaseTransducer` directly; conform to one of the two
/// refinements. A conforming type is usually an `enum` without cases that
/// serves as a namespace for `State`, `Event`, `Output` and `update`.
public protocol BaseTransducer: _TransducerMetatype {
    /// The state of the machine. A terminal state ends a run.
    associatedtype State: Terminable
    /// The events the machine reacts to.
    associatedtype Event
    /// The value each update produces; `Void` when the machine has no output.
    /// ``Transducer`` infers it from the return type of `update`.
    associatedtype Output = Void
    /// The event channel used to run the machine: the buffered
    /// ``Oak/Proxy`` by default. Declare
    /// `typealias Proxy = SyncSuspendingProxy<Event>` to make every `send`
    /// wait until its event has been processed.
    associatedtype Proxy: TransducerProxy = Oak.Proxy<Event> where Proxy.Event == Event
}

extension BaseTransducer {
    /// The send-only input of the transducer's proxy.
    public typealias Input = Proxy.Input
}
