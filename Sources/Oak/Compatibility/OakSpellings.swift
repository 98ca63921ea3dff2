// Oak 0.34's spellings that do not follow this module's rules, kept so that
// code written against Oak compiles unchanged (`Tests/OakCompatibilityTests`
// holds such code). The designated forms are elsewhere; they follow two
// rules: every `run` returns the final output (`@discardableResult`), and
// every isolation parameter is labelled `isolation:` and defaults to
// `#isolation`, as in the standard library. Every run here is
// `@_disfavoredOverload`: a call that leaves the isolation out resolves to
// the designated form, one that says `systemActor:` or `isolated:` to the
// form here. Use these only in code that must also compile against Oak.
// Decisions 0032 and 0046.

#if canImport(SwiftUI)
import SwiftUI
#endif

// MARK: - Runs

extension BaseTransducer {
    /// Oak's spelling of ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        systemActor: isolated (any Actor)?
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: env, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``BaseTransducer/run(storage:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy,
        env: Env,
        output: some Subject<Output>,
        systemActor: isolated (any Actor)?
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, env: env, output: output, isolation: systemActor)
    }
}

extension Transducer {
    /// Oak's spelling of ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env = (),
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``BaseTransducer/run(storage:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env = (),
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``run(state:host:proxy:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run<Host>(
        state: ReferenceWritableKeyPath<Host, State>,
        host: Host,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(state: state, host: host, proxy: proxy, output: output, isolation: systemActor)
    }

    /// Runs the transducer until its state is terminal, ignoring outputs.
    /// Returns nothing, as in Oak; the designated
    /// ``BaseTransducer/run(initialState:proxy:env:output:isolation:)`` returns the final
    /// output.
    @_disfavoredOverload
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws {
        try await run(initialState: initialState, proxy: proxy, isolation: systemActor)
    }

    /// Runs the transducer against state owned by a host, ignoring outputs.
    /// Returns nothing, as in Oak; the designated
    /// ``BaseTransducer/run(storage:proxy:env:output:isolation:)`` returns the final output.
    @_disfavoredOverload
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws {
        try await run(storage: storage, proxy: proxy, isolation: systemActor)
    }

    /// Oak's spelling of ``run(state:host:proxy:output:isolation:)`` without
    /// an output, its isolation labelled `isolated:`.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run<Host>(
        state: ReferenceWritableKeyPath<Host, State>,
        host: Host,
        proxy: Proxy = Proxy(),
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(state: state, host: host, proxy: proxy, isolation: isolated)
    }
}

extension EffectTransducer {
    /// Oak's spelling of ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env,
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: env, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``BaseTransducer/run(initialState:proxy:env:output:isolation:)``
    /// without an output.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        env: Env,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, env: env, isolation: systemActor)
    }

    /// Oak's spelling of ``BaseTransducer/run(storage:proxy:env:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env,
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, env: env, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``BaseTransducer/run(storage:proxy:env:output:isolation:)``
    /// without an output.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        env: Env,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, env: env, isolation: systemActor)
    }
}

extension EffectTransducer where Env == Void {
    /// Oak's spelling of ``run(initialState:proxy:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``run(initialState:proxy:output:isolation:)``
    /// without an output.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(initialState: initialState, proxy: proxy, isolation: systemActor)
    }

    /// Oak's spelling of ``run(storage:proxy:output:isolation:)``.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        output: some Subject<Output>,
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, output: output, isolation: systemActor)
    }

    /// Oak's spelling of ``run(storage:proxy:output:isolation:)`` without an
    /// output.
    @_disfavoredOverload
    @discardableResult
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(storage: storage, proxy: proxy, isolation: systemActor)
    }
}

// MARK: - Hosts

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.Transducer {
    /// Oak's form of the designated initialiser for a ``Transducer``, with
    /// `completion:` given as a ``ObservableTransducer/Completion`` value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }

    /// Oak's form of the designated initialiser for a ``Transducer`` without an
    /// output, with `completion:` given as a ``ObservableTransducer/Completion``
    /// value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.EffectTransducer {
    /// Oak's form of the designated initialiser for an ``EffectTransducer``, with
    /// `completion:` given as a ``ObservableTransducer/Completion`` value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }

    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an
    /// output, with `completion:` given as a ``ObservableTransducer/Completion``
    /// value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer where Transducer: Oak.EffectTransducer, Transducer.Env == Void {
    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an environment, with
    /// `completion:` given as a ``ObservableTransducer/Completion`` value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }

    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an environment without an
    /// output, with `completion:` given as a ``ObservableTransducer/Completion``
    /// value.
    @_disfavoredOverload
    public convenience init(
        of type: Transducer.Type = Transducer.self,
        initialState: Transducer.State,
        proxy: Transducer.Proxy? = nil,
        completion: Completion? = nil
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } })
    }
}

#if canImport(SwiftUI)
extension TransducerView where Transducer: Oak.Transducer {
    /// Oak's form of the designated initialiser for a ``Transducer``, with
    /// `completion:` given as a ``TransducerView/Completion`` value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }

    /// Oak's form of the designated initialiser for a ``Transducer`` without an
    /// output, with `completion:` given as a ``TransducerView/Completion``
    /// value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }
}

extension TransducerView where Transducer: Oak.EffectTransducer {
    /// Oak's form of the designated initialiser for an ``EffectTransducer``, with
    /// `completion:` given as a ``TransducerView/Completion`` value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }

    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an
    /// output, with `completion:` given as a ``TransducerView/Completion``
    /// value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        env: Transducer.Env,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, env: env, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }
}

extension TransducerView where Transducer: Oak.EffectTransducer, Transducer.Env == Void {
    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an environment, with
    /// `completion:` given as a ``TransducerView/Completion`` value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        output: sending some Subject<Transducer.Output>,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: output,
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }

    /// Oak's form of the designated initialiser for an ``EffectTransducer`` without an environment without an
    /// output, with `completion:` given as a ``TransducerView/Completion``
    /// value.
    @_disfavoredOverload
    public init(
        of type: Transducer.Type = Transducer.self,
        initialState: Binding<Transducer.State>,
        proxy: Transducer.Proxy? = nil,
        completion: Completion? = nil,
        @ViewBuilder content: @escaping (Transducer.State, Transducer.Input) -> Content
    ) {
        self.init(
            of: type, initialState: initialState, proxy: proxy, output: NoCallback(),
            completion: completion.map { completion in { completion.completed(with: $0) } }, content: content)
    }
}
#endif

// MARK: - Names

/// A type that can be created without arguments (for example a state with a
/// natural start value). Oak's; nothing in this module requires it.
public protocol DefaultInitializable {
    /// Creates the default value.
    init()
}

/// The former name of ``Effect``, kept for code written against earlier
/// versions of this module.
public typealias TransducerEffect<T: EffectTransducer> = Effect<T>

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer {
    /// Oak's hosts have content; this one has none.
    public typealias Content = Never
    /// What the host's initialisers take as the initial state (the
    /// associated type of Oak's `TransducerActor`).
    public typealias StateInitialising = Transducer.State
}

#if canImport(SwiftUI)
extension TransducerView {
    /// What the view's initialisers take as the initial state (the
    /// associated type of Oak's `TransducerActor`).
    public typealias StateInitialising = Binding<Transducer.State>
}
#endif
