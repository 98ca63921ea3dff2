// A child transducer run by its parent: the handle the parent's state holds
// (`Child`), the effects that run, dismiss and send to it, and the subject that
// turns the child's outputs into the parent's events with back pressure.

import Observation

#if canImport(FoundationEssentials)
import struct FoundationEssentials.UUID
#else
import struct Foundation.UUID
#endif

/// A child transducer that a parent's state holds while the child should
/// run: a detail screen, a sheet, an edit form, one row of a list.
///
/// The parent keeps the handle in the case of its state where the child
/// lives, and lets ``Effect/children(_:from:to:start:)`` start the child
/// when the handle appears in the state and cancel it when it disappears:
///
/// ```swift
/// enum Library: EffectTransducer {
///     enum State: NonTerminal {
///         case list
///         case detail(Child<Detail>)
///     }
///     // …
///     static func update(_ state: inout State, event: Event) -> Self.Effect? {
///         let before = state
///         let effect = apply(&state, event)
///         return .combine(
///             [effect, .children(\.detailChild, from: before, to: state) { child in
///                 .run(child, env: { $0.detail }, output: { .detailSaid($0) })
///             }].compactMap { $0 })
///     }
/// }
/// ```
///
/// The handle is a value: it identifies the child (two handles are equal
/// when they are the same child), carries its initial state, and sends it
/// intents through its proxy (`send(_:)`).
///
/// ## The child's state, kept once
///
/// The child's run keeps its state in the handle: ``state`` is the child's
/// state now — its initial state until its run's first update, then the
/// state after each update, and its last state once it has ended. There is
/// one copy of it, the run's own; the parent does not mirror it with
/// events of its own. Views and ``Intents`` read it through the handle:
///
/// ```swift
/// case .detail(let detail):
///     DetailView(state: detail.state, intents: Intents(for: detail, scope: Detail.scope(of:)))
/// ```
///
/// ``state`` is observable (the Observation framework, where available): a
/// host that renders inside `withObservationTracking` — SwiftUI, an
/// ``ObservableTransducer``'s observers, a terminal or web front end — is
/// told when a child it showed changes, although the parent's own state,
/// which holds only the handle, has not. What the parent must *act* on is
/// an output of the child, mapped to an event of the parent by
/// ``Effect/run(_:env:output:)``.
///
/// Because the handle refers to the run's state, it is not a snapshot:
/// reading ``state`` from two copies of the parent's state gives the same,
/// current value. Compare what a child showed by its state, not by its
/// handle: handles are equal when they are the same child.
public struct Child<C: BaseTransducer>: Identifiable, Hashable {
    /// Identifies the child: the id of its proxy.
    public let id: UUID
    /// The child's proxy: send it events, or hand its `input` to a view.
    public let proxy: C.Proxy
    /// The state the child starts in.
    public let initialState: C.State
    /// Where the child's run keeps its state: the one copy.
    @usableFromInline let storage: ChildStorage<C.State>

    /// A handle on a new child of type `type`, to start in `initialState`.
    public init(_ type: C.Type = C.self, initialState: C.State, proxy: C.Proxy = C.Proxy()) {
        self.proxy = proxy
        self.id = proxy.id
        self.initialState = initialState
        self.storage = ChildStorage(initialState, isSame: nil)
    }

    /// A handle on a new child of type `type`, to start in `initialState`;
    /// an update of the child that leaves its state equal to the one before
    /// tells no observer.
    public init(_ type: C.Type = C.self, initialState: C.State, proxy: C.Proxy = C.Proxy())
    where C.State: Equatable {
        self.proxy = proxy
        self.id = proxy.id
        self.initialState = initialState
        self.storage = ChildStorage(initialState, isSame: { $0 == $1 })
    }

    /// The child's state now: its initial state until its run's first
    /// update, then the state after its latest update (kept after its run
    /// has ended). Observable where the Observation framework is available:
    /// reading it inside `withObservationTracking` tracks the child.
    ///
    /// Read it where the child runs (the parent's isolation) or anywhere
    /// else when the state is `Sendable`: it is read under a lock.
    public var state: C.State { storage.observedState }

