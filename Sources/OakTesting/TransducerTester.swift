import CustomDump
import Foundation
import IssueReporting
import Oak

/// Runs a transducer for a test and checks, exhaustively by default, every
/// state change, every event that its effects send back, every output and
/// every operation.
///
/// ```swift
/// @Test func loadsAComic() async {
///     let tester = TransducerTester(ComicViewer.self, initialState: .idle, env: .mock)
///     await tester.send(.show(5)) { $0 = .loading(5) }
///     await tester.receive(.didLoad(.sample)) { $0 = .showing(.sample) }
///     await tester.finish()
/// }
/// ```
///
/// The run is the real one (`run` with a proxy), on the isolation where the
/// tester is made: the main actor in a `@MainActor` test, none in a test
/// that is not on an actor. So a test sees exactly what an app sees: actions
/// processed depth first, operations started after their update, a
/// cancelled operation's late answer refused. On Linux, hopping to the main
/// actor costs tens of microseconds; tests that need no actor run faster
/// without one. Each `send` waits until the event, and everything it
/// caused without waiting, has been processed; `receive` waits (up to a
/// timeout) for the next event an effect sends back.
///
/// Exhaustive (``Exhaustivity/on``, the default):
/// - the trailing closure turns the state before the event into the state
///   expected after it; a mismatch fails with a diff (`−` expected,
///   `+` actual) at the line of the call. A change without a closure fails,
///   and so does a closure that expects no change when one happened;
/// - every event an effect sends back must be received before the next
///   `send`, and by `finish()`;
/// - every output must be asserted (`send(_:output:)`,
///   `receive(_:output:)` or ``expectOutput(_:fileID:filePath:line:column:)``);
/// - at `finish()` no operation may still run; one that does is reported at
///   the line of the `send` that started it.
///
/// Time: give the environment a clock and use a `TestClock` in tests, then
/// `await clock.advance(by:)` between steps; nothing waits for real time
/// except the timeout of `receive` and `finish`.
public final class TransducerTester<T: BaseTransducer> where T.State: Equatable {
    /// How strictly the run is checked; may be changed between steps.
    public var exhaustivity: Exhaustivity
    /// How long `send`, `receive` and `finish` wait for the run before they
    /// fail. Only a bound: they return as soon as what they wait for happened.
    public var timeout: Duration
    /// The state after the last processed event.
    public private(set) var state: T.State
    /// The proxy of the run under test.
    public let proxy: T.Proxy

    /// One processed event.
    struct Step {
        var event: T.Event
        var before: T.State
        var after: T.State
        /// The index of its output in `outputs`.
        var output: Int?
        /// Where in the log it starts.
        var entry: Int
    }

    private let log: RunLog<T>
    private let created: CallSite
    private let lifetime: TesterLifetime
    private var runTask: Task<Void, Never>?
    /// How many log entries have been read.
    private var cursor = 0
    private var steps: [Step] = []
    /// How many steps have been asserted (or skipped), from the first.
    private var asserted = 0
    /// Every output, and whether it was asserted.
    private var outputs: [(value: T.Output, isAsserted: Bool)] = []
    /// Operations started and not ended, with the call that started them.
    private var running: [UInt64: (info: EffectInfo, site: CallSite)] = [:]
    /// The call whose event is being processed: operations started now are
    /// attributed to it.
    private var current: CallSite
    /// How the run ended, once it has.
    private var ending: (any Error)??
    private var isFinished = false
    private let hasOutputs: Bool
    /// The state the run started from: a failure's recording starts there.
    private let initialState: T.State

    private init(
        initialState: T.State, exhaustivity: Exhaustivity, timeout: Duration, site: CallSite,
        isolation: (any Actor)?,
        run: @escaping (T.Proxy, isolated (any Actor)?) async throws -> Void
    ) {
        self.exhaustivity = exhaustivity
        self.timeout = timeout
        self.state = initialState
        self.initialState = initialState
        self.proxy = T.Proxy()
        self.created = site
        self.current = site
        self.hasOutputs = T.Output.self != Void.self
        let log = RunLog<T>(forwardingTo: TransducerInspection.inspector)
        self.log = log
        self.lifetime = TesterLifetime(site: site)
        let proxy = self.proxy
        // Safety: `run` is called once, by this task, and does its work on
        // `isolation` (its `isolated` parameter): the isolation where the
        // tester was made, where the transducer's conformance may be used.
        nonisolated(unsafe) let run = run
        let inspector: any TransducerInspector = log
        runTask = Task {
            _ = try? await TransducerInspection.$inspector.withValue(inspector) {
                try await run(proxy, isolation)
            }
        }
    }

