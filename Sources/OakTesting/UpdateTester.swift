import CustomDump
import Oak

/// Tests `update` alone: sends events to a state, checks each state change,
/// and hands back the output and the effects as data, without running them.
///
/// ```swift
/// var search = UpdateTester(Search.self, state: Search.State())
/// search.send(.queryChanged("oak")) { $0.query = "oak" }
///     .expectEffects([.operation(id: "search", delay: .milliseconds(300))])
/// search.send(.clear) { $0.query = "" }
///     .expectEffects([.cancelTask("search")])
/// ```
///
/// Nothing runs: an operation is described by its id and delay
/// (`EffectSummary`), so a test of the rules needs no environment, no
/// clock and no `await`. Test what the effects do, and what comes back, with
/// ``TransducerTester``.
public struct UpdateTester<T: BaseTransducer> where T.State: Equatable {
    /// The state after the last event.
    public private(set) var state: T.State

    private let step: (inout T.State, T.Event) -> (EffectSummary<T.Event>?, T.Output)
    /// The state the tester started from, and every event sent since: a
    /// failure's recording replays them (`update` is pure), so nothing but
    /// the events is kept until then.
    private let initialState: T.State
    private var sent: [T.Event] = []

    private init(state: T.State, step: @escaping (inout T.State, T.Event) -> (EffectSummary<T.Event>?, T.Output)) {
        self.state = state
        self.initialState = state
        self.step = step
    }

    /// Reports `message` at `site`, with where the steps up to here were
    /// recorded for `oak-inspector open`.
    private func fail(_ site: CallSite, _ message: String) {
        site.fail(
            message
                + FailureRecordings.replaying(
                    T.self, from: initialState, events: sent, step: step, failure: message, at: site))
    }

    /// Calls `update` with `event` and checks the state change: the closure
    /// turns the state before the event into the state expected after it;
    /// leave it out when the state must not change. A mismatch fails with a
    /// diff at the caller's line.
    ///
    /// - Returns: The output and the effects, for further checks.
    @discardableResult
    public mutating func send(
        _ event: T.Event,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> UpdateResult<T> {
        let site = CallSite(fileID, filePath, line, column)
        let before = state
        let (effect, output) = step(&state, event)
        sent.append(event)
        var expected = before
        do {
            try updateStateToExpectedResult?(&expected)
        } catch {
            fail(site, "The state assertion threw an error: \(error)")
        }
        if expected != state {
            let difference = diff(expected, state, format: .proportional).map { "\n\n\($0.indent(by: 4))" } ?? ""
            fail(
                site,
                (updateStateToExpectedResult == nil
                    ? "The state changed, but no change was asserted:"
                    : "The state does not match the expectation:") + " (− expected, + actual)\(difference)")
        } else if updateStateToExpectedResult != nil, before == state {
            fail(
                site,
                "Expected the state to change, but no change occurred. The assertion closure made no change "
                    + "either: leave it out when the state must stay the same.")
        }
        return UpdateResult(event: event, state: state, output: output, effect: effect)
    }
}

extension UpdateTester where T: EffectTransducer {
    /// A tester of the effect transducer `type`'s `update`, from `state`.
    public init(_ type: T.Type = T.self, state: T.State) {
        self.init(state: state) { state, event in
            let (effect, output) = T.compute(&state, event: event)
            return (effect?.summary, output)
        }
    }
}

extension UpdateTester where T: Transducer {
    /// A tester of the pure transducer `type`'s `update`, from `state`.
    public init(_ type: T.Type = T.self, state: T.State) {
        self.init(state: state) { state, event in (nil, T.update(&state, event: event)) }
    }
}

/// What one call of `update` produced: the state after it, the output, and
/// the effect as data.
public struct UpdateResult<T: BaseTransducer> {
    /// The event `update` was called with.
    public let event: T.Event
    /// The state after the event.
    public let state: T.State
    /// The output of the update.
    public let output: T.Output
    /// The effect, as data; `nil` when `update` returned none.
    public let effect: EffectSummary<T.Event>?

    /// The effect's parts, combinations flattened, in the order they
    /// execute; empty when `update` returned no effect.
    public var effects: [EffectSummary<T.Event>] { effect?.parts ?? [] }
}

extension UpdateResult where T.Event: Equatable {
    /// Checks that the effects are exactly `expected`, in this order
    /// (combinations flattened).
    @discardableResult
    public func expectEffects(
        _ expected: [EffectSummary<T.Event>],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        if effects != expected {
            CallSite(fileID, filePath, line, column).fail(
                "The effects do not match: (− expected, + actual)\n\n"
                    + (diff(expected, effects, format: .proportional) ?? "").indent(by: 4))
        }
        return self
    }

    /// Checks that the effects include every one of `expected`, in any order
    /// and among others.
    @discardableResult
    public func expectEffects(
        including expected: [EffectSummary<T.Event>],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        var remaining = effects
        var missing: [EffectSummary<T.Event>] = []
        for effect in expected {
            if let index = remaining.firstIndex(of: effect) {
                remaining.remove(at: index)
            } else {
                missing.append(effect)
            }
        }
        if !missing.isEmpty {
            CallSite(fileID, filePath, line, column).fail(
                "Expected effects are missing: \(missing.map(\.description).joined(separator: ", ")). "
                    + "The update returned: \(effects.isEmpty ? "no effect" : effects.map(\.description).joined(separator: ", "))."
            )
        }
        return self
    }
}

extension UpdateResult {
    /// Checks that `update` returned no effect.
    @discardableResult
    public func expectNoEffect(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        if let effect {
            CallSite(fileID, filePath, line, column).fail("Expected no effect, but the update returned \(effect).")
        }
        return self
    }
}

extension UpdateResult where T.Output: Equatable {
    /// Checks the output of the update.
    @discardableResult
    public func expectOutput(
        _ expected: T.Output,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Self {
        if output != expected {
            CallSite(fileID, filePath, line, column).fail(
                "The output does not match: (− expected, + actual)\n\n"
                    + (diff(expected, output, format: .proportional) ?? "").indent(by: 4))
        }
        return self
    }
}
