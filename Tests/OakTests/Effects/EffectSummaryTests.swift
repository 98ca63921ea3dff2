// `Effect.summary`: every kind of effect described as data, without running
// anything.

import Clocks
import Oak
import Testing

/// A transducer whose update returns one effect of each kind, chosen by the
/// event.
enum Summarised: EffectTransducer {
    enum State: NonTerminal {
        case idle
    }

    enum Event: Equatable, Sendable {
        case event, events, action, asyncAction, isolatedAction
        case operation, identified, delayed, cancel, combined, chained
        case done(Int)
    }

    struct Env: Sendable {}

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .event: .event(.done(1))
        case .events: .events(.done(1), .done(2))
        case .action: Effect { _, _ in .done(3) }
        case .asyncAction: Effect(action: { _ in .done(4) })
        case .isolatedAction: Effect(isolatedAction: { _, _ in .done(5) })
        case .operation: Effect { _, input in try input.send(.done(6)) }
        case .identified: Effect(id: "load") { _, _ in }
        case .delayed:
            Effect(id: 7, operation: { _, _ in }, after: .milliseconds(300), clock: TestClock())
        case .cancel: .cancelTask("load")
        case .combined: .combine(.cancelTask("load"), .event(.done(8)), Effect(id: "load") { _, _ in })
        case .chained: .chain(id: "backup", Effect { _, _ in }, Effect { _, _ in })
        case .done: nil
        }
    }

    static func summary(of event: Event) -> EffectSummary<Event>? {
        var state = State.idle
        return update(&state, event: event)?.summary
    }
}

@Suite("Effect summaries")
struct EffectSummaryTests {
    @Test func everyKindIsDescribed() {
        #expect(Summarised.summary(of: .event) == .event(.done(1)))
        #expect(Summarised.summary(of: .events) == .events([.done(1), .done(2)]))
        #expect(Summarised.summary(of: .action) == .action)
        #expect(Summarised.summary(of: .asyncAction) == .asyncAction)
        #expect(Summarised.summary(of: .isolatedAction) == .isolatedAction)
        #expect(Summarised.summary(of: .operation) == .operation())
        #expect(Summarised.summary(of: .identified) == .operation(id: "load"))
        #expect(Summarised.summary(of: .delayed) == .operation(id: 7, delay: .milliseconds(300)))
        #expect(Summarised.summary(of: .cancel) == .cancelTask("load"))
        #expect(Summarised.summary(of: .chained) == .operation(id: "backup"))
        #expect(Summarised.summary(of: .done(0)) == nil)
    }

    @Test func combinationsKeepTheirPartsInOrder() throws {
        let summary = try #require(Summarised.summary(of: .combined))
        #expect(summary == .combined([.cancelTask("load"), .event(.done(8)), .operation(id: "load")]))
        #expect(summary.parts == [.cancelTask("load"), .event(.done(8)), .operation(id: "load")])
        #expect(summary.description == "combined(cancelTask(load), event(done(8)), operation(id: load))")
    }

    @Test func aDelayReadsAsADuration() throws {
        let summary = try #require(Summarised.summary(of: .delayed))
        #expect(summary.description == "operation(id: 7, delay: 0.3 seconds)")
    }
}

@Suite("Effect ids")
struct EffectIDTests {
    @Test func anEffectIDIsNotWrappedAgain() {
        #expect(EffectID(EffectID("load")) == EffectID("load"))
        #expect(EffectID(EffectID(7)).hashValue == EffectID(7).hashValue)
        #expect(EffectID("load") != EffectID(EffectID("save")))
    }
}
