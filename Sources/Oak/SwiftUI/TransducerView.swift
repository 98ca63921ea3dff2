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
/// The view starts a run when it appears (in its `.task`) and the run ends,
/// with every operation cancelled and awaited, when the state becomes
/// terminal, when the proxy is cancelled, when an operation fails, or when
/// the view disappears (SwiftUI cancels the `.task`, and the run ends with
/// `CancellationError`). The run writes every new state through the
/// binding, on the main actor, so the enclosing view sees each change.
///
/// `completion` is called exactly once per run, on the main actor, after the
/// run has ended: `.success(output)` on a terminal state, `.failure(error)`
/// otherwise.
///
/// When the view appears again after its run was cancelled or failed, it
/// starts a new run from the current state of the binding, with a new proxy,
/// and renders its content with the new input; a view whose state is
/// terminal does not start again. A view given a proxy by its caller cannot
/// create another one: it runs that proxy once; give it a new proxy and a new
/// identity (`.id(_:)`) to run again.
///
/// > Note: On Linux, where SwiftUI does not exist, Oak's CI type-checks this
/// > view against a stand-in `SwiftUI` module; it is run on Apple platforms
/// > only.
@MainActor
public struct TransducerView<T: BaseTransducer, Content: View>: View {
    private let state: Binding<T.State>
    private let makeProxy: (() -> T.Proxy)?
    private let run: @MainActor (_BindingStorage<T.State>, T.Proxy) async throws -> T.Output
    private let completion: ((Result<T.Output, any Error>) -> Void)?
    private let content: (T.State, T.Input) -> Content

    /// The proxy of the current (or next) run.
    @SwiftUI.State private var proxy: T.Proxy
    /// Whether `proxy` has been given to a run.
    @SwiftUI.State private var session = _TransducerViewSession()

    /// Creates the view; every public initialiser calls this one.
    init(
        state: Binding<T.State>,
        proxy: T.Proxy,
        makeProxy: (() -> T.Proxy)?,
        completion: ((Result<T.Output, any Error>) -> Void)?,
        run: @escaping @MainActor (_BindingStorage<T.State>, T.Proxy) async throws -> T.Output,
        content: @escaping (T.State, T.Input) -> Content
    ) {
        self.state = state
        self.makeProxy = makeProxy
        self.completion = completion
        self.run = run
        self.content = content
        self._proxy = SwiftUI.State(initialValue: proxy)
    }

    /// The content, drawn from the current state and the input of the run.
    public var body: some View {
        content(state.wrappedValue, proxy.input)
            .task {
                await runWhileVisible()
            }
    }

    /// Runs the transducer until it ends or SwiftUI cancels the task, then
    /// calls `completion`.
    private func runWhileVisible() async {
        if session.isProxySpent {
            // A transducer that reached its terminal state stays finished.
            if state.wrappedValue.isTerminal { return }
            guard let makeProxy else {
                logger.notice(
                    "TransducerView appeared again, but the proxy it was given has already run. Give the view a new proxy and a new identity to run again.",
                    metadata: ["transducer": "\(T.self)"])
                return
            }
            proxy = makeProxy()
        }
        session.isProxySpent = true
        let result: Result<T.Output, any Error>
        do {
            result = .success(try await run(_BindingStorage(binding: state), proxy))
        } catch {
            result = .failure(error)
        }
        completion?(result)
    }
}

/// What a ``TransducerView`` remembers across body evaluations without
/// causing them.
@MainActor
final class _TransducerViewSession {
    var isProxySpent = false
}

/// A binding as the storage of a run: the run reads and writes the state
/// through it, on the main actor.
struct _BindingStorage<Value>: Storage {
    let binding: Binding<Value>

    var value: Value {
        get { binding.wrappedValue }
        nonmutating set { binding.wrappedValue = newValue }
    }
}

// MARK: - Transducer

extension TransducerView where T: Transducer {
    /// Creates a view that runs a ``Transducer`` while it is visible, with
    /// its state in `initialState`.
    ///
    /// - Parameters:
    ///   - type: The transducer to run.
    ///   - initialState: A binding to the state, usually to a `@State` of
    ///     the enclosing view. The run starts from its current value and
    ///     writes every new state to it.
    ///   - output: Receives every output, on the main actor.
    ///   - completion: Called exactly once per run, after it has ended.
    ///   - content: Draws the view from the current state; sends intents
    ///     through the input.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) where T.Proxy == Proxy<T.Event> {
        self.init(
            state: initialState, proxy: Proxy(), makeProxy: { Proxy() }, completion: completion,
            run: { storage, proxy in try await T.run(storage: storage, proxy: proxy, output: output) },
            content: content)
    }

    /// Creates a view that runs a ``Transducer`` with `proxy` while it is
    /// visible; see ``init(of:initialState:output:completion:content:)``.
    /// The view runs `proxy` once.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        proxy: T.Proxy,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) {
        self.init(
            state: initialState, proxy: proxy, makeProxy: nil, completion: completion,
            run: { storage, proxy in try await T.run(storage: storage, proxy: proxy, output: output) },
            content: content)
    }
}

// MARK: - EffectTransducer

extension TransducerView where T: EffectTransducer {
    /// Creates a view that runs an ``EffectTransducer`` while it is visible,
    /// with its state in `initialState`.
    ///
    /// - Parameters:
    ///   - type: The transducer to run.
    ///   - initialState: A binding to the state, usually to a `@State` of
    ///     the enclosing view. The run starts from its current value and
    ///     writes every new state to it.
    ///   - env: The environment the effects receive.
    ///   - output: Receives every output, on the main actor.
    ///   - completion: Called exactly once per run, after it has ended and
    ///     every operation was cancelled and awaited.
    ///   - content: Draws the view from the current state; sends intents
    ///     through the input.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        env: T.Env,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) where T.Proxy == Proxy<T.Event> {
        self.init(
            state: initialState, proxy: Proxy(), makeProxy: { Proxy() }, completion: completion,
            run: { storage, proxy in try await T.run(storage: storage, proxy: proxy, env: env, output: output) },
            content: content)
    }

    /// Creates a view that runs an ``EffectTransducer`` with `proxy` while it
    /// is visible; see ``init(of:initialState:env:output:completion:content:)``.
    /// The view runs `proxy` once.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        proxy: T.Proxy,
        env: T.Env,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) {
        self.init(
            state: initialState, proxy: proxy, makeProxy: nil, completion: completion,
            run: { storage, proxy in try await T.run(storage: storage, proxy: proxy, env: env, output: output) },
            content: content)
    }
}

extension TransducerView where T: EffectTransducer, T.Env == Void {
    /// Creates a view that runs an ``EffectTransducer`` whose effects need no
    /// environment; see ``init(of:initialState:env:output:completion:content:)``.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) where T.Proxy == Proxy<T.Event> {
        self.init(
            of: type, initialState: initialState, env: (), output: output, completion: completion, content: content)
    }

    /// Creates a view that runs an ``EffectTransducer`` whose effects need no
    /// environment, with `proxy`; see
    /// ``init(of:initialState:proxy:env:output:completion:content:)``.
    public init(
        of type: T.Type,
        initialState: Binding<T.State>,
        proxy: T.Proxy,
        output: any Subject<T.Output> = NoCallback<T.Output>(),
        completion: ((Result<T.Output, any Error>) -> Void)? = nil,
        @ViewBuilder content: @escaping (T.State, T.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: (), output: output, completion: completion,
            content: content)
    }
}
#endif
