// An effect as data, for tests and tools: what it does, without running it.

/// What an effect does, as data: its kind, an operation's id and delay, the
/// parts of a combination. It lets a test check the effects that `update`
/// returns without running them.
///
/// ```swift
/// var state = Search.State()
/// let (effect, _) = Search.compute(&state, event: .queryChanged("oak"))
/// #expect(effect?.summary == .operation(id: "search", delay: .milliseconds(300)))
/// ```
///
/// A summary describes; it does not run anything. Closures (the work of
/// actions and operations) are not part of it: an action is `.action`, an
/// operation is known by its id and delay. `OakTesting` builds its effect
/// matchers on it.
public enum EffectSummary<Event>: CustomStringConvertible {
    /// `.event(_:)`: an action that returns this event.
    case event(Event)
    /// `.events(_:)`: an action that returns these events, in order.
    case events([Event])
    /// `Effect { env, input in … }`: a synchronous action.
    case action
    /// `Effect(action:)`: an action on an isolation of its own.
    case asyncAction
    /// `Effect(isolatedAction:)`: an action on the isolation of `run`.
    case isolatedAction
    /// An operation (`Effect(id:operation:)`, `Effect(id:isolatedOperation:)`,
    /// `chain`), with its id and, for a delayed operation, its delay. A delay
    /// on a clock whose duration is not `Swift.Duration` reads `nil`.
    case operation(id: EffectID? = nil, delay: Duration? = nil)
    /// `.cancelTask(_:)`.
    case cancelTask(EffectID)
    /// `.sequence(_:)` or `.combine(_:)`: these effects, in order.
    case combined([EffectSummary<Event>])

    /// The effects this one consists of, with combinations flattened, in the
    /// order they execute.
    public var parts: [EffectSummary<Event>] {
        guard case .combined(let effects) = self else { return [self] }
        return effects.flatMap(\.parts)
    }

    /// For example `operation(id: load, delay: 0.3 seconds)`.
    public var description: String {
        switch self {
        case .event(let event): "event(\(event))"
        case .events(let events): "events(\(events.map { "\($0)" }.joined(separator: ", ")))"
        case .action: "action"
        case .asyncAction: "asyncAction"
        case .isolatedAction: "isolatedAction"
        case .operation(let id, let delay):
            "operation("
                + [id.map { "id: \($0)" }, delay.map { "delay: \($0)" }].compactMap { $0 }
                .joined(separator: ", ") + ")"
        case .cancelTask(let id): "cancelTask(\(id))"
        case .combined(let effects): "combined(\(effects.map(\.description).joined(separator: ", ")))"
        }
    }
}

extension EffectSummary: Equatable where Event: Equatable {}
extension EffectSummary: Hashable where Event: Hashable {}
extension EffectSummary: Sendable where Event: Sendable {}

extension Effect {
    /// What this effect does, as data; see ``EffectSummary``.
    ///
    /// - Complexity: O(n) in the number of parts of a combination; reading
    ///   it costs the run nothing, since the run never asks.
    public var summary: EffectSummary<Event> {
        switch storage {
        case .event(let event): .event(event)
        case .action, .perform: .action
        case .asyncAction: .asyncAction
        case .operation: .operation(id: nil, delay: nil)
        case .boxed(let box):
            switch box.kind {
            case .events(let events): .events(events)
            case .asyncActions: .asyncAction
            case .isolatedAction: .isolatedAction
            case .operation(let operation): .operation(id: operation.id, delay: operation.delay as? Duration)
            case .cancel(let id): .cancelTask(id)
            case .combined(let effects): .combined(effects.map(\.summary))
            }
        }
    }
}