    /// Reports `message` at `site`, with where the run up to here was
    /// recorded for `oak-inspector open`.
    private func fail(_ site: CallSite, _ message: String) {
        site.fail(
            message
                + FailureRecordings.write(
                    T.self, initialState: initialState, entries: log.entries(from: 0), failure: message, at: site))
    }

    deinit {
        guard !lifetime.isFinished else { return }
        // What the run had done by now, without waiting for more.
        consume()
        var message =
            "The tester was released without finish(): events, outputs and operations left over were not "
            + "all checked. End every test with `await tester.finish()`."
        if asserted < steps.count {
            message += "\nReceived and not asserted:\n" + describe(steps[asserted...])
        }
        lifetime.site.fail(message)
        if exhaustivity == .on {
            for (info, startedBy) in running.values.sorted(by: { $0.info.sequenceNumber < $1.info.sequenceNumber }) {
                startedBy.fail(
                    "An operation started by this event was still running when the tester was released "
                        + "without finish(): \(info).")
            }
        }
        proxy.cancel()
        log.stopMonitor()
    }

    // MARK: - Sending

    /// Sends `event` and waits until it, and everything it caused without
    /// waiting (actions, operations that answered at once), has been
    /// processed; then checks the state change.
    ///
    /// - Parameters:
    ///   - event: The event, sent through the run's proxy.
    ///   - updateStateToExpectedResult: Turns the state before the event
    ///     into the state expected after it. Leave it out when the state
    ///     must not change.
    ///   - isolation: Where the tester works: the caller's isolation.
    ///   - fileID: Where a failure is reported: the caller's file by default.
    ///   - filePath: The caller's file path by default.
    ///   - line: The caller's line by default.
    ///   - column: The caller's column by default.
    public func send(
        _ event: sending T.Event,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        await send(event, output: nil, updateStateToExpectedResult, CallSite(fileID, filePath, line, column))
    }

