// A run's entries kept in a file: what a failing OakTesting test writes and
// `oak-inspector open FILE` shows, its failing step chosen.

import Foundation
import Oak

/// A run's entries, as the inspector would have received them, kept in a
/// file: OakTesting's `TransducerTester` and `UpdateTester` write one when
/// an expectation fails, and `oak-inspector open FILE` shows it at the
/// failing step.
///
/// The file is JSON Lines: a header `{"recording":{"title":…,"version":1}}`,
/// then one ``InspectorEntry`` a line, the last a
/// ``InspectorEntry/Kind/testFailed`` entry where a test failed.
public struct InspectorRecording: Hashable, Sendable {
    /// What was recorded (`Counter, failed at CounterTests.swift:42`).
    public var title: String
    /// The entries, in the order recorded.
    public var entries: [InspectorEntry]

    /// The version of the file's format this library writes and reads.
    public static let version = 1

    /// A recording.
    public init(title: String, entries: [InspectorEntry]) {
        self.title = title
        self.entries = entries
    }

    /// The run and the page's step (the start is 0, each event one more)
    /// where the test failed: what `oak-inspector open` shows first.
    public var failure: (run: UInt64, step: Int)? {
        guard let failed = entries.last(where: { $0.kind == .testFailed }) else { return nil }
        let events = entries.filter { $0.run == failed.run && $0.kind == .event && $0.sequence < failed.sequence }
        return (failed.run, events.count)
    }

    private struct Header: Codable {
        var title: String
        var version: Int
    }

    /// The recording as the file's text.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines: [String] = []
        if let header = try? encoder.encode(["recording": Header(title: title, version: Self.version)]) {
            lines.append(String(decoding: header, as: UTF8.self))
        }
        for entry in entries {
            if let data = try? encoder.encode(entry) { lines.append(String(decoding: data, as: UTF8.self)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the recording to `url`, replacing what is there.
    public func write(to url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// Reads the recording at `url`, of at most `limit` bytes.
    ///
    /// - Throws: ``InspectorRecordingError`` naming what is wrong and where.
    public static func read(from url: URL, limit: Int = 256 << 20) throws(InspectorRecordingError) -> Self {
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            guard size <= limit else { throw InspectorRecordingError.tooLarge(url.path, limit: limit) }
            data = try Data(contentsOf: url)
        } catch let error as InspectorRecordingError {
            throw error
        } catch {
            throw .unreadable(url.path, "\(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first,
            let header = try? decoder.decode([String: Header].self, from: first)["recording"]
        else { throw .notARecording(url.path) }
        guard header.version <= version else { throw .newerVersion(header.version, supported: version) }
        var entries: [InspectorEntry] = []
        entries.reserveCapacity(lines.count - 1)
        for (number, line) in zip(2..., lines.dropFirst()) {
            guard let entry = try? decoder.decode(InspectorEntry.self, from: line) else {
                throw .corrupt(url.path, line: number)
            }
            entries.append(entry)
        }
        return InspectorRecording(title: header.title, entries: entries)
    }

    /// Builds a recording of one run from its values, as ``LiveInspector``
    /// records them: each state as text and its change from the one before,
    /// each `Codable` value as JSON too. For tools that keep a run's values
    /// and write a recording only when asked (OakTesting, on a failure).
    public struct Builder {
        private var entries: [InspectorEntry] = []
        private var lastState = ""
        private let run: UInt64 = 1

        /// A recording of a run of `type`, from `initialState`.
        public init<State>(type: Any.Type, initialState: State) {
            lastState = LiveInspector.text(of: initialState)
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .started, type: String(reflecting: type), state: lastState,
                    json: LiveInspector.json(of: initialState)))
        }

        private mutating func append(_ entry: InspectorEntry) {
            var entry = entry
            entry.sequence = UInt64(entries.count + 1)
            entries.append(entry)
        }

        /// The run took `event`.
        public mutating func event(_ event: some Any) {
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .event,
                    text: StateText.described(event), json: LiveInspector.json(of: event)))
        }

        /// The state after a step.
        public mutating func state(_ state: some Any) {
            let text = LiveInspector.text(of: state)
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .state, state: text,
                    diff: StateDiff.lines(from: lastState, to: text), json: LiveInspector.json(of: state)))
            lastState = text
        }

        /// An output.
        public mutating func output(_ output: some Any) {
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .output,
                    text: StateText.described(output), json: LiveInspector.json(of: output)
                ))
        }

        /// An effect started, finished, was cancelled, failed (with
        /// `error`), or had an event refused: `kind` says which.
        public mutating func effect(_ kind: InspectorEntry.Kind, _ info: EffectInfo, error: (any Error)? = nil) {
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: kind,
                    text: error.map { StateText.described($0) },
                    effect: LiveInspector.effect(info)))
        }

        /// The run waits for its next event.
        public mutating func waiting() {
            append(InspectorEntry(sequence: 0, time: 0, run: run, kind: .waiting))
        }

        /// The run ended, with `error` or in a terminal state.
        public mutating func ended(_ error: (any Error)?) {
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .ended,
                    text: error.map { StateText.described($0) }))
        }

        /// A test's expectation failed here, saying `message`.
        public mutating func testFailed(_ message: String) {
            append(
                InspectorEntry(
                    sequence: 0, time: 0, run: run, kind: .testFailed, text: StateText.clipped(message, to: 20_000)))
        }

        /// The recording, titled `title`.
        public func recording(title: String) -> InspectorRecording {
            InspectorRecording(title: title, entries: entries)
        }
    }
}

/// Why a recording could not be read.
public enum InspectorRecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(String, String)
    /// The file is larger than the limit.
    case tooLarge(String, limit: Int)
    /// The file does not start with a recording's header.
    case notARecording(String)
    /// A newer library wrote it.
    case newerVersion(Int, supported: Int)
    /// A line is not an entry.
    case corrupt(String, line: Int)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Could not read \(path): \(reason)."
        case .tooLarge(let path, let limit):
            "\(path) is larger than \(limit >> 20) MB: is it a recording? Recordings of failing tests are smaller."
        case .notARecording(let path):
            "\(path) is not a recording (its first line is not a recording's header): open a file a failing "
                + "OakTesting test named."
        case .newerVersion(let found, let supported):
            "The recording is of version \(found); this inspector reads up to \(supported): update Oak."
        case .corrupt(let path, let line):
            "Line \(line) of \(path) is not an entry: the file was cut short or changed by hand."
        }
    }
}
