// Exhaustive steps of a feature's run with OakTesting's tester, for the
// features whose output is their state: each step names the event and the
// change it makes, and the tester checks every output against it.

import Oak
import OakTesting

/// A tester of a transducer whose output is its state, checking every
/// output: the helpers follow the expected state themselves (the tester's
/// may already be ahead when effects answered without waiting).
public final class Steps<T: BaseTransducer>
where T.State: Equatable, T.Output == T.State, T.Event: Equatable & Sendable {
    /// The tester.
    public let tester: TransducerTester<T>
    /// The state expected after the last step.
    public private(set) var expected: T.State
    /// What every step does to the state before its own change (a field
    /// that `update` resets each time, such as a request).
    private let eachStep: ((inout T.State) -> Void)?

    /// Steps of `tester`, from `initialState`.
    public init(
        _ tester: TransducerTester<T>, initialState: T.State, eachStep: ((inout T.State) -> Void)? = nil
    ) {
        self.tester = tester
        expected = initialState
        self.eachStep = eachStep
    }

    /// The change a step asserts: every step's, then its own; none when
    /// the step changes nothing.
    private func assertion(_ change: ((inout T.State) -> Void)?) -> ((inout T.State) -> Void)? {
        guard let change else { return nil }
        let eachStep = self.eachStep
        return { state in
            eachStep?(&state)
            change(&state)
        }
    }

    /// Sends `event`; `change` makes the expected state (none: unchanged).
    public func send(
        _ event: T.Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column, _ change: ((inout T.State) -> Void)? = nil
    ) async {
        eachStep?(&expected)
        change?(&expected)
        await tester.send(
            event, output: expected, assert: assertion(change), fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Receives `event`; `change` makes the expected state.
    public func receive(
        _ event: T.Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column, _ change: ((inout T.State) -> Void)? = nil
    ) async {
        eachStep?(&expected)
        change?(&expected)
        await tester.receive(
            event, output: expected, assert: assertion(change), fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Ends the test: nothing else may happen.
    public func finish(fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line) async {
        await tester.finish(fileID: fileID, filePath: filePath, line: line)
    }
}