    /// The child's send-only input.
    public var input: C.Input { proxy.input }

    /// The operation id under which the parent runs this child: what
    /// `.cancelTask(child.operationID)` cancels.
    public var operationID: EffectID { EffectID(id) }

    /// Equal when they are the same child.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the child's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Child: Sendable where C.State: Sendable {}

extension Child: CustomReflectable {
    /// The child as a parent's state holds it: its identity. Its proxy and
    /// storage are the runtime's, so `dump`, an inspector or a snapshot of
    /// the parent's state shows `Child<Detail>` and its `id`, not them.
    public var customMirror: Mirror { Mirror(self, children: ["id": id], displayStyle: .struct) }
}

extension Child where C.Proxy == Proxy<C.Event> {
    /// Sends `event` to the child, as the parent's view or an effect does;
    /// see ``Proxy/send(_:)``.
    public func send(_ event: sending C.Event) throws(TransducerError) {
        try proxy.send(event)
    }
}

extension Child where C.Proxy == SyncSuspendingProxy<C.Event> {
    /// Sends `event` to the child and waits until the child has processed
    /// it; see ``SyncSuspendingProxy/send(_:)``.
    public func send(_ event: sending C.Event) async {
        await proxy.send(event)
    }
}

/// The subject that turns a child's outputs into events of its parent: each
/// output mapped to an event joins the parent's buffer; when the buffer is
/// full (or the parent's proxy is a ``SyncSuspendingProxy``) the child waits
/// until the parent has processed it (back pressure from parent to child).
/// When the parent refuses (the child was dismissed, or the parent ended),
/// the child's run ends with `CancellationError`.
@usableFromInline
struct ChildOutput<Parent: BaseTransducer, Value>: Subject {
    @usableFromInline let input: Parent.Input
    @usableFromInline let event: (Value) -> Parent.Event?

    @inlinable
    init(input: Parent.Input, event: @escaping (Value) -> Parent.Event?) {
        self.input = input
        self.event = event
    }

    /// The event `_sendSynchronously` made and could not enqueue (the
    /// parent's buffer was full), for `send` to deliver.
    @usableFromInline let pending = PendingEvent<Parent.Event>()

    @inlinable @inline(never)
    func send(_ value: sending Value, isolated: isolated any Actor) async throws {
        guard let event = pending.take() ?? event(value) else { return }
        let (channel, origin) = Parent.Proxy._channel(of: input)
        // A buffered parent takes the event at once when its buffer has
        // room, else the child waits until the parent has processed it; a
        // suspending parent always makes it wait until then.
        if await channel.deliver(event, from: origin, untilProcessed: channel.waitsUntilProcessed) != nil {
            throw CancellationError()
        }
    }

    /// Enqueues the event at once when the parent's buffer has room: the
    /// common case costs no `await`. Out of line: inlined, the parent's
    /// channel code and its events' temporaries would take room in the
    /// child's run-loop frame, which its task keeps while the child lives.
    @inlinable @inline(never)
    func _sendSynchronously(_ value: Value) throws -> Bool {
        guard let event = event(value) else { return true }
        let (channel, origin) = Parent.Proxy._channel(of: input)
        guard !channel.waitsUntilProcessed else {
            pending.event = event
            return false
        }
        switch channel.offer(event, from: origin) {
        case .enqueued:
            return true
        case .wouldWait:
            pending.event = event
            return false
        case .refused:
            throw CancellationError()
        }
    }
}

/// One event kept between two calls on the same run loop.
@usableFromInline
final class PendingEvent<Event> {
    @usableFromInline var event: Event?

    @inlinable
    init() {}

