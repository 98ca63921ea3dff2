// A failing tester writes the run up to the failure as an inspector
// recording and says where: the path from a failing test back to the run,
// step by step, in `oak-inspector open FILE`.

import Foundation
import OakInspector
import OakTesting
import Testing

@Suite("A failing tester records its run")
struct FailureRecordingTests {
    @Test func aFailureSaysWhereTheRunUpToItWasRecorded() async throws {
        let tester = TransducerTester(
            Feature.self, initialState: Feature.State(), env: Feature.Env(clock: ContinuousClock()))
        await tester.send(.bump, output: 1) { $0.count = 1 }
        let seen = SeenIssues()
        await withKnownIssue {
            await tester.send(.bump, output: 2) { $0.count = 3 }
        } matching: {
            seen.record($0)
        }
        await tester.finish()

        let text = try #require(seen.texts.first)
        let marker = "oak-inspector open "
        let path = try #require(text.range(of: marker).map { String(text[$0.upperBound...]) })
            .prefix { !$0.isNewline && $0 != "\"" }
        let file = URL(filePath: String(path))
        defer { try? FileManager.default.removeItem(at: file) }
        let recording = try InspectorRecording.read(from: file)
        #expect(recording.title.hasPrefix("Feature, failed at OakTestingTests/FailureRecordingTests.swift:"))
        // The start, both events and their states and outputs, then the failure.
        #expect(recording.entries.map(\.kind).first == .started)
        #expect(recording.entries.filter { $0.kind == .event }.map(\.text) == ["bump", "bump"])
        let failed = try #require(recording.entries.last)
        #expect(failed.kind == .testFailed)
        #expect(failed.text?.contains("The state does not match the expectation") == true)
        // oak-inspector opens it at the second event, where the test failed.
        #expect(recording.failure?.step == 2)
        let lastState = try #require(recording.entries.last { $0.kind == .state })
        #expect(lastState.diff?.contains(InspectorEntry.DiffLine("+", "  count: 2")) == true)
    }

    @Test func anUpdateTestersFailureReplaysItsStepsIntoARecording() throws {
        var tester = UpdateTester(Feature.self, state: Feature.State())
        tester.send(.bump) { $0.count = 1 }
        tester.send(.tick)
        let seen = SeenIssues()
        withKnownIssue {
            tester.send(.bump) { $0.count = 3 }
        } matching: {
            seen.record($0)
        }

        let text = try #require(seen.texts.first)
        let path = try #require(text.range(of: "oak-inspector open ").map { String(text[$0.upperBound...]) })
            .prefix { !$0.isNewline && $0 != "\"" }
        let file = URL(filePath: String(path))
        defer { try? FileManager.default.removeItem(at: file) }
        let recording = try InspectorRecording.read(from: file)
        #expect(recording.title.hasPrefix("Feature, failed at OakTestingTests/FailureRecordingTests.swift:"))
        // The steps replayed from the first state: each event, its state and
        // output; then the failure, after the third event.
        #expect(
            recording.entries.map(\.kind) == [
                .started, .event, .state, .output, .event, .state, .output, .event, .state, .output, .testFailed,
            ])
        #expect(recording.entries.filter { $0.kind == .event }.map(\.text) == ["bump", "tick", "bump"])
        #expect(recording.entries.last { $0.kind == .state }?.state?.contains("count: 2") == true)
        #expect(recording.failure?.step == 3)
    }

    @Test func aFileThatIsNotARecordingIsToldApart() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "not-a-recording-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("hello\n".utf8).write(to: file)
        #expect(throws: InspectorRecordingError.notARecording(file.path)) { try InspectorRecording.read(from: file) }
        try Data(#"{"recording":{"title":"t","version":1}}\#n{"kind":"nonsense"}\#n"#.utf8).write(to: file)
        #expect(throws: InspectorRecordingError.corrupt(file.path, line: 2)) { try InspectorRecording.read(from: file) }
        try Data(#"{"recording":{"title":"t","version":9}}\#n"#.utf8).write(to: file)
        #expect(throws: InspectorRecordingError.newerVersion(9, supported: 1)) {
            try InspectorRecording.read(from: file)
        }
    }
}
