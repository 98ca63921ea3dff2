// A SwiftUI view that hosts a transducer, its state in the enclosing view's
// `@State` (Apple platforms; type-checked on Linux against the stand-in module).

#if canImport(SwiftUI)
import SwiftUI

/// A SwiftUI view that hosts a transducer: its state lives in a `@State` of
/// the enclosing view, passed in as a binding, and its content is drawn from
/// that state and the transducer's input.
///
/// ```swift
/// struct CounterView: View {
///     @State private var state = SimpleCounter.State()
///
///     var body: some View {
///         TransducerView(of: SimpleCounter.self, initialState: $state) { state, input in
///             VStack {
///                 Text("Count: \(state.count)")
///                 Button("Increment") { try? input.send(.increment) }
///             }
///         }
///     }
/// }
/// ```
///
/// ## Lifetime
///
/// The view starts its run the first time it appears, as in Oak, and the run
/// lasts as long as the view's identity: it goes on while the view is off
/// screen (another tab, a pushed screen) and is not restarted when the view
/// appears again. It ends, with every operation cancelled and awaited, when
/// the state becomes terminal, when the proxy or ``cancel()`` cancels it,
/// when an operation fails, or when SwiftUI removes the view and discards
/// its state (its task is cancelled: `CancellationError`). The run writes
/// every new state through the binding, on the main actor, so the enclosing
/// view sees each change.
///
/// `completion` is called exactly once, on the main actor, after the run has
/// ended: `.success(output)` on a terminal state, `.failure(error)`
/// otherwise.
///
/// > Note: On Linux, where SwiftUI does not exist, Oak's CI type-checks this
/// > view against a stand-in `SwiftUI` module; it is run on Apple platforms
/// > only.
@MainActor
public struct TransducerView<Transducer: BaseTransducer, Content: View>: View {
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
    /// Where the run keeps the state: the binding the view is given.
    public typealias Storage = Binding<Transducer.State>

    /// What the view calls when its run has ended: exactly once, on the main
    /// actor, with `.success(output)` on a terminal state or
    /// `.failure(error)` on cancellation or failure.
    public struct Completion: Completable {
        /// The output of a run that reached a terminal state.
        public typealias Value = Transducer.Output
        /// The error of a run that was cancelled or failed.
        public typealias Failure = any Error

        let onCompletion: (Result<Value, Failure>) -> Void

        /// A completion that does nothing.
        public init() {
            onCompletion = { _ in }
        }

        /// Creates a completion that calls `onCompletion`.
        public init(_ onCompletion: @escaping (Result<Value, Failure>) -> Void) {
            self.onCompletion = onCompletion
        }

        /// Calls the closure with `result`.
        public func completed(with result: Result<Value, Failure>) {
            onCompletion(result)
        }
    }

    private let state: Binding<Transducer.State>
    private let run: @MainActor (BindingStorage<Transducer.State>, Transducer.Proxy) async throws -> Transducer.Output
    private let completion: ((Result<Transducer.Output, any Error>) -> Void)?
    private let content: (Transducer.State, Transducer.Input) -> Content

    /// The proxy of the run, kept for the view's identity.
    @SwiftUI.State private var proxy: Transducer.Proxy
    /// The run's task, kept for the view's identity; cancelled when SwiftUI
    /// discards it.
    @SwiftUI.State private var session = TransducerViewSession()

    /// Creates the view; every public initialiser calls this one.
    init(
        state: Binding<Transducer.State>,
        proxy: Transducer.Proxy,
        completion: ((Result<Transducer.Output, any Error>) -> Void)?,
        run:
            @escaping @MainActor (BindingStorage<Transducer.State>, Transducer.Proxy) async throws -> Transducer.Output,
        content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.state = state
        self.completion = completion
        self.run = run
        self.content = content
        self._proxy = SwiftUI.State(initialValue: proxy)
    }

    /// The content, drawn from the current state and the input of the run.
    public var body: some View {
        content(state.wrappedValue, proxy.input)
            .task {
                startIfNeeded()
            }
    }

    /// Ends the run: cancels it through its proxy (``TransducerError/cancelled``).
    public func cancel() {
        proxy.cancel()
    }

