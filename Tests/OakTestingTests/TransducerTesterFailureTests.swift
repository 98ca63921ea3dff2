// The tester fails when it should, at the line it should, with the message
// it documents: each test provokes one failure inside `withKnownIssue` and
// checks the issue's text and line.

import Clocks
import Foundation
import IssueReporting
import Oak
import OakTesting
import Testing

/// A small feature: `.load` starts an operation that answers after one
/// second on the environment's clock; `.bump` counts; `.tick` changes
/// nothing. Every update outputs the count.
enum Feature: EffectTransducer {
    struct State: NonTerminal, Equatable {
        var count = 0
        var text = ""
        var isLoading = false
    }

    enum Event: Equatable, Sendable {
        case load
        case didLoad(String)
        case bump
        case tick
    }

    struct Env: Sendable {
        var clock: any Clock<Duration>
        /// Called once the load operation has sent its answer.
        var answered: @Sendable () -> Void = {}
    }

    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .load:
            state.isLoading = true
            return (
                Effect(id: "load") { env, input in
                    try await env.clock.sleep(for: .seconds(1))
                    try input.send(.didLoad("loaded"))
                    env.answered()
                }, state.count
            )
        case .didLoad(let text):
            state.isLoading = false
            state.text = text
            return (nil, state.count)
        case .bump:
            state.count += 1
            return (nil, state.count)
        case .tick:
            return (nil, state.count)
        }
    }
}

/// Whether `issue` was reported at `line` and its text contains every one
/// of `fragments`.
func issue(_ issue: Issue, at line: Int, says fragments: String...) -> Bool {
    guard issue.sourceLocation?.line == line else { return false }
    let text = "\(issue)"
    return fragments.allSatisfy { text.contains($0) }
}

/// The texts of the issues a `withKnownIssue` matcher saw, so that a test
/// can require one of several issues reported at the same line.
final class SeenIssues: @unchecked Sendable {
    // Safety: `texts` is read and written under `lock` only.
    private let lock = NSLock()
    private var issues: [(line: Int?, text: String)] = []

    /// The texts seen, in order.
    var texts: [String] { lock.withLock { issues.map(\.text) } }

    /// Records `issue` and returns true: use it inside a matcher.
    func record(_ issue: Issue) -> Bool {
        lock.withLock { issues.append((issue.sourceLocation?.line, "\(issue)")) }
        return true
    }

    /// Whether an issue was seen whose text has every one of `fragments`
    /// (and, if given, at `line`).
    func contains(at line: Int? = nil, _ fragments: String...) -> Bool {
        lock.withLock {
            issues.contains { issue in
                (line == nil || issue.line == line) && fragments.allSatisfy { issue.text.contains($0) }
            }
        }
    }
}

/// Collects what the tester reports through IssueReporting; install it
/// beside the default reporter (`[.default, reporter]`) so that known
/// issues stay known.
final class CollectingReporter: IssueReporter, @unchecked Sendable {
    // Safety: `messages` is read and written under `lock` only.
    private let lock = NSLock()
    private var collected: [String] = []

    var messages: [String] { lock.withLock { collected } }

    func reportIssue(
        _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
        filePath: StaticString, line: UInt, column: UInt
    ) {
        let text = message() ?? ""
        lock.withLock { collected.append(text) }
    }
}

