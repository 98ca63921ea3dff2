import Foundation
import Oak

/// Replays a session recorded by ``SessionRecorder``: feeds its events
/// through `update`, from the initial state, and reports the first step
/// whose state or output differs from the recording.
///
/// ```swift
/// let report = try SessionReplay.replay(Counter.self, from: url, initialState: .init())
/// #expect(report.firstDifference == nil, "\(report)")
/// ```
///
/// Effects are not run: the recording holds every event the run took,
/// those that effects sent back included, so `update` alone reproduces the
/// run. A state or output is compared only where the recording has one and
/// its type is `Encodable`; the comparison is of their JSON.
public enum SessionReplay {
    /// Replays the session at `url` through the `update` of the effect
    /// transducer `type`.
    ///
    /// - Throws: ``SessionReplayError`` when the file cannot be read, is not
    ///   a session, was written by a newer version, or has a line that is
    ///   truncated or corrupt; the error names the line.
    public static func replay<T: EffectTransducer>(
        _ type: T.Type, from url: URL, initialState: T.State
    ) throws(SessionReplayError) -> ReplayReport where T.Event: Decodable {
        try replay(from: url, initialState: initialState) { state, event in T.compute(&state, event: event).1 }
    }

    /// Replays the session at `url` through the `update` of the pure
    /// transducer `type`.
    public static func replay<T: Transducer>(
        _ type: T.Type, from url: URL, initialState: T.State
    ) throws(SessionReplayError) -> ReplayReport where T.Event: Decodable {
        try replay(from: url, initialState: initialState) { state, event in T.update(&state, event: event) }
    }

    private static func replay<State, Event: Decodable, Output>(
        from url: URL, initialState: State, update: (inout State, Event) -> Output
    ) throws(SessionReplayError) -> ReplayReport {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(url.path, "\(error)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, !first.isEmpty else { throw .notASession(line: 1) }
        // A complete file ends with a newline: the last piece is empty.
        let endsWithNewline = lines.last == ""
        if endsWithNewline { lines.removeLast() }

        let decoder = JSONDecoder()
        let header: SessionHeader
        do {
            header = try decoder.decode(SessionHeader.self, from: Data(first.utf8))
        } catch {
            throw lines.count == 1 && !endsWithNewline ? .truncated(line: 1) : .notASession(line: 1)
        }
        guard header.oak == SessionHeader.format else { throw .notASession(line: 1) }
        guard header.version <= SessionHeader.currentVersion else {
            throw .newerVersion(found: header.version, supported: SessionHeader.currentVersion, line: 1)
        }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var state = initialState
        var lastOutput: Output?
        var report = ReplayReport(transducer: header.transducer)
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            let isLast = offset == lines.count - 1
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let key = object.keys.first, object.count == 1
            else {
                throw isLast && !endsWithNewline ? .truncated(line: number) : .corrupt(line: number, "not a record")
            }
            switch key {
            case "event":
                let decoded: Event?
                do {
                    decoded = try decoder.decode([String: Event].self, from: Data(line.utf8))["event"]
                } catch {
                    throw .corrupt(line: number, "the event does not decode: \(error)")
                }
                guard let event = decoded else { throw .corrupt(line: number, "no event") }
                lastOutput = update(&state, event)
                report.events += 1
            case "state", "output":
                guard report.firstDifference == nil, let recorded = object[key] else { continue }
                let value: Any? = key == "state" ? state : lastOutput
                guard let encodable = value as? any Encodable,
                    let encoded = try? encoder.encode(AnyEncodable(encodable)),
                    let actual = try? JSONSerialization.jsonObject(with: encoded, options: .fragmentsAllowed)
                else { continue }
                if !NSDictionary(dictionary: ["v": recorded]).isEqual(to: ["v": actual]) {
                    report.firstDifference = ReplayReport.Difference(
                        line: number, event: report.events, kind: key,
                        recorded: Self.json(recorded), replayed: Self.json(actual))
                }
            default:
                throw .corrupt(line: number, "unknown record \"\(key)\"")
            }
        }
        return report
    }

    private static func json(_ value: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What replaying a session found.
public struct ReplayReport: CustomStringConvertible, Sendable {
    /// Where the replay first differed from the recording.
    public struct Difference: Equatable, Sendable {
        /// The line of the recording that differs.
        public let line: Int
        /// How many events had been replayed (the differing record follows
        /// the last of them).
        public let event: Int
        /// `"state"` or `"output"`.
        public let kind: String
        /// The recorded value, as JSON.
        public let recorded: String
        /// The replayed value, as JSON.
        public let replayed: String
    }

    /// The transducer named in the recording's header.
    public let transducer: String
    /// How many events were replayed.
    public internal(set) var events = 0
    /// The first difference, or `nil` when the replay matched the recording.
    public internal(set) var firstDifference: Difference?

    init(transducer: String) {
        self.transducer = transducer
    }

    /// For example `replayed 12 events of Counter: the state at line 9 differs …`.
    public var description: String {
        guard let difference = firstDifference else {
            return "replayed \(events) events of \(transducer): no difference"
        }
        return "replayed \(events) events of \(transducer): the \(difference.kind) at line \(difference.line) "
            + "(after event \(difference.event)) differs: recorded \(difference.recorded), "
            + "replayed \(difference.replayed)"
    }
}

/// Why a session cannot be replayed. Each case names the line of the file.
public enum SessionReplayError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(String, String)
    /// The first line is not the header of an Oak session.
    case notASession(line: Int)
    /// The session was written by a newer version of `OakTesting`.
    case newerVersion(found: Int, supported: Int, line: Int)
    /// The last line is incomplete: the recording was cut off.
    case truncated(line: Int)
    /// A line is not a record this version understands.
    case corrupt(line: Int, String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "The session file \(path) cannot be read: \(reason)."
        case .notASession(let line):
            "Line \(line) is not the header of an Oak session; record sessions with SessionRecorder."
        case .newerVersion(let found, let supported, let line):
            "Line \(line): the session has format version \(found); this OakTesting reads up to version "
                + "\(supported). Update OakTesting to replay it."
        case .truncated(let line):
            "Line \(line) is incomplete: the recording was cut off. Close the SessionRecorder before reading "
                + "the file, or remove the last line."
        case .corrupt(let line, let reason):
            "Line \(line) is not a valid record (\(reason))."
        }
    }
}
