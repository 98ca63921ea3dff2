// The live inspector: every kind of record becomes an entry (the state as a
// diff to the step before, a child naming its parent run), a reader that
// falls behind loses the oldest entries and is told how many, a waiting
// reader is woken, and nothing is kept where no inspector is installed.

import Foundation
import Oak
import OakInspector
import Testing

/// Counts; `.load` starts an operation that answers `.loaded`, `.hang` one
/// that waits until cancelled (`.stop` cancels it), `.fail` one that throws.
enum Tally: EffectTransducer {
    struct State: NonTerminal, Sendable, Equatable {
        var count = 0
        var label = "idle"
    }

    enum Event: Sendable {
        case add(Int)
        case load
        case loaded(String)
        case hang
        case stop
        case fail
    }

    struct Env: Sendable {}
    struct Broke: Error {}

    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .add(let amount):
            state.count += amount
            return (nil, state.count)
        case .load:
            state.label = "loading"
            return (Effect(id: "load") { _, input in try input.send(.loaded("done")) }, state.count)
        case .loaded(let label):
            state.label = label
            return (nil, state.count)
        case .hang:
            return (
                Effect(id: "hang") { _, _ in
                    // An iteration of a stream that never yields ends
                    // when the task is cancelled.
                    let (stream, continuation) = AsyncStream<Never>.makeStream()
                    for await _ in stream {}
                    continuation.finish()
                    throw CancellationError()
                }, state.count
            )
        case .stop:
            return (.cancelTask("hang"), state.count)
        case .fail:
            return (Effect(id: "fail") { _, _ in throw Broke() }, state.count)
        }
    }
}

extension Tally {
    /// A run from the start, inspected by `inspector`, taking `proxy`'s
    /// events.
    static func start(inspectedBy inspector: LiveInspector, proxy: Proxy) -> Task<Void, any Error> {
        Task {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Tally.run(initialState: Tally.State(), proxy: proxy, env: Tally.Env())
            }
        }
    }
}

@Suite("The live inspector", .timeLimit(.minutes(1)))
struct LiveInspectorTests {
    /// Runs `Tally` inspected by `inspector` with `events` sent first; the
    /// run's error, if it fails.
    static func run(_ events: [Tally.Event], inspector: LiveInspector) async -> (any Error)? {
        let proxy = Tally.Proxy(bufferSize: 64)
        for event in events { try? proxy.send(event) }
        do {
            try await TransducerInspection.$inspector.withValue(inspector) {
                _ = try await Tally.run(initialState: Tally.State(), proxy: proxy, env: Tally.Env())
            }
            return nil
        } catch {
            return error
        }
    }

    /// The entries until the run's end (`ended`).
    static func entries(
        until kind: InspectorEntry.Kind = .ended, of inspector: LiveInspector
    ) async
        -> [InspectorEntry]
    {
        var entries: [InspectorEntry] = []
        while !entries.contains(where: { $0.kind == kind }) {
            let batch = await inspector.next()
            if batch.isEmpty { break }
            entries += batch
        }
        return entries
    }

    @Test func everyKindOfStepBecomesAnEntry() async throws {
        let inspector = LiveInspector()
        let proxy = Tally.Proxy(bufferSize: 64)
        for event in [Tally.Event.add(2), .load, .hang, .stop] { try proxy.send(event) }
        let run = Tally.start(inspectedBy: inspector, proxy: proxy)
        // Once the run has waited for events, the operation that fails.
        var entries = await Self.entries(until: .waiting, of: inspector)
        try proxy.send(.fail)
        await #expect(throws: Tally.Broke.self) { try await run.value }
        entries += await Self.entries(of: inspector)
        let kinds = Set(entries.map(\.kind))
        for kind in [
            InspectorEntry.Kind.started, .event, .state, .output, .effectStarted, .effectFinished,
            .effectCancelled, .effectFailed, .waiting, .ended,
        ] {
            #expect(kinds.contains(kind), "no \(kind) entry in \(entries.map(\.kind))")
        }
        // One run, numbered entries in order.
        #expect(Set(entries.map(\.run)).count == 1)
        #expect(entries.map(\.sequence) == Array(1...UInt64(entries.count)))
        #expect(entries.map(\.time) == entries.map(\.time).sorted())

        let started = try #require(entries.first)
        #expect(started.kind == .started)
        #expect(started.type?.hasSuffix("Tally") == true)
        #expect(started.parent == nil)
        #expect(started.state?.contains("count: 0") == true)

        // The first step: its event, and the state's change as a diff.
        #expect(entries[1].kind == .event)
        #expect(entries[1].text == "add(2)")
        let step = entries[2]
        #expect(step.kind == .state)
        #expect(step.diff?.contains(InspectorEntry.DiffLine("-", "  count: 0")) == true)
        #expect(step.diff?.contains(InspectorEntry.DiffLine("+", "  count: 2")) == true)
        #expect(step.diff?.contains { $0.text.contains("label") && $0.mark != " " } == false)

        let failed = try #require(entries.first { $0.kind == .effectFailed })
        #expect(failed.effect?.id == "fail")
        #expect(failed.text?.contains("Broke") == true)
        #expect(entries.last?.kind == .ended)
        #expect(entries.last?.text?.contains("Broke") == true)
    }