    /// Starts the run once per view identity, in a task that outlives the
    /// view's `.task` and is cancelled when SwiftUI discards the view's
    /// state.
    private func startIfNeeded() {
        guard !session.hasStarted else { return }
        session.hasStarted = true
        let storage = BindingStorage(binding: state)
        let proxy = self.proxy
        let run = self.run
        let completion = self.completion
        session.task.set(
            Task {
                let result = await Result { try await run(storage, proxy) }
                completion?(result)
            })
    }
}

/// What a ``TransducerView`` keeps for its identity without causing
/// updates: whether its run has started, and the run's task, cancelled when
/// SwiftUI discards the view's state.
@MainActor
final class TransducerViewSession {
    var hasStarted = false
    let task = RunTaskHandle()

    deinit {
        task.cancel()
    }
}

/// A binding as the storage of a run: the run reads and writes the state
/// through it, on the main actor.
struct BindingStorage<Value>: Storage {
    let binding: Binding<Value>

    var value: Value {
        get { binding.wrappedValue }
        nonmutating set { binding.wrappedValue = newValue }
    }
}

// MARK: - Transducer

// The designated initialisers: one per kind of transducer; `output:` and
// `completion:` (a closure) may be left out. Oak's forms that take
// `completion:` as a `Completion` value are in `Compatibility/`.

extension TransducerView where Transducer: Oak.Transducer {
    /// Creates a view that runs a ``Transducer`` from the first time it
    /// appears, with its state in `initialState`.
    ///
    /// - Parameters:
    ///   - type: The transducer to run; may be left out when the type is
    ///     known from the context.
    ///   - initialState: A binding to the state, usually to a `@State` of
    ///     the enclosing view. The run starts from its current value and
    ///     writes every new state to it.
    ///   - proxy: The event channel of the run, or `nil` for a new one.
    ///   - output: Receives every output, on the main actor. Left out,
    ///     outputs are ignored.
    ///   - completion: Called exactly once, after the run has ended.
    ///   - content: Draws the view from the current state; sends intents
    ///     through the input.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            state: initialState, proxy: proxy ?? Transducer.Proxy(), completion: completion,
            run: { storage, proxy in try await Transducer.run(storage: storage, proxy: proxy, output: output) },
            content: content)
    }

    /// The same, for a run whose outputs nobody observes.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(), completion: completion,
            content: content)
    }
}

// MARK: - EffectTransducer

extension TransducerView where Transducer: Oak.EffectTransducer {
    /// The environment of the transducer's effects.
    public typealias Env = Transducer.Env

    /// Creates a view that runs an ``EffectTransducer`` from the first time
    /// it appears, with its state in `initialState`.
    ///
    /// - Parameters:
    ///   - type: The transducer to run; may be left out when the type is
    ///     known from the context.
    ///   - initialState: A binding to the state, usually to a `@State` of
    ///     the enclosing view. The run starts from its current value and
    ///     writes every new state to it.
    ///   - proxy: The event channel of the run, or `nil` for a new one.
    ///   - env: The environment the effects receive; it need not be
    ///     `Sendable`: the run uses it on the main actor.
    ///   - output: Receives every output, on the main actor. Left out,
    ///     outputs are ignored.
    ///   - completion: Called exactly once, after the run has ended and
    ///     every operation was cancelled and awaited.
    ///   - content: Draws the view from the current state; sends intents
    ///     through the input.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        // Safety: the environment is used on the main actor only, by the run
        // this view starts there.
        nonisolated(unsafe) let env = env
        self.init(
            state: initialState, proxy: proxy ?? Transducer.Proxy(), completion: completion,
            run: { storage, proxy in try await Transducer.run(storage: storage, proxy: proxy, env: env, output: output)
            },
            content: content)
    }

    /// The same, for a run whose outputs nobody observes.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(), completion: completion,
            content: content)
    }
}

extension TransducerView where Transducer: Oak.EffectTransducer, Transducer.Env == Void {
    /// Creates a view that runs an ``EffectTransducer`` whose effects need
    /// no environment; see the initialiser that takes `env:`.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: (), output: output, completion: completion,
            content: content)
    }

    /// The same, for a run whose outputs nobody observes.
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        completion: ((Result<Transducer.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(), completion: completion,
            content: content)
    }
}
#endif