@Suite("TransducerTester reports failures")
struct TransducerTesterFailureTests {
    func makeTester(_ exhaustivity: Exhaustivity = .on) -> (TransducerTester<Feature>, TestClock<Duration>) {
        let clock = TestClock()
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(), env: Feature.Env(clock: clock), exhaustivity: exhaustivity)
        return (tester, clock)
    }

    @Test func aWrongExpectationFailsWithADiffAtTheLineOfTheSend() async {
        let (tester, _) = makeTester()
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.bump, output: 1) { $0.count = 2 }
        } matching: { issue in
            OakTestingTests.issue(
                issue, at: line, says: "The state does not match the expectation", "−   count: 2,",
                "+   count: 1,")
        }
        await tester.finish()
    }

    @Test func aChangeThatWasNotAssertedFails() async {
        let (tester, _) = makeTester()
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.bump, output: 1)
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "The state changed, but no change was asserted")
        }
        await tester.finish()
    }

    @Test func anExpectedChangeThatDidNotHappenFails() async {
        let (tester, _) = makeTester()
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.tick, output: 0) { _ in }
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "Expected the state to change, but no change occurred")
        }
        await tester.finish()
    }

    @Test func aWrongOutputFails() async {
        let (tester, _) = makeTester()
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.bump, output: 5) { $0.count = 1 }
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "The output does not match", "− 5", "+ 1")
        }
        await tester.finish()
    }

    @Test func anUnassertedOutputFailsAtTheNextStep() async {
        let (tester, _) = makeTester()
        await tester.send(.bump) { $0.count = 1 }
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.tick)
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "Outputs were produced and not asserted", "1")
        }
        tester.expectOutput(1)
        await tester.finish()
    }

    @Test func anUnassertedReceivedEventFailsAtFinish() async {
        let (tester, clock) = makeTester()
        await tester.send(.load, output: 0) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        let line = #line + 3
        let seen = SeenIssues()
        await withKnownIssue {
            await tester.finish()
        } matching: { issue in
            issue.sourceLocation?.line == line && seen.record(issue)
        }
        // The output of the answer is unasserted too; the event must be
        // reported in any case.
        #expect(seen.contains("must be received before finishing", "didLoad(\"loaded\")"))
    }

    @Test func anOperationStillRunningIsReportedAtTheSendThatStartedIt() async {
        let (tester, _) = makeTester()
        let line = #line + 1
        await tester.send(.load, output: 0) { $0.isLoading = true }
        await withKnownIssue {
            await tester.finish(timeout: .milliseconds(50))
        } matching: { issue in
            OakTestingTests.issue(
                issue, at: line, says: "An operation started by this event is still running",
                "operation #1 (id: load)")
        }
    }

    @Test func aReceiveThatNothingAnswersTimesOut() async {
        let (tester, _) = makeTester()
        await tester.send(.load, output: 0) { $0.isLoading = true }
        let line = #line + 2
        await withKnownIssue {
            await tester.receive(.didLoad("loaded"), timeout: .milliseconds(50))
        } matching: { issue in
            OakTestingTests.issue(
                issue, at: line, says: "Expected to receive", "no event arrived", "operation #1 (id: load)")
        }
        await tester.skipInFlightEffects()
        await tester.finish()
    }

    @Test func receivingTheWrongEventFails() async {
        let (tester, clock) = makeTester()
        await tester.send(.load, output: 0) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        let line = #line + 2
        await withKnownIssue {
            await tester.receive(.didLoad("other"), output: 0)
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "Expected to receive", "but received")
        }
        await tester.finish()
    }

    @Test func sendingWithAReceivedEventUnassertedFails() async {
        let clock = TestClock()
        let (answers, answered) = AsyncStream.makeStream(of: Void.self)
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(),
            env: Feature.Env(clock: clock, answered: { answered.yield() }))
        await tester.send(.load, output: 0) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        // The answer was sent: the next `send` processes it first and fails.
        for await _ in answers { break }
        let line = #line + 3
        let seen = SeenIssues()
        await withKnownIssue {
            await tester.send(.tick, output: 0)
        } matching: { issue in
            issue.sourceLocation?.line == line && seen.record(issue)
        }
        #expect(seen.contains("must be received before sending an event", "didLoad(\"loaded\")"))
        await tester.finish()
    }

    @Test func aTesterReleasedWithoutFinishFailsAtItsCreation() async {
        let line = #line + 2
        withKnownIssue {
            let tester = TransducerTester(
                Feature.self, initialState: Feature.State(), env: Feature.Env(clock: TestClock()))
            _ = tester
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "released without finish()")
        }
    }

    @Test func aTesterReleasedWithAnOperationRunningReportsItAtItsSend() async {
        let seen = SeenIssues()
        let created = #line + 3
        let sent = #line + 4
        await withKnownIssue {
            var tester: TransducerTester<Feature>? = TransducerTester(
                Feature.self, initialState: Feature.State(), env: Feature.Env(clock: TestClock()))
            await tester?.send(.load, output: 0) { $0.isLoading = true }
            tester = nil
        } matching: { issue in
            seen.record(issue)
        }
        #expect(seen.contains(at: created, "released without finish()"))
        #expect(seen.contains(at: sent, "still running when the tester was released", "id: load"))
    }
}

@Suite("TransducerTester, non-exhaustive")
struct NonExhaustiveTesterTests {
    @Test func partialAssertionsPassAndLeftoversAreNotFailures() async {
        let clock = TestClock()
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(), env: Feature.Env(clock: clock), exhaustivity: .off)
        await tester.send(.bump)
        await tester.send(.bump) { $0.count = 2 }
        await tester.send(.load) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        await tester.receive(.didLoad("loaded")) { $0.text = "loaded" }
        await tester.finish()
    }

    @Test func aPartialAssertionThatContradictsTheStateFails() async {
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(), env: Feature.Env(clock: TestClock()), exhaustivity: .off)
        let line = #line + 2
        await withKnownIssue {
            await tester.send(.bump) { $0.count = 3 }
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "The state does not match the expectation")
        }
        await tester.finish()
    }

    @Test func skippedAssertionsCanBeShownAsKnownIssues() async {
        let clock = TestClock()
        let (answers, answered) = AsyncStream.makeStream(of: Void.self)
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(),
            env: Feature.Env(clock: clock, answered: { answered.yield() }),
            exhaustivity: .off(showSkippedAssertions: true))
        await tester.send(.load) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        for await _ in answers { break }
        // Shown as known issues, not failures: the outputs and the event
        // received are skipped.
        let reporter = CollectingReporter()
        await withIssueReporters([.default, reporter]) {
            await tester.skipReceivedEvents()
            await tester.finish()
        }
        #expect(reporter.messages.contains { $0.contains("Skipped receiving") && $0.contains("didLoad") })
    }

    @Test func skippedOperationsCanBeShownAsKnownIssues() async {
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(), env: Feature.Env(clock: TestClock()),
            exhaustivity: .off(showSkippedAssertions: true))
        await tester.send(.load) { $0.isLoading = true }
        let reporter = CollectingReporter()
        await withIssueReporters([.default, reporter]) {
            await tester.skipInFlightEffects()
        }
        await tester.finish()
        #expect(reporter.messages.contains { $0.contains("Skipped operations") && $0.contains("load") })
    }
}

/// On the main actor: the tester and its run use the test's isolation.
@Suite("TransducerTester, receiving by predicate")
@MainActor
struct PredicateReceiveTests {
    @Test func anEventIsReceivedByItsCase() async {
        let clock = TestClock()
        let tester = TransducerTester(Feature.self, initialState: Feature.State(), env: Feature.Env(clock: clock))
        await tester.send(.load, output: 0) { $0.isLoading = true }
        await clock.advance(by: .seconds(1))
        await tester.receive({ if case .didLoad = $0 { true } else { false } }) {
            $0.isLoading = false
            $0.text = "loaded"
        }
        tester.expectOutput(0)
        await tester.finish()
    }
}
