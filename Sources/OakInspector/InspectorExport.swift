// From what the inspector saw of a run to something that reproduces it: a
// session file `SessionReplay` reads, and a Swift Testing test that feeds
// the same events through `update` and checks every state.

import Foundation

/// Turns the recorded steps of one run into a session file and a test.
///
/// The run's recorded events are all it took, those its operations sent
/// back included, so `update` alone reproduces the run: the exported test
/// checks the state after every event, exhaustively, with `UpdateTester`,
/// and each output the recording holds; effects are not run.
///
/// A run can be exported when its events and states were recorded as JSON
/// (``InspectorEntry/json``): its `Event` and `State` are `Codable`, and
/// `State` is `Equatable`.
///
/// ```swift
/// let export = try InspectorExport(entries: inspector.take(), run: run)
/// try export.session.write(to: url, atomically: true, encoding: .utf8)
/// print(export.test(named: "theBugOfMonday"))
/// ```
public struct InspectorExport: Sendable {
    /// The run's type, as the runtime names it (`MyApp.Counter`).
    public let type: String
    /// The run exported.
    public let run: UInt64
    /// The state the span starts from, as JSON.
    public let initialState: String
    /// Each event of the span, with the state after it (JSON) and its
    /// output (JSON) where it was recorded.
    public let steps: [Step]

    /// One event and what followed it.
    public struct Step: Hashable, Sendable {
        /// The entry's sequence number.
        public var sequence: UInt64
        /// The event, as JSON.
        public var event: String
        /// The state after it, as JSON.
        public var state: String
        /// Its output, as JSON, if it was recorded and `Encodable`.
        public var output: String?
    }

    /// The steps of `run` among `entries` (in the order recorded), from the
    /// first event recorded through the entry numbered `last` (every one
    /// when `nil`).
    ///
    /// - Throws: ``InspectorExportError`` when the run is not among the
    ///   entries, took no event in the span, or a value was not recorded as
    ///   JSON (the error names which and what to do).
    public init(entries: [InspectorEntry], run: UInt64, through last: UInt64? = nil) throws(InspectorExportError) {
        // `running` entries are numbered 0: they come before any step.
        let ofRun = entries.filter { $0.run == run && $0.sequence <= (last ?? .max) }
        guard let type = ofRun.compactMap(\.type).first else { throw .noSuchRun(run) }
        self.type = type
        self.run = run
        var state: String?
        var steps: [Step] = []
        var initial: String?
        var pending: (sequence: UInt64, event: String)?
        for entry in ofRun {
            switch entry.kind {
            case .started, .running:
                state = entry.json
                if entry.json == nil { throw .notEncodable("State", of: type) }
            case .event:
                guard let event = entry.json else { throw .notEncodable("Event", of: type) }
                if initial == nil {
                    guard let state else { throw .noStartingState(run) }
                    initial = state
                }
                pending = (entry.sequence, event)
            case .state:
                guard let json = entry.json else { throw .notEncodable("State", of: type) }
                state = json
                if let taken = pending {
                    steps.append(Step(sequence: taken.sequence, event: taken.event, state: json))
                    pending = nil
                }
            case .output:
                if let json = entry.json, let index = steps.indices.last, steps[index].output == nil,
                    steps[index].sequence < entry.sequence
                {
                    steps[index].output = json
                }
            default:
                break
            }
        }
        guard let initial, !steps.isEmpty else { throw .noEvents(run) }
        initialState = initial
        self.steps = steps
    }