    @inlinable
    func take() -> Event? {
        defer { event = nil }
        return event
    }
}

extension Effect {
    /// Runs `child` as an operation of this run, on the run's isolation,
    /// until the child's state is terminal or the operation is cancelled
    /// (the child's handle left the state, or `.cancelTask(child.operationID)`).
    /// Cancelling it cancels the child's run, every operation of the child
    /// included; nothing the child outputs afterwards reaches the parent.
    ///
    /// The child's run keeps its state in the handle (``Child/state``): it
    /// starts from the handle's current state and writes each new state
    /// there, where views and intents read it.
    ///
    /// - Parameters:
    ///   - child: The handle the parent's state holds.
    ///   - env: Makes the child's environment from the parent's.
    ///   - output: Maps each output of the child to an event of the
    ///     parent, or to `nil` to ignore it. When the parent's buffer is
    ///     full, the child waits until the parent has processed the event:
    ///     back pressure end to end.
    @inlinable
    public static func run<C: EffectTransducer>(
        _ child: Child<C>,
        env: @escaping (Env) -> C.Env,
        output: @escaping (C.Output) -> Event?
    ) -> Effect where C.State: Sendable {
        // Safety: used by the child's run only, on the parent's isolation.
        nonisolated(unsafe) let toParent = output
        nonisolated(unsafe) let makeEnv = env
        let body: (T.Env, T.Input, isolated any Actor) async throws -> Void = { parentEnv, input, isolation in
            let subject = ChildOutput<T, C.Output>(input: input, event: toParent)
            _ = try await C.run(
                storage: child.storage, proxy: child.proxy, env: makeEnv(parentEnv), output: subject,
                isolation: isolation)
        }
        // Safety: the body, and the closures it holds, run once, in the
        // operation's task, on the parent's isolation (the operation is
        // isolated to it): the child's conformance is used there only.
        nonisolated(unsafe) let run = body
        return Effect(id: child.operationID, isolatedOperation: { try await run($0, $1, $2) })
    }

    /// Runs the pure transducer `child` as an operation of this run; see
    /// the effect transducer form.
    @inlinable
    public static func run<C: Transducer>(
        _ child: Child<C>,
        output: @escaping (C.Output) -> Event?
    ) -> Effect where C.State: Sendable {
        // Safety: used by the child's run only, on the parent's isolation.
        nonisolated(unsafe) let toParent = output
        let body: (T.Env, T.Input, isolated any Actor) async throws -> Void = { _, input, isolation in
            let subject = ChildOutput<T, C.Output>(input: input, event: toParent)
            _ = try await C.run(
                storage: child.storage, proxy: child.proxy, output: subject, isolation: isolation)
        }
        // Safety: see the effect transducer form.
        nonisolated(unsafe) let run = body
        return Effect(id: child.operationID, isolatedOperation: { try await run($0, $1, $2) })
    }

    /// Ends `child`'s run (and every operation of it); does nothing when it
    /// does not run.
    @inlinable
    public static func dismiss<C: BaseTransducer>(_ child: Child<C>) -> Effect {
        .cancelTask(child.id)
    }

    /// Sends `event` to `child` from an update, at once, on the run's
    /// isolation. An event the child cannot take is dropped and logged: at
    /// debug level when its run has ended (it was dismissed), as a warning
    /// when its buffer is full (give its proxy a larger `bufferSize`).
    @inlinable
    public static func send<C: BaseTransducer>(_ event: C.Event, to child: Child<C>) -> Effect
    where C.Proxy == Proxy<C.Event>, C.Event: Sendable, C.State: Sendable {
        let proxy = child.proxy
        return Effect(
            storage: .perform {
                do throws(TransducerError) {
                    try proxy.send(event)
                } catch {
                    _childEventDropped(error)
                }
            })
    }

