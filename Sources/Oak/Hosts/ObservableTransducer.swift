// A host that runs a transducer for as long as it lives and publishes its state
// through Observation; its initialisers are in
// `ObservableTransducer+Initializers.swift`.

import Observation

/// A host that runs a transducer for as long as it lives and publishes its
/// state through the Observation framework: a view model you do not write.
///
/// Create it with an initial state (and the transducer type, as `of:` or as
/// the generic argument); it starts at once, on the main actor. Read
/// ``state`` from a view (SwiftUI, or any code that uses
/// `withObservationTracking`) and send intents through ``proxy`` or
/// ``input``:
///
/// ```swift
/// @MainActor
/// final class CounterScreen {
///     let counter = ObservableTransducer<CounterTransducer>(
///         initialState: CounterTransducer.State(),
///         env: CounterTransducer.Env()
///     )
///
///     func plusTapped() {
///         try? counter.proxy.send(.increment)
///     }
/// }
/// ```
///
/// ## Lifetime
///
/// The run starts when the host is created and ends, with every operation
/// cancelled and awaited, in exactly one of these ways:
///
/// - the state becomes terminal: `completion` receives `.success(output)`;
/// - ``cancel()`` (or `proxy.cancel()`) is called: `completion` receives
///   `.failure(TransducerError.cancelled)`;
/// - an operation or output delivery fails: `completion` receives
///   `.failure(error)`;
/// - the host is released: its `deinit` cancels the task of the run, as in
///   Oak, and `completion` receives `.failure(CancellationError())` once the
///   run has ended. An output callback or async action that is suspended at
///   that moment sees the cancellation.
///
/// The completion callback is therefore called exactly once for every host,
/// on the main actor, after the run has ended. The running task holds the
/// host only weakly, so releasing the last reference to it really releases
/// it, and its run stops. The task does hold `output` and `completion`
/// until the run ends: capture the host weakly in them, or it lives until
/// its run ends by itself.
///
/// After the run has ended, ``isRunning`` is `false` and sending an event
/// throws ``TransducerError/terminated``, as the proxy does.
///
/// ## Observation
///
/// Every update of the run writes ``state``, and every write is reported to
/// observers, also when the new state equals the old one. ``isRunning`` is
/// observable too.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
@MainActor
public final class ObservableTransducer<Transducer: BaseTransducer> {
    /// The state of the transducer.
    public typealias State = Transducer.State
    /// The events of the transducer.
    public typealias Event = Transducer.Event
    /// The output of the transducer.
    public typealias Output = Transducer.Output
    /// The proxy type of the transducer.
    public typealias Proxy = Transducer.Proxy
    /// The input of the transducer's proxy.
    public typealias Input = Transducer.Proxy.Input

    /// What a host calls when its run has ended: exactly once, on the main
    /// actor, with `.success(output)` on a terminal state or
    /// `.failure(error)` on cancellation or failure.
    ///
    /// The designated initialisers take the closure itself
    /// (`completion: { result in … }`); this value is the form Oak's
    /// initialisers take, kept for code written against Oak.
    public struct Completion: Completable {
        /// The output of a run that reached a terminal state.
        public typealias Value = Transducer.Output
        /// The error of a run that was cancelled or failed.
        public typealias Failure = any Error

        let onCompletion: (Result<Value, Failure>) -> Void

        /// Creates a completion that calls `onCompletion`.
        public init(_ onCompletion: @escaping (Result<Value, Failure>) -> Void) {
            self.onCompletion = onCompletion
        }

        /// Calls the closure with `result`.
        public func completed(with result: Result<Value, Failure>) {
            onCompletion(result)
        }
    }

    /// Where the run reads and writes the state; holds this host weakly.
    @ObservationIgnored
    private let storage: ObservableTransducerStorage<Transducer>

    /// The task of the run, cancelled when the host is released.
    @ObservationIgnored
    private let runTask = RunTaskHandle()

