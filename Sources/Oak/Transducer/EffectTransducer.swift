// The transducer whose `update` also returns an effect, and the two forms of
// that `update` (`Effect?`, or `(Effect?, Output)`). Its `run` overloads are
// in `EffectTransducer+Run.swift`.

/// A finite-state transducer whose `update` also returns an effect (``Effect``): side
/// work that the runtime executes with an environment `Env`.
///
/// `update` returns either `Effect?` (no output) or `(Effect?, Output)`:
///
/// ```swift
/// enum Loader: EffectTransducer {
///     enum State: Terminable { case idle, loading, done(String)
///         var isTerminal: Bool { if case .done = self { true } else { false } }
///     }
///     enum Event { case start, loaded(String) }
///     struct Env: Sendable { var load: @Sendable () async throws -> String }
///
///     static func update(_ state: inout State, event: Event) -> Self.Effect? {
///         switch (state, event) {
///         case (.idle, .start):
///             state = .loading
///             return Effect { env, input in try input.send(.loaded(try await env.load())) }
///         case (.loading, .loaded(let text)):
///             state = .done(text)
///             return nil
///         default:
///             return nil
///         }
///     }
/// }
/// ```
///
/// `Self.Effect` and `Oak.Effect<Self>` name the effect type, ``Effect``;
/// generic code writes `T.Effect`. As in Oak, a bare `Effect` names it only in
/// members declared after `update` and in extensions; in `update`'s own
/// signature write `Self.Effect?` (a bare `Effect` there is the generic
/// module-level type and needs `<Self>`).
public protocol EffectTransducer: BaseTransducer where Effect == Oak.Effect<Self> {
    /// The state; may be inferred from ``update(_:event:)``.
    associatedtype State
    /// The events; may be inferred from ``update(_:event:)``.
    associatedtype Event
    /// The dependencies effects receive (services, clocks, configuration).
    associatedtype Env = Void
    /// The value each update produces: `Void` (the default) when `update`
    /// returns only `Effect?`. Declare it (`typealias Output = Int`) when
    /// `update` returns `(Effect?, Output)`.
    associatedtype Output = Void
    /// The event channel: the buffered ``Proxy`` unless declared
    /// (`typealias Proxy = SyncSuspendingProxy<Event>`).
    associatedtype Proxy = Oak.Proxy<Event>
    /// What `update` returns: `Effect?`, or `(Effect?, Output)`.
    associatedtype TransducerOutput

    /// Computes the next state, the effect to execute and (optionally) the
    /// output for `event`. Called serially, never concurrently, on the
    /// isolation of the caller of `run`.
    static func update(_ state: inout State, event: Event) -> TransducerOutput

    /// Splits the result of `update` into effect and output. Provided by Oak
    /// for both forms of `update`; do not implement it.
    static func _split(_ result: TransducerOutput) -> (Oak.Effect<Self>?, Output)

    /// Whether a run delivers outputs to its output subject: `false` when
    /// `update` returns only `Effect?` (there is no output to deliver).
    /// Provided by Oak for both forms of `update`; do not implement it.
    static var _deliversOutput: Bool { get }
}

extension EffectTransducer where TransducerOutput == Oak.Effect<Self>?, Output == Void {
    /// `update` returns only an effect: the output is `Void`.
    @inlinable
    public static func _split(_ result: TransducerOutput) -> (Oak.Effect<Self>?, Output) { (result, ()) }

    /// `false`: a transducer whose `update` returns only an effect has no
    /// output to deliver.
    @inlinable
    public static var _deliversOutput: Bool { false }
}

extension EffectTransducer where TransducerOutput == (Oak.Effect<Self>?, Output) {
    /// `update` returns an effect and an output.
    @inlinable
    public static func _split(_ result: TransducerOutput) -> (Oak.Effect<Self>?, Output) { result }

    /// `true`: every update's output is delivered.
    @inlinable
    public static var _deliversOutput: Bool { true }
}

extension EffectTransducer {
    /// Calls ``update(_:event:)`` and returns its effect and output as a
    /// pair, whichever form `update` has: the step the run loop takes for
    /// every event, for tests and tools that drive a transducer by hand.
    @inlinable
    public static func compute(_ state: inout State, event: Event) -> (Effect?, Output) {
        _split(update(&state, event: event))
    }
}

// MARK: - Action factories

extension EffectTransducer where Env: Sendable {
    /// An action on a global actor or an isolation of its own that returns
    /// the next event; the same as `Effect(action:)`, written unqualified
    /// inside `update`:
    ///
    /// ```swift
    /// return action { @MainActor env in .didConfigure(env.configure()) }
    /// ```
    @inlinable
    public static func action(
        _ action: @Sendable @escaping @isolated(any) (Env) async throws -> sending Event
    ) -> Oak.Effect<Self> {
        Effect(action: action)
    }

    /// An action on a global actor or an isolation of its own that returns
    /// several events, processed in order and depth first.
    @inlinable
    public static func action(
        _ action: @Sendable @escaping @isolated(any) (Env) async throws -> sending [Event]
    ) -> Oak.Effect<Self> {
        Effect(action: action)
    }
}

extension EffectTransducer {
    /// An action on the isolation of `run` that returns the next event; the
    /// same as `Effect(isolatedAction:)`, written unqualified inside `update`:
    ///
    /// ```swift
    /// return action(isolatedAction: { env, isolated in .didConfigure(env.configure()) })
    /// ```
    @inlinable
    public static func action(
        isolatedAction action: @Sendable @escaping (Env, isolated any Actor) async throws -> sending Event
    ) -> Oak.Effect<Self> {
        Effect(isolatedAction: action)
    }

    /// An action on the isolation of `run` that returns several events,
    /// processed in order and depth first.
    @inlinable
    public static func action(
        isolatedAction action: @Sendable @escaping (Env, isolated any Actor) async throws -> sending [Event]
    ) -> Oak.Effect<Self> {
        Effect(isolatedAction: action)
    }
}
