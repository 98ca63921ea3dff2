// Oak 0.34's spellings that do not follow this module's rules, kept so that
// code written against Oak compiles unchanged (`Tests/OakCompatibilityTests`
// holds such code). The designated forms are elsewhere; they follow two
// rules: every `run` returns the final output (`@discardableResult`), and
// every isolation parameter is labelled `systemActor:`. Use these only in
// code that must also compile against Oak. Decision 0032.

#if canImport(SwiftUI)
import SwiftUI
#endif

// MARK: - Runs

extension Transducer {
    /// Runs the transducer until its state is terminal, ignoring outputs.
    /// Returns nothing, as in Oak: pass `output:` to receive the final
    /// output.
    @inlinable
    public static func run(
        initialState: State,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws {
        try await run(initialState: initialState, proxy: proxy, output: NoCallback<Output>(), systemActor: systemActor)
    }

    /// Runs the transducer against state owned by a host, ignoring outputs.
    /// Returns nothing, as in Oak: pass `output:` to receive the final
    /// output.
    @inlinable
    public static func run(
        storage: some Storage<State>,
        proxy: Proxy = Proxy(),
        systemActor: isolated (any Actor)? = #isolation
    ) async throws {
        try await run(storage: storage, proxy: proxy, output: NoCallback<Output>(), systemActor: systemActor)
    }

    /// Runs the transducer against the state kept in property `state` of
    /// `host`, ignoring outputs; see
    /// ``run(state:host:proxy:output:systemActor:)``. The isolation
    /// parameter is labelled `isolated`, as in Oak.
    @discardableResult
    @inlinable
    public static func run<Host>(
        state: ReferenceWritableKeyPath<Host, State>,
        host: Host,
        proxy: Proxy = Proxy(),
        isolated: isolated (any Actor)? = #isolation
    ) async throws -> Output {
        try await run(state: state, host: host, proxy: proxy, output: NoCallback<Output>(), systemActor: isolated)
    }
}

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