    @Test func aReaderThatFallsBehindLosesTheOldestAndIsToldHowMany() async throws {
        let inspector = LiveInspector(capacity: 5)
        // Nobody reads while the run makes far more than 5 entries.
        let error = await Self.run(Array(repeating: .add(1), count: 40) + [.fail], inspector: inspector)
        #expect(error is Tally.Broke)

        let batch = inspector.take()
        let dropped = try #require(batch.first)
        #expect(dropped.kind == .dropped)
        #expect(batch.count == 6)
        // Kept: the newest five, in order, numbered on from the drop.
        let kept = Array(batch.dropFirst())
        #expect(kept.last?.kind == .ended)
        #expect(kept.map(\.sequence) == Array((kept[0].sequence)...(kept[0].sequence + 4)))
        #expect(dropped.dropped == kept[0].sequence - 1)
        #expect(inspector.droppedCount == dropped.dropped)
        // Taken: nothing is left, and nothing is dropped again.
        #expect(inspector.take().isEmpty)
    }

    @Test func aWaitingReaderIsWokenByTheNextEntry() async throws {
        let inspector = LiveInspector()
        let reader = Task { await inspector.next() }
        let error = await Self.run([.fail], inspector: inspector)
        #expect(error is Tally.Broke)
        let first = await reader.value
        #expect(first.first?.kind == .started)
        inspector.close()
        // What was recorded after the first batch is still read once closed
        // (the reader may have woken at the first entry); then nothing.
        let rest = await inspector.next()
        #expect((first + rest).last?.kind == .ended)
        #expect(await inspector.next().isEmpty)
    }

    @Test func nothingIsKeptWhereNoInspectorIsInstalled() async throws {
        let inspector = LiveInspector()
        let proxy = Tally.Proxy()
        try proxy.send(.fail)
        await #expect(throws: Tally.Broke.self) {
            _ = try await Tally.run(initialState: Tally.State(), proxy: proxy, env: Tally.Env())
        }
        #expect(inspector.take().isEmpty)
    }
}

@Suite("A state as the inspector shows it")
struct StateTextTests {
    struct Page: Sendable {
        enum Phase: Sendable {
            case idle
            case showing(number: Int, title: String)
        }

        var phase = Phase.showing(number: 7, title: "Lichen")
        var link: URL? = URL(string: "https://example.com/7")
        var tags = ["a", "b"]
        var none: Int? = nil
    }

    @Test func oneLineAPropertyAndWhatDescribesItselfAsItsDescription() {
        let text = LiveInspector.text(of: Page())
        #expect(
            text == """
                Page
                  phase: .showing
                    number: 7
                    title: "Lichen"
                  link: https://example.com/7
                  tags: 2 items
                    [0]: "a"
                    [1]: "b"
                  none: nil
                """)
        #expect(LiveInspector.text(of: Page.Phase.idle) == ".idle")
    }

    @Test func aChildIsShownByItsIdentityNotTheRuntimesInsides() {
        let child = Child(Tally.self, initialState: Tally.State())
        #expect(LiveInspector.text(of: child) == "Child<Tally>\n  id: \(child.id)")
    }

    @Test func aLongCollectionIsCutShort() {
        let text = LiveInspector.text(of: Array(0..<80))
        #expect(text.hasPrefix("80 items\n  [0]: 0"))
        #expect(text.hasSuffix("  [49]: 49\n  … 30 more"))
    }
}

extension StateTextTests {
    @Test func aSharedRunIsShownByItsTypeOnly() {
        let shared = SharedRun<Tally>(initialState: Tally.State())
        #expect(LiveInspector.text(of: shared) == "SharedRun<Tally>")
    }
}

extension StateTextTests {
    @Test func aLongValueIsClippedSoThatAnEntryStaysSmall() {
        let text = LiveInspector.text(of: String(repeating: "x", count: 10_000))
        #expect(text.count < 2_100)
        #expect(text.hasSuffix("… (8002 more characters)"), "a 10,002-character quoted string")
    }
}
