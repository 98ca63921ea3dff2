// One run that many watch and send to (`SharedRun`): one copy of its state,
// each watcher reading the latest state when it is ready for one.

import Atomics

/// One run of a transducer that many watch and send to: a meeting that every
/// viewer's page shows, a list that every session of a server displays.
///
/// The shared run keeps **one copy** of the run's state. Anyone may send
/// events to the run through its ``proxy`` (or ``input``), and anyone may
/// watch it through ``states``, an asynchronous sequence that begins with the
/// current state and then gives the latest state each time the watcher asks
/// for the next one:
///
/// ```swift
/// let room = SharedRun<Meeting>(initialState: Meeting.State(speakers: 3))
/// let meeting = Task { try await room.run(env: env) }
///
/// // Each viewer, in a task of its own:
/// for await state in room.states {
///     render(state)
/// }
/// // The loop ends when the run has ended; `room.ending` says how.
/// ```
///
/// Watching is *coalesced*: a watcher that is slower than the run skips the
/// states it had no time for and gets the latest one. A watcher that does
/// not read at all holds nothing — no queue, no copy of the state — so
/// thousands of watchers cost the run nothing but the wake-up of those that
/// wait. When the state type is `Equatable`, an update that leaves the state
/// as it was wakes no one: every state a watcher gets differs from the one
/// before it.
///
/// Every watcher's sequence ends once the run has ended and the watcher has
/// got the final state; ``ending`` then tells how the run ended. A watcher
/// leaves by ending its loop or cancelling its task; nothing else needs to
/// be undone.
///
/// The run itself runs where ``run(env:output:isolation:)`` is called — one
/// task owns it, as with every other host — and the shared run may be run
/// only once.
///
/// - Note: The state must be `Sendable`: watchers read it on their own
///   isolation. A state is a value; every watcher gets a copy that shares
///   its storage with the run's own (copy on write), so a large state is
///   not duplicated per watcher.
public final class SharedRun<Shared: BaseTransducer>: Sendable
where Shared.State: Sendable, Shared.Output: Sendable, Shared.Proxy: Sendable {
    /// The event channel of the run: send events to it from anywhere.
    public let proxy: Shared.Proxy

    let broadcast: Broadcast<Shared.State, Shared.Output>
    /// Whether two states are the same: `==` when the state is `Equatable`.
    let isSame: (@Sendable (Shared.State, Shared.State) -> Bool)?

    /// A shared run that will start in `initialState`, with `proxy` as its
    /// event channel. The run starts when ``run(env:output:isolation:)`` is
    /// called; until then, watchers get the initial state.
    public init(initialState: Shared.State, proxy: Shared.Proxy = Shared.Proxy()) {
        self.proxy = proxy
        self.broadcast = Broadcast(state: initialState)
        self.isSame = nil
    }

    /// A shared run that will start in `initialState`, with `proxy` as its
    /// event channel; an update that leaves the state equal to the one
    /// before wakes no watcher.
    public init(initialState: Shared.State, proxy: Shared.Proxy = Shared.Proxy())
    where Shared.State: Equatable {
        self.proxy = proxy
        self.broadcast = Broadcast(state: initialState)
        self.isSame = { $0 == $1 }
    }

    /// The send-only input of the run, to hand to a view.
    public var input: Shared.Input { proxy.input }

    /// The current state: the initial state until the run's first update,
    /// then the state after the latest update.
    ///
    /// Observable where the Observation framework is available: a view
    /// that reads it inside `withObservationTracking` (SwiftUI, a terminal
    /// or web host) is told when the run publishes a new state, as with
    /// ``Child/state``. A host that shows the shared run this way keeps no
    /// copy of its state: a meeting many pages show is read from here by
    /// each rendering.
    public var state: Shared.State { broadcast.observedState }

    /// How the run ended: `nil` while it has not ended (or not started),
    /// then `.success` with its final output, or `.failure` with the error
    /// `run` threw.
    public var ending: Result<Shared.Output, any Error>? { broadcast.core.withLock { $0.ending } }

    /// Whether ``run(env:output:isolation:)`` has been called.
    public var hasStarted: Bool { broadcast.core.withLock { $0.hasStarted } }

    /// Whether every watcher of ``states`` waits for a state newer than
    /// the latest (or the run has ended): none is still busy with a state
    /// it got. OakTesting's `StateGraph` waits for it between steps.
    package var watchersAreWaiting: Bool { broadcast.isAtRest }

    /// The run's states, for one watcher: the current state first, then the
    /// latest state each time the watcher asks for the next, until the run
    /// has ended. Each iteration of `states` is a watcher of its own.
    public var states: States { States(shared: self) }

    /// Runs the transducer until it ends, on the caller's isolation, and
    /// tells every watcher each new state and the end.
    ///
    /// - Parameters:
    ///   - env: The environment the effects receive.
    ///   - output: Receives every output; the run awaits each delivery.
    ///   - isolation: Where the run runs: the caller's isolation by default.
    /// - Returns: The output of the update that reached the terminal state.
    /// - Throws: ``TransducerError/proxyAlreadyInUse`` when the shared run
    ///   has already been run (a shared run runs once); otherwise what the
    ///   transducer's `run` throws (see
    ///   ``BaseTransducer/run(storage:proxy:env:output:isolation:)``), which
    ///   is then also the ``ending``.
    @discardableResult
    public func run(
        env: Shared.Env,
        output: some Subject<Shared.Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Shared.Output {
        let initial = try broadcast.core.withLock { core throws(TransducerError) -> Shared.State in
            guard !core.hasStarted else { throw .proxyAlreadyInUse }
            core.hasStarted = true
            return core.state
        }
        let storage = Publisher(broadcast, state: initial, isSame: isSame)
        do {
            let final = try await Shared.run(
                storage: storage, proxy: proxy, env: env, output: output, isolation: isolation)
            broadcast.end(with: .success(final))
            return final
        } catch {
            broadcast.end(with: .failure(error))
            throw error
        }
    }

    /// Runs the transducer until it ends, ignoring outputs; see
    /// ``run(env:output:isolation:)``.
    @discardableResult
    public func run(
        env: Shared.Env,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Shared.Output {
        try await run(env: env, output: NoCallback<Shared.Output>(), isolation: isolation)
    }

    /// The storage the run writes: the run's own copy, published to the
    /// watchers at every write that changed it.
    final class Publisher: Storage {
        let broadcast: Broadcast<Shared.State, Shared.Output>
        let isSame: (@Sendable (Shared.State, Shared.State) -> Bool)?
        var current: Shared.State

        init(
            _ broadcast: Broadcast<Shared.State, Shared.Output>, state: Shared.State,
            isSame: (@Sendable (Shared.State, Shared.State) -> Bool)?
        ) {
            self.broadcast = broadcast
            self.isSame = isSame
            self.current = state
        }

        var value: Shared.State {
            get { current }
            set {
                // Compared here, on the run's isolation, not under the lock.
                let changed = !(isSame?(current, newValue) ?? false)
                current = newValue
                if changed { broadcast.publish(newValue) }
            }
        }
    }
}

extension SharedRun: Hashable {
    /// Whether `lhs` and `rhs` are the same shared run (identity: two runs
    /// in the same state are two runs). A parent's state that holds a
    /// shared run's handle is equal to itself while it holds the same run.
    public static func == (lhs: SharedRun, rhs: SharedRun) -> Bool { lhs === rhs }

    /// Hashes the run's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension SharedRun where Shared.Env == Void {
    /// Runs the transducer until it ends, on the caller's isolation; see
    /// ``run(env:output:isolation:)``.
    @discardableResult
    public func run(
        output: some Subject<Shared.Output>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Shared.Output {
        try await run(env: (), output: output, isolation: isolation)
    }

    /// Runs the transducer until it ends, ignoring outputs; see
    /// ``run(env:output:isolation:)``.
    @discardableResult
    public func run(isolation: isolated (any Actor)? = #isolation) async throws -> Shared.Output {
        try await run(env: (), output: NoCallback<Shared.Output>(), isolation: isolation)
    }
}

extension SharedRun {
    /// The states of a shared run, as one watcher sees them: the current
    /// state first, then, each time the watcher asks, the latest state it
    /// has not seen (waiting for one when there is none), until the run
    /// has ended.
    ///
    /// Each iterator is a watcher of its own. An iterator that is not asked
    /// for a state holds nothing; one that waits is woken by the next state
    /// or the run's end. The sequence of a watcher whose task is cancelled
    /// ends: it waits no more and gets no further state.
    public struct States: AsyncSequence, Sendable {
        /// A state of the run.
        public typealias Element = Shared.State
        /// Watching never fails: the sequence ends instead.
        public typealias Failure = Never

        let shared: SharedRun

        /// A new watcher, which gets the current state first.
        public func makeAsyncIterator() -> Iterator {
            Iterator(shared: shared)
        }

        /// One watcher of a shared run.
        public struct Iterator: AsyncIteratorProtocol {
            /// A state of the run.
            public typealias Element = Shared.State
            /// Watching never fails: the sequence ends instead.
            public typealias Failure = Never

            let shared: SharedRun
            /// Counts this watcher among the run's watchers while it lives
            /// (copies share it), so that a test can tell when every
            /// watcher has caught up (``SharedRun/watchersAreWaiting``).
            let watcher: Broadcast<Shared.State, Shared.Output>.Watcher
            /// The version of the last state this watcher got; 0 before
            /// the first.
            var seen: UInt64 = 0
            var isFinished = false

            init(shared: SharedRun) {
                self.shared = shared
                self.watcher = Broadcast.Watcher(shared.broadcast)
            }

            /// The latest state this watcher has not seen, waiting for one
            /// when there is none; `nil` once the run has ended (after its
            /// final state), and from the moment the watcher's task is
            /// cancelled.
            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Shared.State? {
                guard !isFinished, !Task.isCancelled else {
                    isFinished = true
                    return nil
                }
                let delivery = await shared.broadcast.next(after: seen, isolation: actor)
                guard let delivery else {
                    isFinished = true
                    return nil
                }
                seen = delivery.version
                return delivery.state
            }

            /// The latest state this watcher has not seen; see
            /// ``next(isolation:)``.
            public mutating func next() async -> Shared.State? {
                await next(isolation: nil)
            }
        }
    }
}

/// The states of one run told to its watchers: the latest state, its
/// version, the run's ending, and the watchers that wait. Generic over the
/// state and the output only, so that a watcher's cancellation handler
/// captures no transducer type.
final class Broadcast<State: Sendable, Output: Sendable>: Sendable {
    let core: LockedState<Core>
    /// The observation registrar's holder (``StateObservation``), where
    /// Observation is available.
    let observation: (any AnyObject & Sendable)?

    init(state: State) {
        self.core = LockedState(Core(state: state))
        if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
            observation = StateObservation()
        } else {
            observation = nil
        }
    }

    /// The latest state, read by a view: tracked by Observation, and from
    /// now on every publication is announced to the registrar.
    var observedState: State {
        stateAccessed(observation)
        return core.withLock { core in
            core.isObserved = true
            return core.state
        }
    }

    /// Makes `state` the latest and wakes the watchers that wait; tells
    /// the registrar's observers once a view has read the state.
    func publish(_ state: State) {
        // Unobserved, the state is stored under the lock that says so (as
        // a child's storage does): a view whose first read takes the lock
        // before sees `isObserved` set here and is told; one that takes
        // it after reads the new state. Checked and stored under two locks,
        // a first read in between would read the old state untold.
        let stored = core.withLock { core -> (UInt64, [Core.Waiter])? in
            guard !core.isObserved else { return nil }
            return core.store(state)
        }
        if let (version, waiting) = stored {
            wake(waiting, with: state, version: version)
        } else {
            stateChanging(observation) {
                let (version, waiting) = core.withLock { $0.store(state) }
                wake(waiting, with: state, version: version)
            }
        }
        if hasSubscriptions { tell(state, ended: false) }
    }

    /// Whether a run is told of this run's changes (``SharedRun/notify(_:with:)``):
    /// read without the lock on every publication, so that a run nobody
    /// subscribes to pays one atomic load for it.
    private let subscribed = ManagedAtomic<Bool>(false)

    private var hasSubscriptions: Bool { subscribed.load(ordering: .acquiring) }

    /// Tells every subscription `state`, the run's latest (and, with
    /// `ended`, its last); ends those whose run takes no more events.
    /// Outside the lock: a subscription's projection is the app's code.
    private func tell(_ state: State, ended: Bool) {
        let subscriptions = core.withLock { $0.subscriptions }
        var over: [UInt64] = []
        for (number, subscription) in subscriptions where !subscription(state, ended) {
            over.append(number)
        }
        guard !over.isEmpty || ended else { return }
        core.withLock { core in
            if ended {
                core.subscriptions.removeAll()
            } else {
                for number in over { core.subscriptions.removeValue(forKey: number) }
            }
            subscribed.store(!core.subscriptions.isEmpty, ordering: .releasing)
        }
    }

    /// Adds `subscription`, told from the next publication on; `nil` when
    /// the run has ended (it is told the end at once instead). The state
    /// at the time and whether one was published between `seen` and now.
    func subscribe(_ subscription: @escaping Core.Subscription, seen: UInt64) -> (number: UInt64, missed: State?)? {
        let added = core.withLock { core -> (UInt64, State?)? in
            guard core.ending == nil else { return nil }
            let number = core.nextSubscription
            core.nextSubscription &+= 1
            core.subscriptions[number] = subscription
            subscribed.store(true, ordering: .releasing)
            return (number, core.version != seen ? core.state : nil)
        }
        guard let (number, missed) = added else {
            _ = subscription(core.withLock { $0.state }, true)
            return nil
        }
        return (number, missed)
    }

    /// Ends subscription `number`; nothing when it has ended.
    func unsubscribe(_ number: UInt64) {
        let removed = core.withLock { core -> Core.Subscription? in
            defer { subscribed.store(!core.subscriptions.isEmpty, ordering: .releasing) }
            return core.subscriptions.removeValue(forKey: number)
        }
        // Released here, outside the lock: what it captured may end with it.
        _ = removed
    }

    /// How many states have been published (the initial state is 1).
    var version: UInt64 { core.withLock { $0.version } }

    /// The latest state and its version, read together.
    var versioned: (version: UInt64, state: State) {
        core.withLock { ($0.version, $0.state) }
    }

    /// Gives the watchers that waited `state`, the latest at `version`.
    private func wake(_ waiting: [Core.Waiter], with state: State, version: UInt64) {
        for waiter in waiting {
            waiter.resume(returning: Delivery(version: version, state: state))
        }
    }

    /// Records how the run ended and ends every waiting watcher's sequence.
    func end(with result: Result<Output, any Error>) {
        let waiting = core.withLock { core -> [Core.Waiter] in
            core.ending = result
            defer { core.waiting.removeAll() }
            return Array(core.waiting.values)
        }
        for waiter in waiting { waiter.resume(returning: nil) }
        if hasSubscriptions { tell(core.withLock { $0.state }, ended: true) }
    }

    // MARK: State

    /// What a watcher that asks for a state does: take one (or the end),
    /// or wait as watcher number so-and-so.
    enum Step {
        case deliver(Delivery?)
        case wait(UInt64)
    }

    /// What a watcher is woken with: the state and its version.
    struct Delivery: Sendable {
        var version: UInt64
        var state: State
    }

    /// The shared state, behind the lock.
    struct Core: Sendable {
        typealias Waiter = UnsafeContinuation<Delivery?, Never>

        /// The latest state.
        var state: State
        /// Counts the states published; a watcher compares it with the
        /// version it saw last. The initial state is version 1.
        var version: UInt64 = 1
        var hasStarted = false
        var ending: Result<Output, any Error>?
        /// The watchers that have seen the latest state and wait for the
        /// next, by watcher number.
        var waiting: [UInt64: Waiter] = [:]
        var nextWatcher: UInt64 = 0
        /// The watchers alive (iterators made and not yet gone).
        var watchers = 0
        /// Whether a view has read the state through ``Broadcast/observedState``.
        var isObserved = false
        /// The runs told of this run's changes, by subscription number
        /// (``SharedRun/notify(_:with:)``): each is given the latest state
        /// (and whether the run has ended) and says whether it goes on.
        var subscriptions: [UInt64: Subscription] = [:]
        var nextSubscription: UInt64 = 0

        typealias Subscription = @Sendable (_ state: State, _ ended: Bool) -> Bool

        init(state: State) {
            self.state = state
        }

        /// Makes `state` the latest; the new version and the watchers that
        /// waited for it, to wake once the lock is released.
        mutating func store(_ state: State) -> (UInt64, [Waiter]) {
            self.state = state
            version &+= 1
            guard !waiting.isEmpty else { return (version, []) }
            defer { waiting.removeAll(keepingCapacity: true) }
            return (version, Array(waiting.values))
        }

        /// What the watcher that saw version `seen` can have now: the
        /// latest state, or the end (`.some(nil)`); `nil` when it must wait.
        func available(after seen: UInt64) -> Delivery?? {
            if version != seen { return Delivery(version: version, state: state) }
            if ending != nil { return .some(nil) }
            return nil
        }
    }

    /// What the watcher that saw version `seen` gets next; waits on the
    /// watcher's isolation.
    func next(after seen: UInt64, isolation: isolated (any Actor)? = #isolation) async -> Delivery? {
        let now = core.withLock { core -> Step in
            if let available = core.available(after: seen) { return .deliver(available) }
            defer { core.nextWatcher &+= 1 }
            return .wait(core.nextWatcher)
        }
        let watcher: UInt64
        switch now {
        case .deliver(let delivery): return delivery
        case .wait(let number): watcher = number
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Core.Waiter) in
                let resumeNow = core.withLock { core -> Delivery?? in
                    // Checked under the lock: a cancellation handler that
                    // ran before this point found nothing to resume.
                    if Task.isCancelled { return .some(nil) }
                    if let available = core.available(after: seen) { return available }
                    core.waiting[watcher] = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            self.leave(watcher)
        }
    }

    /// A watcher alive: counted from its making to its end, so that
    /// ``isAtRest`` can tell a watcher busy with the state it got from one
    /// waiting for the next.
    final class Watcher: Sendable {
        let broadcast: Broadcast

        init(_ broadcast: Broadcast) {
            self.broadcast = broadcast
            broadcast.core.withLock { $0.watchers += 1 }
        }

        deinit {
            broadcast.core.withLock { $0.watchers -= 1 }
        }
    }

    /// Whether every watcher alive waits for a state newer than the
    /// latest (none holds a state it has not finished with), or the run
    /// has ended.
    var isAtRest: Bool {
        core.withLock { $0.ending != nil || $0.waiting.count >= $0.watchers }
    }

    /// Ends the wait of `watcher`, whose task was cancelled.
    func leave(_ watcher: UInt64) {
        let waiter = core.withLock { $0.waiting.removeValue(forKey: watcher) }
        waiter?.resume(returning: nil)
    }
}

extension SharedRun: CustomReflectable {
    /// The shared run as a state that holds it shows it: by its type. Its
    /// proxy and broadcast are the runtime's; its state is its own run's
    /// (an inspector shows that run on its own).
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