    /// The event channel of the run. Send events with it, or end the run
    /// with `proxy.cancel()`.
    @ObservationIgnored
    public let proxy: Transducer.Proxy

    /// Whether the run is still going: `true` from creation until the run
    /// has ended (terminal state, cancellation, failure). It turns `false`
    /// on the main actor once every operation has been cancelled and awaited,
    /// just before the completion callback is called; after ``cancel()``
    /// that happens asynchronously.
    public private(set) var isRunning = true

    /// The current state of the transducer: the initial state until the
    /// first update, then the state after each update. Observable: every
    /// write is reported to observers.
    public var state: Transducer.State {
        access(keyPath: \.state)
        return storage.state
    }

    /// The send-only input of the run, to give to components that may send
    /// events but must not cancel the run.
    public var input: Transducer.Input { proxy.input }

    /// Creates the host without starting a run; every public initialiser
    /// calls ``start(completion:run:)`` right after.
    init(initialState: Transducer.State, proxy: Transducer.Proxy) {
        self.proxy = proxy
        self.storage = ObservableTransducerStorage(state: initialState)
        self.storage.host = self
    }

    /// Saves every state the run writes with `write`.
    func saveStates(with write: @escaping (Transducer.State) -> Void) {
        storage.didWrite = write
    }

    /// Ends the run with ``TransducerError/cancelled``: every operation is
    /// cancelled, then ``isRunning`` turns `false` and the completion
    /// callback receives the error. Calling it again, or after the run has
    /// ended, does nothing.
    public func cancel() {
        proxy.cancel()
    }

    /// Releasing the host cancels the task of its run, as in Oak. The
    /// completion callback still receives `.failure(CancellationError())`
    /// once the run has ended.
    deinit {
        runTask.cancel()
    }

    /// Starts the run in a task on the main actor. The task holds the
    /// storage, never the host, so the host can be released while it runs.
    func start(
        completion: ((Result<Transducer.Output, any Error>) -> Void)?,
        run:
            @escaping @MainActor (ObservableTransducerStorage<Transducer>, Transducer.Proxy) async throws ->
            Transducer.Output
    ) {
        let storage = self.storage
        let proxy = self.proxy
        runTask.set(
            Task {
                let result = await Result { try await run(storage, proxy) }
                storage.host?.isRunning = false
                completion?(result)
            })
    }

    /// Writes a new state and tells observers; called by the storage.
    func _setState(_ newValue: Transducer.State) {
        withMutation(keyPath: \.state) {
            storage.state = newValue
        }
    }
}

/// The task of a host's run, so that the host's `deinit` (which is not
/// isolated) can cancel it.
final class RunTaskHandle: Sendable {
    private let task = LockedState<Task<Void, Never>?>(nil)

    func set(_ newTask: Task<Void, Never>) {
        task.withLock { $0 = newTask }
    }

    func cancel() {
        task.withLock { $0 }?.cancel()
    }
}

/// The state of an ``ObservableTransducer``, as the storage its run reads and
/// writes. It owns the state, so that the run can go on (until its
/// cancellation is processed) after the host has been released, and refers
/// to the host only weakly, to report every write to its observers.
///
/// Isolation: the class is main-actor isolated and only used by the run that
/// the host starts on the main actor. The conformance is `@preconcurrency`
/// because ``Storage`` is not isolated; the runtime checks that `value` is
/// indeed used on the main actor.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
final class ObservableTransducerStorage<Transducer: BaseTransducer>: @preconcurrency Storage {
    var state: Transducer.State
    weak var host: ObservableTransducer<Transducer>?
    /// Called with every state the run writes: saves it, for a host made
    /// with ``StateSnapshots``.
    var didWrite: ((Transducer.State) -> Void)?

    init(state: Transducer.State) {
        self.state = state
    }

    var value: Transducer.State {
        get { state }
        set {
            if let host {
                host._setState(newValue)
            } else {
                state = newValue
            }
            didWrite?(newValue)
        }
    }
}