    /// Sends `event`, checks the state change, and checks that the update
    /// produced `output`.
    public func send(
        _ event: sending T.Event,
        output: T.Output,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async where T.Output: Equatable {
        await send(
            event, output: { [output] in $0 == output ? nil : Self.mismatch(expected: output, actual: $0) },
            updateStateToExpectedResult, CallSite(fileID, filePath, line, column))
    }

    private func send(
        _ event: sending T.Event,
        output checkOutput: ((T.Output) -> String?)?,
        _ update: ((inout T.State) throws -> Void)?,
        _ site: CallSite,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        guard await readyToSend(site) else { return }
        let start = log.count
        let firstNew = steps.count
        do {
            try await deliver(event)
        } catch {
            fail(site, "Sending the event failed: \(error)")
            return
        }
        let processed = await log.wait(for: .processedEvent(after: start), timeout: timeout)
        consume()
        guard processed, let index = steps[firstNew...].firstIndex(where: { $0.entry >= start }) else {
            fail(site, "The event was not processed within \(timeout).")
            return
        }
        if index > asserted, exhaustivity == .on {
            fail(
                site,
                "Events sent by effects were processed before the sent event and not asserted:\n"
                    + describe(steps[asserted..<index]))
        }
        asserted = index + 1
        check(steps[index], update, checkOutput, site)
    }

    /// Waits until the run has settled and checks what must have been
    /// asserted before the next event; returns whether an event may be sent.
    private func readyToSend(_ site: CallSite, isolation: isolated (any Actor)? = #isolation) async -> Bool {
        guard await settle(site) else { return false }
        if ending != nil {
            fail(site, "Cannot send an event: the run has ended\(endingDescription).")
            return false
        }
        if exhaustivity == .on {
            checkNothingReceived(before: "sending an event", site)
        }
        checkOutputsAsserted(site)
        current = site
        return true
    }

    /// Sends through the proxy: a buffered proxy's `send`, or a suspending
    /// proxy's `checkedSend` (which returns once the event was processed).
    private func deliver(_ event: sending T.Event, isolation: isolated (any Actor)? = #isolation) async throws {
        if let proxy = proxy as? Proxy<T.Event> {
            try proxy.send(event)
        } else if let proxy = proxy as? SyncSuspendingProxy<T.Event> {
            try await proxy.checkedSend(event)
        }
    }

    // MARK: - Receiving

    /// Waits for the next event that an effect sent back, checks that it is
    /// `event`, and checks the state change.
    public func receive(
        _ event: T.Event,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async where T.Event: Equatable {
        await receive(
            description: String(customDumping: event), { $0 == event }, timeout: timeout, output: nil,
            updateStateToExpectedResult, CallSite(fileID, filePath, line, column))
    }

    /// Waits for the next event that an effect sent back, checks that it is
    /// `event`, that its update produced `output`, and the state change.
    public func receive(
        _ event: T.Event,
        output: T.Output,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async where T.Event: Equatable, T.Output: Equatable {
        await receive(
            description: String(customDumping: event), { $0 == event }, timeout: timeout,
            output: { [output] in $0 == output ? nil : Self.mismatch(expected: output, actual: $0) },
            updateStateToExpectedResult, CallSite(fileID, filePath, line, column))
    }

    /// Waits for the next event that an effect sent back and checks it with
    /// `isMatching`: for events whose payload is not `Equatable`, or to
    /// match by case (`{ if case .didLoad = $0 { true } else { false } }`).
    public func receive(
        _ isMatching: (T.Event) -> Bool,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout T.State) throws -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        await receive(
            description: "an event matching the predicate", isMatching, timeout: timeout, output: nil,
            updateStateToExpectedResult, CallSite(fileID, filePath, line, column))
    }

    private func receive(
        description: String,
        _ isMatching: (T.Event) -> Bool,
        timeout: Duration?,
        output checkOutput: ((T.Output) -> String?)?,
        _ update: ((inout T.State) throws -> Void)?,
        _ site: CallSite,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        consume()
        if asserted == steps.count {
            // Nothing received yet: wait for the next event to be processed.
            let start = cursor
            let arrived = await log.wait(for: .processedEvent(after: start), timeout: timeout ?? self.timeout)
            consume()
            guard arrived, asserted < steps.count else {
                fail(
                    site,
                    "Expected to receive \(description), but no event arrived within \(timeout ?? self.timeout)."
                        + runningDescription)
                return
            }
        }
        var index = asserted
        if exhaustivity != .on {
            // Skip the events that do not match.
            while index < steps.count, !isMatching(steps[index].event) { index += 1 }
            if index == steps.count {
                fail(site, "Expected to receive \(description), but received:\n" + describe(steps[asserted...]))
                asserted = steps.count
                return
            }
            if index > asserted, case .off(showSkippedAssertions: true) = exhaustivity {
                site.note("Skipped receiving:\n" + describe(steps[asserted..<index]))
            }
        } else if !isMatching(steps[index].event) {
            fail(
                site,
                "Expected to receive \(description), but received \(String(customDumping: steps[index].event)).")
            asserted = index + 1
            if let output = steps[index].output { outputs[output].isAsserted = true }
            return
        }
        asserted = index + 1
        check(steps[index], update, checkOutput, site)
    }

    // MARK: - Waiting for a condition

    /// Sends `event` and waits until `condition` holds of the state; see
    /// ``wait(until:timeout:isolation:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// await tester.send(.open(standup.id)) { $0.path.count == 1 }
    /// ```
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public func send(
        _ event: sending T.Event,
        timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column,
        until condition: @escaping (T.State) -> Bool
    ) async {
        let site = CallSite(fileID, filePath, line, column)
        guard await readyToSend(site) else { return }
        do {
            try await deliver(event)
        } catch {
            fail(site, "Sending the event failed: \(error)")
            return
        }
        await wait(until: condition, timeout: timeout, site)
    }

    /// Waits until `condition` holds of the state, without polling: it is
    /// checked again after every step of the run and whenever something it
    /// read of a child's or a shared run's state (`Child.state`) changes,
    /// which happens without a step of this run.
    ///
    /// The steps waited through are asserted by the condition: their
    /// events, state changes and outputs are not checked one by one (with
    /// `.off(showSkippedAssertions: true)` they are listed as known
    /// issues). Operations they started are still checked at
    /// ``finish(timeout:isolation:fileID:filePath:line:column:)``. ``state``
    /// is the state the condition held of, whatever sent the events that
    /// led there: the test, or effects.
    ///
    /// ```swift
    /// await tester.wait { $0.meeting?.transcript == "I completed the project" }
    /// ```
    ///
    /// Fails at the line of the call when the run ends first, or when the
    /// condition does not hold within `timeout` (the tester's by default),
    /// with the state it last saw.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public func wait(
        until condition: @escaping (T.State) -> Bool,
        timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        await wait(until: condition, timeout: timeout, CallSite(fileID, filePath, line, column))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private func wait(
        until condition: (T.State) -> Bool, timeout: Duration?, _ site: CallSite,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let limit = timeout ?? self.timeout
        let deadline = ContinuousClock.now + limit
        let log = self.log
        let pokes: any Pokable = log
        while true {
            let mark = log.mark
            consume()
            let state = self.state
            let holds = withStateTracking {
                condition(state)
            } onChange: {
                pokes.poke()
            }
            if holds {
                markWaitedThroughAsAsserted(site)
                return
            }
            if ending != nil {
                fail(
                    site,
                    "The run ended\(endingDescription) before the condition held. The last state:\n\n"
                        + String(customDumping: state).indent(by: 4))
                return
            }
            let left = deadline - ContinuousClock.now
            var changed = false
            if left > .zero {
                changed = await log.wait(for: .changed(entries: mark.entries, pokes: mark.pokes), timeout: left)
            }
            if !changed {
                consume()
                fail(
                    site,
                    "The condition did not hold within \(limit).\(runningDescription) The last state:\n\n"
                        + String(customDumping: self.state).indent(by: 4))
                return
            }
        }
    }

    /// Marks the steps received so far as asserted by a condition.
    private func markWaitedThroughAsAsserted(_ site: CallSite) {
        guard asserted < steps.count else { return }
        if case .off(showSkippedAssertions: true) = exhaustivity {
            site.note("Asserted by the condition, not step by step:\n" + describe(steps[asserted...]))
        }
        for step in steps[asserted...] {
            if let output = step.output { outputs[output].isAsserted = true }
        }
        asserted = steps.count
    }

    // MARK: - Outputs

    /// Checks that the earliest output not yet asserted is `output`.
    public func expectOutput(
        _ output: T.Output,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) where T.Output: Equatable {
        consume()
        let site = CallSite(fileID, filePath, line, column)
        guard let index = outputs.firstIndex(where: { !$0.isAsserted }) else {
            fail(site, "Expected the output \(String(customDumping: output)), but there is no output to assert.")
            return
        }
        outputs[index].isAsserted = true
        if let mismatch = outputs[index].value == output
            ? nil : Self.mismatch(expected: output, actual: outputs[index].value)
        {
            fail(site, "The output does not match:\n\n\(mismatch)")
        }
    }

    // MARK: - Skipping

    /// Marks every event received so far, and its output, as asserted.
    public func skipReceivedEvents(
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID, filePath, line, column)
        _ = await settle(site)
        if asserted < steps.count, case .off(showSkippedAssertions: true) = exhaustivity {
            site.note("Skipped receiving:\n" + describe(steps[asserted...]))
        }
        for step in steps[asserted...] {
            if let output = step.output { outputs[output].isAsserted = true }
        }
        asserted = steps.count
    }

    /// Lets the operations running now still run at `finish()`, where they
    /// are cancelled with the run instead of failing the test.
    public func skipInFlightEffects(
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID, filePath, line, column)
        _ = await settle(site)
        if !running.isEmpty, case .off(showSkippedAssertions: true) = exhaustivity {
            site.note("Skipped operations: " + running.values.map { "\($0.info)" }.sorted().joined(separator: ", "))
        }
        running = [:]
    }

