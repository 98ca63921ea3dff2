// Record a session of a real run as JSON Lines, replay it through update,
// find the first divergence, and refuse damaged files with the line named.

import Foundation
import Oak
import OakTesting
import Testing

/// A counter whose events and states are Codable.
enum Tally: Transducer {
    struct State: NonTerminal, Equatable, Codable {
        var total = 0
    }

    enum Event: Codable, Sendable {
        case add(Int)
        case reset
    }

    static func update(_ state: inout State, event: Event) -> Int {
        switch event {
        case .add(let amount): state.total += amount
        case .reset: state.total = 0
        }
        return state.total
    }
}

/// The same counter with a bug: `reset` sets the total to 1.
enum BuggyTally: Transducer {
    typealias State = Tally.State
    typealias Event = Tally.Event

    static func update(_ state: inout State, event: Event) -> Int {
        if case .reset = event {
            state.total = 1
            return 1
        }
        return Tally.update(&state, event: event)
    }
}

@Suite("Session recording and replay")
struct SessionRecordingTests {
    /// A file in a fresh temporary directory of this test.
    func temporaryFile(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("oak-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name)
    }

    /// Records a run of `Tally` that takes `events`.
    func record(_ events: [Tally.Event], to url: URL) async throws {
        let recorder = try SessionRecorder<Tally>(writingTo: url, including: [.states, .outputs])
        let proxy = Tally.Proxy(bufferSize: events.count + 1)
        for event in events { try proxy.send(event) }
        proxy.finish()
        await TransducerInspection.$inspector.withValue(recorder) {
            _ = try? await Tally.run(initialState: Tally.State(), proxy: proxy, output: NoCallback())
        }
        try recorder.close()
    }

    @Test func aRecordedSessionReplaysWithoutDifference() async throws {
        let url = try temporaryFile("tally.jsonl")
        try await record([.add(2), .add(3), .reset, .add(4)], to: url)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == #"{"oak":"session","transducer":"Tally","version":1}"#)
        #expect(
            lines.dropFirst().prefix(3) == [
                #"{"event":{"add":{"_0":2}}}"#, #"{"state":{"total":2}}"#, #"{"output":2}"#,
            ])

        let report = try SessionReplay.replay(Tally.self, from: url, initialState: Tally.State())
        #expect(report.events == 4)
        #expect(report.firstDifference == nil)
    }

    @Test func aReplayFindsTheFirstStepThatDiffers() async throws {
        let url = try temporaryFile("tally.jsonl")
        try await record([.add(2), .reset, .add(4)], to: url)
        let report = try SessionReplay.replay(BuggyTally.self, from: url, initialState: Tally.State())
        let difference = try #require(report.firstDifference)
        #expect(difference.line == 6)
        #expect(difference.kind == "state")
        #expect(difference.recorded == #"{"total":0}"#)
        #expect(difference.replayed == #"{"total":1}"#)
        #expect("\(report)".contains("the state at line 6 (after event 2) differs"))
    }

    @Test func aTruncatedFileNamesItsLastLine() async throws {
        let url = try temporaryFile("tally.jsonl")
        try await record([.add(2), .add(3)], to: url)
        var text = try String(contentsOf: url, encoding: .utf8)
        text.removeLast(5)
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SessionReplayError.truncated(line: 7)) {
            try SessionReplay.replay(Tally.self, from: url, initialState: Tally.State())
        }
    }

    @Test func aCorruptLineIsNamed() async throws {
        let url = try temporaryFile("tally.jsonl")
        try await record([.add(2), .add(3)], to: url)
        var lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        lines[2] = "{not json"
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SessionReplayError.corrupt(line: 3, "not a record")) {
            try SessionReplay.replay(Tally.self, from: url, initialState: Tally.State())
        }
    }

    @Test func aNewerVersionIsRefused() throws {
        let url = try temporaryFile("tally.jsonl")
        try #"{"oak":"session","transducer":"Tally","version":2}"#.appending("\n")
            .write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SessionReplayError.newerVersion(found: 2, supported: 1, line: 1)) {
            try SessionReplay.replay(Tally.self, from: url, initialState: Tally.State())
        }
    }

    @Test func aFileThatIsNotASessionIsRefused() throws {
        let url = try temporaryFile("notes.txt")
        try "hello\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SessionReplayError.notASession(line: 1)) {
            try SessionReplay.replay(Tally.self, from: url, initialState: Tally.State())
        }
    }
}