    /// The effects that run exactly the children `children` finds in the
    /// state: for each handle in `new` and not in `old`, `start(child)`
    /// (usually ``run(_:env:output:)``); for each handle in `old` and not in
    /// `new`, its cancellation. `nil` when nothing changes.
    ///
    /// Call it from `update` with the state before and after the event: a
    /// child then runs exactly while the parent's state holds its handle,
    /// for one child (a case of the state) or a keyed collection (one per
    /// row).
    @inlinable
    public static func children<C: BaseTransducer>(
        _ children: (T.State) -> [Child<C>],
        from old: T.State,
        to new: T.State,
        start: (Child<C>) -> Effect
    ) -> Effect? {
        let before = children(old)
        let after = children(new)
        let beforeIDs = Set(before.map(\.id))
        let afterIDs = Set(after.map(\.id))
        var effects: [Effect] = []
        for child in before where !afterIDs.contains(child.id) {
            effects.append(.dismiss(child))
        }
        for child in after where !beforeIDs.contains(child.id) {
            effects.append(start(child))
        }
        switch effects.count {
        case 0: return nil
        case 1: return effects[0]
        default: return .combine(effects)
        }
    }
}

/// Reports an event for a child that the child could not take: its run has
/// ended (it was dismissed: expected, logged at debug level) or its buffer is
/// full (a warning: the parent sends faster than the child processes).
@usableFromInline
func _childEventDropped(_ error: TransducerError) {
    if error == .bufferFull {
        logger.warning(
            "An event for a child was dropped: the child's buffer is full. Give its proxy a larger bufferSize.",
            metadata: ["reason": "\(error)"])
    } else {
        logger.debug("An event for a child was dropped.", metadata: ["reason": "\(error)"])
    }
}

/// Where a child's run keeps its state (``Child/state``): the run reads and
/// writes it as its storage, views read it through the handle. Observable
/// where the Observation framework is available: a write that changes the
/// state tells the observers that read it.
///
/// Until someone reads ``observedState`` (a view, intents), a write is a
/// plain store under the lock: a child nobody shows costs its run one
/// uncontended lock per update, and no registrar.
@usableFromInline
final class ChildStorage<State>: Storage {
    @usableFromInline
    struct Slot {
        @usableFromInline var state: State
        /// Whether a view has read the state: from then on, writes that
        /// change it tell the registrar.
        @usableFromInline var isObserved = false
    }

    @usableFromInline let locked: LockedState<Slot>
    @usableFromInline let isSame: ((State, State) -> Bool)?
    /// The observation registrar's holder, where Observation is available
    /// (macOS 14, iOS 17 and later, and every other platform).
    @usableFromInline let observation: AnyObject?

    init(_ state: State, isSame: ((State, State) -> Bool)?) {
        locked = LockedState(Slot(state: state))
        self.isSame = isSame
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
            observation = StateObservation()
        } else {
            observation = nil
        }
    }

    /// The state, as the run reads and writes it — the run only: it is
    /// the one writer, and reads it without the lock between its own
    /// writes. Reading it is not tracked; a write that changes a state a
    /// view has read tells the observers.
    @inlinable
    var value: State {
        get { locked.unlockedValueOfTheOneWriter.state }
        set {
            // Unobserved, the write is done here; observed, a write that
            // changes nothing is dropped, and one that changes the state is
            // announced (`willSet`) before it is made.
            let mustAnnounce = locked.withLock { slot -> Bool in
                guard slot.isObserved else {
                    slot.state = newValue
                    return false
                }
                if let isSame, isSame(slot.state, newValue) { return false }
                return true
            }
            guard mustAnnounce else { return }
            stateChanging(observation) { locked.withLock { $0.state = newValue } }
        }
    }

    /// The state, read from anywhere (under the lock), not tracked: what
    /// an intent checks itself against.
    @usableFromInline
    var currentState: State { locked.withLock { $0.state } }

    /// The state, as a view reads it: tracked by Observation.
    @inlinable
    var observedState: State {
        stateAccessed(observation)
        return locked.withLock { slot in
            slot.isObserved = true
            return slot.state
        }
    }
}

/// Safety (`@unchecked Sendable`): the state is `Sendable`; it is written
/// only under the lock, by the child's run alone, and read under the lock
/// by everyone but that run, which reads it between its own writes (a read
/// never races with a write); `isSame` is `==` of a `Sendable` state or
/// `nil`, and is called under the lock; the registrar is `Sendable`.
extension ChildStorage: @unchecked Sendable where State: Sendable {}