    // MARK: - Finishing

    /// Ends the test of the run: waits until the run has processed what it
    /// had, checks that nothing was left unasserted and that no operation
    /// still runs (in exhaustive mode waiting up to `timeout` for running
    /// ones to end), then cancels the run and waits for its end.
    public func finish(
        timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID, filePath, line, column)
        guard !isFinished else { return }
        _ = await settle(site)
        // Operations still running may be about to answer (the test clock
        // was just advanced): give them until the timeout to end, then check
        // what they sent. Not checked step by step, they are not waited for:
        // a root's children run until it ends.
        if !running.isEmpty, exhaustivity == .on {
            let started = Set(running.keys)
            let start = cursor
            _ = await log.wait(for: .operationsEnded(started, after: start), timeout: timeout ?? self.timeout)
            consume()
            _ = await settle(site)
        }
        if exhaustivity == .on {
            checkNothingReceived(before: "finishing", site)
        }
        checkOutputsAsserted(site)
        for (info, startedBy) in running.values.sorted(by: { $0.info.sequenceNumber < $1.info.sequenceNumber }) {
            let message =
                "An operation started by this event is still running at the end of the test: \(info). "
                + "Let it finish (advance the test clock, answer its request), cancel it with an event, "
                + "or call skipInFlightEffects()."
            switch exhaustivity {
            case .on: startedBy.fail(message)
            case .off(showSkippedAssertions: true): startedBy.note(message)
            case .off: break
            }
        }
        isFinished = true
        lifetime.finish()
        proxy.cancel()
        await runTask?.value
        consume()
        log.stopMonitor()
    }

    // MARK: - Reading the run

    /// Reads the log entries that came since the last call.
    private func consume() {
        let entries = log.entries(from: cursor)
        for entry in entries {
            let position = cursor
            cursor += 1
            switch entry {
            case .event(let event):
                steps.append(Step(event: event, before: state, after: state, output: nil, entry: position))
            case .state(let newState):
                state = newState
                if !steps.isEmpty { steps[steps.count - 1].after = newState }
            case .output(let output):
                guard hasOutputs else { break }
                outputs.append((output, false))
                if !steps.isEmpty { steps[steps.count - 1].output = outputs.count - 1 }
            case .operationStarted(let info):
                running[info.sequenceNumber] = (info, current)
            case .operationEnded(let info, let ending):
                running[info.sequenceNumber] = nil
                if case .failed(let error) = ending, !isFinished {
                    current.fail("An operation started by this event failed: \(info): \(error)")
                }
            case .eventRefused, .waiting:
                break
            case .ended(let error):
                ending = .some(error)
            }
        }
    }

    /// Waits until the run has processed everything it had (it waits for
    /// events, or has ended).
    private func settle(_ site: CallSite, isolation: isolated (any Actor)? = #isolation) async -> Bool {
        let proxy = self.proxy
        let settled = await log.settle(pendingEvents: { proxy._channel.pendingEvents }, timeout: timeout)
        consume()
        if !settled {
            fail(site, "The run did not finish processing its events within \(timeout)." + runningDescription)
        }
        return settled
    }

    // MARK: - Checking

    /// Checks the state change and the output of `step`.
    private func check(
        _ step: Step, _ update: ((inout T.State) throws -> Void)?, _ checkOutput: ((T.Output) -> String?)?,
        _ site: CallSite
    ) {
        if let checkOutput {
            if let index = step.output {
                outputs[index].isAsserted = true
                if let mismatch = checkOutput(outputs[index].value) {
                    fail(site, "The output does not match:\n\n\(mismatch)")
                }
            } else {
                fail(site, "An output was expected, but the update produced none.")
            }
        }
        var expected = exhaustivity == .on ? step.before : step.after
        do {
            try update?(&expected)
        } catch {
            fail(site, "The state assertion threw an error: \(error)")
            return
        }
        guard expected != step.after else {
            if exhaustivity == .on, update != nil, step.before == step.after {
                fail(
                    site,
                    "Expected the state to change, but no change occurred. The assertion closure made no "
                        + "change either: leave it out when the state must stay the same.")
            }
            return
        }
        let difference = diff(expected, step.after, format: .proportional).map { "\n\n\($0.indent(by: 4))" } ?? ""
        if update == nil {
            fail(site, "The state changed, but no change was asserted: (− expected, + actual)\(difference)")
        } else {
            fail(site, "The state does not match the expectation: (− expected, + actual)\(difference)")
        }
    }

    /// Fails when events received are still unasserted.
    private func checkNothingReceived(before what: String, _ site: CallSite) {
        guard asserted < steps.count else { return }
        fail(
            site,
            "Events sent by effects must be received before \(what); not yet received:\n"
                + describe(steps[asserted...]))
        for step in steps[asserted...] {
            if let output = step.output { outputs[output].isAsserted = true }
        }
        asserted = steps.count
    }

    /// Fails when outputs are still unasserted (exhaustive mode).
    private func checkOutputsAsserted(_ site: CallSite) {
        let unasserted = outputs.indices.filter { !outputs[$0].isAsserted }
        guard !unasserted.isEmpty else { return }
        let list = unasserted.map { "  " + String(customDumping: outputs[$0].value) }.joined(separator: "\n")
        switch exhaustivity {
        case .on: fail(site, "Outputs were produced and not asserted (use expectOutput or output:):\n\(list)")
        case .off(showSkippedAssertions: true): site.note("Skipped outputs:\n\(list)")
        case .off: break
        }
        for index in unasserted { outputs[index].isAsserted = true }
    }

    private func describe(_ steps: ArraySlice<Step>) -> String {
        steps.map { "  " + String(customDumping: $0.event) }.joined(separator: "\n")
    }

    private var runningDescription: String {
        guard !running.isEmpty else { return "" }
        return " Operations still running: "
            + running.values.map { "\($0.info)" }.sorted().joined(separator: ", ") + "."
    }

    private var endingDescription: String {
        switch ending {
        case .some(.some(let error)): " (\(error))"
        case .some(.none): " (terminal state)"
        case .none: ""
        }
    }

    private static func mismatch<Value>(expected: Value, actual: Value) -> String {
        let difference = diff(expected, actual, format: .proportional) ?? ""
        return "(− expected, + actual)\n\n" + difference.indent(by: 4)
    }
}

