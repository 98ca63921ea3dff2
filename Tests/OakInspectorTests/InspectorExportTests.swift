// The export round trip: a run recorded by the live inspector becomes a
// session file that `SessionReplay` replays without a difference, and a
// Swift Testing test. That test is `Generated/ReplayOfATurnstile.swift`,
// compiled and run in this target: this suite checks that the exporter
// writes exactly it, so the file proves the export compiles and passes.
// After a deliberate change to the exporter, run this suite once with
// `OAK_RECORD_EXPORT=1` to write the file anew, and read the diff.

import Foundation
import Oak
import OakInspectorFixtures
import OakTesting
import Testing

@testable import OakInspector

@Suite("Exporting a run", .timeLimit(.minutes(1)))
struct InspectorExportTests {
    /// A refused push, a coin too small, one enough, a pass, and a note
    /// whose text a raw string literal must hold as it is.
    static let events: [Turnstile.Event] = [
        .push, .coin(cents: 20), .coin(cents: 50), .push, .note(##"a "#quoted"# \(note) \n"##),
    ]

    /// The entries of one run of the turnstile taking ``events``.
    static func recorded() async throws -> (entries: [InspectorEntry], run: UInt64) {
        let inspector = LiveInspector()
        let proxy = Turnstile.Proxy(bufferSize: 16)
        for event in events { try proxy.send(event) }
        proxy.finish()
        await TransducerInspection.$inspector.withValue(inspector) {
            _ = try? await Turnstile.run(initialState: Turnstile.State(), proxy: proxy, output: NoCallback())
        }
        var entries: [InspectorEntry] = []
        while !entries.contains(where: { $0.kind == .ended }) {
            let batch = await inspector.next()
            if batch.isEmpty { break }
            entries += batch
        }
        let run = try #require(entries.first { $0.kind == .started }?.run)
        return (entries, run)
    }

    static let generatedFile = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "Generated/ReplayOfATurnstile.swift")

    @Test func theExportedTestIsTheOneThisTargetCompilesAndRuns() async throws {
        let (entries, run) = try await Self.recorded()
        let export = try InspectorExport(entries: entries, run: run)
        #expect(export.type == "OakInspectorFixtures.Turnstile")
        #expect(export.steps.count == Self.events.count)
        let test = export.test(named: "replayOfATurnstile")
        if ProcessInfo.processInfo.environment["OAK_RECORD_EXPORT"] == "1" {
            try test.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        #expect(
            test == kept,
            """
            The exporter now writes another test than Generated/ReplayOfATurnstile.swift; if meant, \
            run this suite with OAK_RECORD_EXPORT=1 and read the diff.
            """)
    }

    @Test func theExportedSessionReplaysWithoutADifference() async throws {
        let (entries, run) = try await Self.recorded()
        let export = try InspectorExport(entries: entries, run: run)
        let url = FileManager.default.temporaryDirectory.appending(path: "oak-export-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try export.session.write(to: url, atomically: true, encoding: .utf8)
        let report = try SessionReplay.replay(Turnstile.self, from: url, initialState: Turnstile.State())
        #expect(report.events == Self.events.count)
        #expect(report.firstDifference == nil, "\(report)")
        // A session whose recorded state is not the replayed one is told.
        let wrong = export.session.replacingOccurrences(of: #""passes":1"#, with: #""passes":2"#)
        try wrong.write(to: url, atomically: true, encoding: .utf8)
        let differing = try SessionReplay.replay(Turnstile.self, from: url, initialState: Turnstile.State())
        #expect(differing.firstDifference?.kind == "state")
    }

    @Test func aSpanEndsAtTheStepChosen() async throws {
        let (entries, run) = try await Self.recorded()
        let third = try #require(entries.filter { $0.kind == .event }.dropFirst(2).first)
        let export = try InspectorExport(entries: entries, run: run, through: third.sequence)
        #expect(export.steps.count == 2)
        #expect(export.steps.map(\.event) == [#"{"push":{}}"#, #"{"coin":{"cents":20}}"#])
        #expect(export.steps.last?.output == #""still locked""#)
    }

    @Test func whatCannotBeExportedSaysWhatToDo() async throws {
        let (entries, run) = try await Self.recorded()
        #expect(throws: InspectorExportError.noSuchRun(run + 1_000)) {
            try InspectorExport(entries: entries, run: run + 1_000)
        }
        let started = try #require(entries.first { $0.kind == .started })
        #expect(throws: InspectorExportError.noEvents(run)) {
            try InspectorExport(entries: entries, run: run, through: started.sequence)
        }
        // Without its JSON (a type not Codable), the event cannot be replayed.
        let withoutJSON = entries.map { entry in
            var entry = entry
            if entry.kind == .event { entry.json = nil }
            return entry
        }
        let error = #expect(throws: InspectorExportError.self) {
            try InspectorExport(entries: withoutJSON, run: run)
        }
        #expect(error?.description.contains("make it Codable") == true)
        // The oldest entries dropped: the state it started from is unknown.
        let late = entries.filter { $0.kind != .started && $0.kind != .state }
        #expect(throws: InspectorExportError.noStartingState(run)) {
            try InspectorExport(
                entries: late
                    + entries.filter { $0.kind == .started }.map { entry in
                        var entry = entry
                        entry.kind = .output
                        return entry
                    }, run: run)
        }
    }

    @Test func aLiteralHoldsAnyText() {
        for text in ["plain", ##"a "# b"##, ###"a \# b "## c"###, ##"\#(x)"##] {
            let literal = InspectorExport.literal(text)
            let hashes = literal.prefix { $0 == "#" }
            #expect(!text.contains("\"" + hashes) && !text.contains("\\" + hashes), "\(literal)")
        }
    }
}