/// The observable side of a child's storage or a shared run: one
/// registrar, and one property that stands for the run's state.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@usableFromInline
final class StateObservation: Observable, Sendable {
    private let registrar = ObservationRegistrar()

    /// Counts the changes announced to observers, over every child and
    /// shared run of the process: ``withStateTracking(_:onChange:)`` reads
    /// it before and after a tracking, to catch a change made on another
    /// thread between a read and the tracking's installation.
    @usableFromInline static let changes = LockedState<UInt64>(0)

    /// The trackings of ``StateTracker``s that read the state, each told
    /// once, at the next change, and removed when its tracker renders again.
    private let trackings = LockedState<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Stands for the child's state in the registrar.
    var state: Void { () }

    /// Tells the registrar the state was read — or, while a
    /// ``StateTracker`` renders, that tracker (and not the registrar, whose
    /// trackings stay until the state changes, however often a host renders
    /// meanwhile).
    @usableFromInline
    func accessed() {
        if let recorder = StateAccessRecorder.current, recorder.record(self) { return }
        registrar.access(self, keyPath: \.state)
    }

    /// Tells the registrar's observers the state changes while `body` runs,
    /// and the trackers' trackings once it has changed.
    @usableFromInline
    func changing(_ body: () -> Void) {
        Self.changes.withLock { $0 &+= 1 }
        registrar.withMutation(of: self, keyPath: \.state, body)
        let told = trackings.withLock { trackings -> [@Sendable () -> Void] in
            guard !trackings.isEmpty else { return [] }
            defer { trackings.removeAll() }
            return Array(trackings.values)
        }
        for tell in told { tell() }
    }

    /// Calls `tell` at the next change, unless ``stopTelling(_:)`` with
    /// `key` comes first.
    func tell(_ key: ObjectIdentifier, _ tell: @escaping @Sendable () -> Void) {
        trackings.withLock { $0[key] = tell }
    }

    /// How many trackings wait for the next change (for tests).
    var waitingTrackings: Int { trackings.withLock { $0.count } }

    /// Forgets what ``tell(_:_:)`` with `key` asked.
    func stopTelling(_ key: ObjectIdentifier) {
        trackings.withLock { $0[key] = nil }
    }
}

/// Tells the registrar of `observation` (a ``StateObservation``, where
/// Observation is available) that the state was read.
@inlinable
func stateAccessed(_ observation: AnyObject?) {
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *),
        let observation = observation as? StateObservation
    {
        observation.accessed()
    }
}

/// Runs `body`, which changes the state, announced to the observers of
/// `observation` where Observation is available.
@inlinable
func stateChanging(_ observation: AnyObject?, _ body: () -> Void) {
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *),
        let observation = observation as? StateObservation
    {
        observation.changing(body)
    } else {
        body()
    }
}

/// Runs `apply` as `withObservationTracking` does, and calls `onChange`
/// once something it read changes — including a change that
/// `withObservationTracking` alone can miss: one made on another thread
/// after `apply` read the state and before the tracking was installed.
///
/// A ``SharedRun`` runs on its own isolation, so a view that reads
/// ``SharedRun/state`` can race with its next publication; a ``Child``
/// runs on its parent's, where no change comes between. When a child's or
/// a shared run's change was announced anywhere in the process while the
/// tracking was being set up, `onChange` is called as well (at worst once
/// more than needed: a host renders again and finds nothing new). Hosts
/// that render states of children and shared runs use it instead of
/// `withObservationTracking` (and a ``StateTracker`` where they render
/// again without a change, which would leave a tracking each time):
///
/// ```swift
/// let screen = withStateTracking {
///     render(host.state)
/// } onChange: {
///     redraws.yield()
/// }
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public func withStateTracking<T>(_ apply: () -> T, onChange: @autoclosure () -> @Sendable () -> Void) -> T {
    let handler = onChange()
    let before = StateObservation.changes.withLock { $0 }
    let result = withObservationTracking(apply, onChange: handler)
    if StateObservation.changes.withLock({ $0 }) != before { handler() }
    return result
}