// MARK: - Starting a run

extension TransducerTester where T: EffectTransducer {
    /// A tester that runs `type` from `initialState` with the environment
    /// `env` (give it mocks and a test clock).
    public convenience init(
        _ type: T.Type = T.self,
        initialState: T.State,
        env: T.Env,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        isolation: (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        // Safety: the environment and the initial state go to the run only;
        // the run uses them on `isolation` (or, without isolation, keeps a
        // non-Sendable environment on an actor of its own: see Oak's rules
        // for isolated effects).
        nonisolated(unsafe) let env = env
        nonisolated(unsafe) let initial = initialState
        self.init(
            initialState: initialState, exhaustivity: exhaustivity, timeout: timeout,
            site: CallSite(fileID, filePath, line, column), isolation: isolation,
            run: { proxy, isolation in
                _ = try await T.run(
                    initialState: initial, proxy: proxy, env: env, output: NoCallback(), isolation: isolation)
            })
    }
}

extension TransducerTester where T: EffectTransducer, T.Env == Void {
    /// A tester that runs `type` from `initialState`; its effects need no
    /// environment.
    public convenience init(
        _ type: T.Type = T.self,
        initialState: T.State,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        isolation: (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.init(
            type, initialState: initialState, env: (), exhaustivity: exhaustivity, timeout: timeout,
            isolation: isolation, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension TransducerTester where T: Transducer {
    /// A tester that runs the pure transducer `type` from `initialState`.
    public convenience init(
        _ type: T.Type = T.self,
        initialState: T.State,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        isolation: (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        nonisolated(unsafe) let initial = initialState
        self.init(
            initialState: initialState, exhaustivity: exhaustivity, timeout: timeout,
            site: CallSite(fileID, filePath, line, column), isolation: isolation,
            run: { proxy, isolation in
                _ = try await T.run(
                    initialState: initial, proxy: proxy, output: NoCallback(), isolation: isolation)
            })
    }
}

/// Whether a tester has been finished, readable from its `deinit`, which
/// does not run on the main actor.
final class TesterLifetime: Sendable {
    let site: CallSite
    private let finished = Locked(false)

    init(site: CallSite) {
        self.site = site
    }

    var isFinished: Bool { finished.value }

    func finish() { finished.value = true }
}

/// A value behind a lock.
///
/// Safety (`@unchecked Sendable`): the value is `Sendable` and only touched
/// under the lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension CallSite {
    init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
        self.init(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension String {
    /// Every line indented by `spaces`.
    func indent(by spaces: Int) -> String {
        let prefix = String(repeating: " ", count: spaces)
        return split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
