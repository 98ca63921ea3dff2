// State-scoped intents: a user action bound to the state it was offered in,
// refused once the state has left that scope (`Intent`, `Intents`).

/// What invoking an ``Intent`` did.
public enum IntentResult: Equatable, Sendable, CustomStringConvertible {
    /// The event was sent to the run.
    case sent
    /// Nothing was sent: the state has left the scope the intent was made
    /// in (the view that offered it is out of date).
    case stale
    /// The run refused the event (it has ended, or its buffer is full).
    case refused(TransducerError)

    /// For example `stale`.
    public var description: String {
        switch self {
        case .sent: "sent"
        case .stale: "stale"
        case .refused(let error): "refused: \(error)"
        }
    }
}

/// One thing a user can do in one scope of a transducer's state: the action
/// behind a button of a model derived from the state.
///
/// An intent is made for the scope of the state it was derived from (a case
/// of the state, say). Invoked while the state is still in that scope, it
/// sends its event; invoked after the state has left it — the view was out
/// of date — it sends nothing and returns ``IntentResult/stale``, and the
/// run's inspector records ``InspectionRecord/intentRefused(_:)``.
///
/// Invoke it (`intent()`) to send the event and go on at once, or await
/// ``perform(isolation:)`` to go on once the run has processed it.
public struct Intent<Event> {
    private let isCurrent: () -> Bool
    private let channel: _EventChannel<Event>
    private let event: Event

    init(event: Event, channel: _EventChannel<Event>, isCurrent: @escaping () -> Bool) {
        self.event = event
        self.channel = channel
        self.isCurrent = isCurrent
    }

    /// Sends the event if the state is still in the intent's scope, and
    /// returns at once: the run processes it later. With a
    /// ``SyncSuspendingProxy`` too, the event is enqueued without waiting.
    @discardableResult
    public func callAsFunction() -> IntentResult {
        guard checkScope() else { return .stale }
        do throws(TransducerError) {
            // Safety: an intent is made and invoked on the host's isolation,
            // as the event it sends.
            nonisolated(unsafe) let event = event
            try channel.send(event, ack: nil)
            return .sent
        } catch {
            return .refused(error)
        }
    }

    /// Sends the event if the state is still in the intent's scope, and
    /// returns once the run has processed it: its `update` has run and its
    /// output was delivered. ``IntentResult/sent`` then means *processed*.
    ///
    /// A front end that reads one input after another awaits each input's
    /// intent this way, so that it interprets the next input in the state
    /// the intent led to:
    ///
    /// ```swift
    /// for await key in keys {
    ///     await binding(for: key, in: host.state)?.intent.perform()
    /// }
    /// ```
    ///
    /// An intent of a child (a ``Child`` running in its parent) returns
    /// once the child has delivered its output to the parent. When the
    /// parent's proxy is a ``SyncSuspendingProxy``, that delivery waits in
    /// turn until the parent has processed it and delivered its own output,
    /// so the host of the parent sees the intent's result when `perform`
    /// returns.
    ///
    /// - Returns: ``IntentResult/sent`` once processed,
    ///   ``IntentResult/stale`` when the state has left the scope (nothing
    ///   was sent), or ``IntentResult/refused(_:)`` with
    ///   ``TransducerError/terminated`` when the run has ended or ends
    ///   before processing it. A full buffer makes it wait for room.
    @discardableResult
    public func perform(isolation: isolated (any Actor)? = #isolation) async -> IntentResult {
        guard checkScope() else { return .stale }
        // Safety: see `callAsFunction()`.
        nonisolated(unsafe) let event = event
        if let error = await channel.deliver(event, from: 0, untilProcessed: true) {
            return .refused(error)
        }
        return .sent
    }

    /// Whether the state is still in the intent's scope; records the
    /// refusal when it is not.
    private func checkScope() -> Bool {
        guard isCurrent() else {
            channel.recordRefusedIntent(event)
            return false
        }
        return true
    }
}

/// Makes the intents of a model derived from one state: each intent carries
/// the scope of that state and checks, when invoked, that the current state
/// is still in it.
///
/// ```swift
/// enum Model {
///     case idle(load: Intent<Loader.Event>)
///     case loading(cancel: Intent<Loader.Event>)
/// }
///
/// static func model(of state: State, intents: Intents<Loader, Phase>) -> Model {
///     switch state {
///     case .idle: .idle(load: intents(.load))
///     case .loading: .loading(cancel: intents(.cancel))
///     }
/// }
/// ```
///
/// The same model serves every renderer: a terminal view maps keys to its
/// intents, a web view maps form posts, a SwiftUI view buttons. A model
/// offers only the intents valid in its state, so a view cannot show an
/// action that makes no sense; and an action kept from an old model cannot
/// act on a newer state.
///
/// Intents are made and invoked on the isolation of the host that owns the
/// state (the main actor for ``ObservableTransducer``); `current` reads the
/// state there. They work with either proxy, ``Proxy`` or
/// ``SyncSuspendingProxy``.
public struct Intents<T: BaseTransducer, Scope: Hashable> {
    private let proxy: T.Proxy
    private let scope: (T.State) -> Scope
    private let current: () -> T.State
    /// The scope of the state the model is derived from.
    public let stamp: Scope

    /// Intents for a model of `state`, sent through `proxy`, valid while
    /// `scope` of the state that `current` reads is `scope(state)`.
    public init(
        for state: T.State, proxy: T.Proxy, scope: @escaping (T.State) -> Scope,
        current: @escaping () -> T.State
    ) {
        self.proxy = proxy
        self.scope = scope
        self.current = current
        self.stamp = scope(state)
    }

    /// The intent that sends `event` while the state stays in this scope.
    public func callAsFunction(_ event: T.Event) -> Intent<T.Event> {
        let scope = self.scope
        let current = self.current
        let stamp = self.stamp
        return Intent(event: event, channel: proxy._channel) { scope(current()) == stamp }
    }
}

extension Intents {
    /// Intents for a model of `child`'s state now (``Child/state``), sent
    /// through its proxy, valid while the child's state stays in the scope
    /// `scope` gives it now: a parent's view offers its child's intents
    /// from the one copy of the child's state.
    ///
    /// ```swift
    /// let intents = Intents(for: detail, scope: Detail.scope(of:))
    /// let model = Detail.model(of: detail.state, intents: intents)
    /// ```
    public init(for child: Child<T>, scope: @escaping (T.State) -> Scope) {
        let storage = child.storage
        self.init(for: child.state, proxy: child.proxy, scope: scope) { storage.currentState }
    }
}

#if canImport(Observation)
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer {
    /// Derives a state-scoped model from the current state: `make` gets the
    /// state and the ``Intents`` for it, valid while `scope` of the host's
    /// state stays the same.
    ///
    /// ```swift
    /// let model = host.model(scope: \.phase, Loader.model(of:intents:))
    /// ```
    public func model<Model, Scope: Hashable>(
        scope: @escaping (Transducer.State) -> Scope,
        _ make: (Transducer.State, Intents<Transducer, Scope>) -> Model
    ) -> Model {
        let state = self.state
        let intents = Intents<Transducer, Scope>(
            for: state, proxy: proxy, scope: scope,
            current: { [weak self] in self?.state ?? state })
        return make(state, intents)
    }
}
#endif