    /// The span as a session file (JSON Lines) that OakTesting's
    /// `SessionReplay` replays: a header, then each event, the state after
    /// it and its output.
    public var session: String {
        var lines = [#"{"oak":"session","transducer":\#(Self.quoted(Self.shortName(type))),"version":1}"#]
        for step in steps {
            lines.append(#"{"event":\#(step.event)}"#)
            lines.append(#"{"state":\#(step.state)}"#)
            if let output = step.output { lines.append(#"{"output":\#(output)}"#) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The span as a Swift Testing test: the events sent through `update`
    /// with `UpdateTester`, each state change asserted (the whole state
    /// after it), each recorded output compared as JSON.
    ///
    /// The file imports the type's module with `@testable`: put it in that
    /// module's test target.
    ///
    /// - Parameter name: The test function's name; made from the type and
    ///   the run when `nil`.
    public func test(named name: String? = nil) -> String {
        let module = type.split(separator: ".").first.map(String.init) ?? type
        let function = name.flatMap(Self.identifier) ?? "replayOf\(Self.shortName(type))Run\(run)"
        let count = "\(steps.count) event\(steps.count == 1 ? "" : "s")"
        var lines = [
            "// Generated by oak-inspector from a run of \(type) (\(count)): replays the",
            "// events through `update`, checks every state, exhaustively, and each output",
            "// recorded.",
            "",
            "import Foundation",
            "import OakTesting",
            "import Testing",
            "",
            "@testable import \(module)",
            "",
            "@Test func \(function)() throws {",
            "    var tester = UpdateTester(Recorded.self, state: try state(\(Self.literal(initialState))))",
        ]
        var before = initialState
        for (number, step) in zip(1..., steps) {
            var send = "tester.send(try event(\(Self.literal(step.event))))"
            if step.state != before {
                send += " {\n        $0 = try state(\(Self.literal(step.state)))\n    }"
            }
            if let output = step.output {
                lines.append("    let output\(number) = \(send).output")
                lines.append("    #expect(try json(output\(number)) == \(Self.literal(output)))")
            } else {
                lines.append("    \(send)")
            }
            before = step.state
        }
        lines += [
            "}",
            "",
            "private typealias Recorded = \(type)",
            "",
            "/// A state from the JSON oak-inspector recorded.",
            "private func state(_ json: String) throws -> Recorded.State {",
            "    try JSONDecoder().decode(Recorded.State.self, from: Data(json.utf8))",
            "}",
            "",
            "/// An event from the JSON oak-inspector recorded.",
            "private func event(_ json: String) throws -> Recorded.Event {",
            "    try JSONDecoder().decode(Recorded.Event.self, from: Data(json.utf8))",
            "}",
            "",
            "/// A value as JSON, as oak-inspector recorded it.",
            "private func json(_ value: some Encodable) throws -> String {",
            "    let encoder = JSONEncoder()",
            "    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]",
            "    return String(decoding: try encoder.encode(value), as: UTF8.self)",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The type's name without its module, of letters and digits only: a
    /// file's name (`Counter` of `MyApp.Counter`).
    public static func fileName(_ type: String) -> String {
        let name = String(
            shortName(type).unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        return name.isEmpty ? "Run" : name
    }

    /// `Counter` of `MyApp.Counter`.
    static func shortName(_ type: String) -> String {
        let name = type.split(separator: ".").dropFirst().joined()
        return name.isEmpty ? type : name
    }

    /// A raw string literal holding `text` whatever it contains: enough `#`
    /// that no `"#…` inside ends it; newlines escaped (JSON has none raw).
    static func literal(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + text + "\"" + hashes
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `name` when it is a Swift identifier of letters, digits and `_`.
    static func identifier(_ name: String) -> String? {
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII })
        else { return nil }
        return name
    }
}

/// Why a run could not be exported.
public enum InspectorExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No entry of that run was kept.
    case noSuchRun(UInt64)
    /// The run took no event in the span.
    case noEvents(UInt64)
    /// The state before the first event was not kept (the oldest entries
    /// were dropped).
    case noStartingState(UInt64)
    /// `Event` or `State` of the type was not recorded as JSON.
    case notEncodable(String, of: String)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .noSuchRun(let run):
            "Run \(run) is not among the entries kept: choose a run the inspector lists."
        case .noEvents(let run):
            "Run \(run) took no event up to the step chosen: step forward, or choose another run."
        case .noStartingState(let run):
            "The state run \(run) started from was dropped (the inspector kept only the newest entries): "
                + "start the inspector before the app, or export a run that started later."
        case .notEncodable(let what, let type):
            "\(type).\(what) was not recorded as JSON: make it Codable (State also Equatable) to export its runs; "
                + "a value whose JSON is over 100,000 bytes is not recorded either."
        }
    }
}
