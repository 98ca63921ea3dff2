// A transducer's state diagram as its tests explored it, given to the
// inspector so that its page draws every state and transition the tests
// found — those a live run has taken marked, the one it is in highlighted,
// and a transition the tests never found flagged.

import Foundation
import Oak

/// A transducer's state diagram as its tests explored it (OakTesting's
/// `StateGraph`), with how to place a live run's states and events on it.
///
/// A program links no test library: it ships the diagram its tests wrote
/// (`graph.mermaid()`, kept current by a test that compares the two, as
/// Comics' `ComicsDiagramTests` does) and gives it to the inspector with
/// the two functions that named the graph's nodes and events:
///
/// ```swift
/// let diagram = try InspectorDiagram(
///     of: Comics.self, mermaid: ComicsDiagram.mermaid,
///     node: { $0.phase.name }, event: { $0.name })
/// let inspector = LiveInspector(diagrams: [diagram])
/// ```
///
/// The inspector's page then draws the whole diagram for each run of that
/// type: the states and transitions the run has taken solid, the others
/// faint, the state at the step shown highlighted — and a transition the
/// run took that the tests never found in red, since no test covers it.
public struct InspectorDiagram: Sendable {
    /// The diagram, as its runs' entries carry it.
    public let graph: InspectorEntry.Diagram
    /// The transducer type it is the diagram of.
    let type: ObjectIdentifier
    /// Names a state's node and an event.
    private let naming: any DiagramNaming

    /// The node of `state`, a value of the type's `State`.
    func node<State>(_ state: State) -> String? { naming.node(state) }

    /// The name of `event`, a value of the type's `Event`.
    func event<Event>(_ event: Event) -> String? { naming.event(event) }

    /// The diagram of `type` in Mermaid, as `StateGraph.mermaid()` writes
    /// it; `node` and `event` are the functions the graph was explored
    /// with (its `node:` and `eventName:`).
    ///
    /// - Throws: ``InspectorDiagramError`` when `mermaid` is not a state
    ///   diagram `StateGraph` wrote.
    public init<T: BaseTransducer>(
        of type: T.Type, mermaid: String, node: @escaping @Sendable (T.State) -> String,
        event: @escaping @Sendable (T.Event) -> String
    ) throws(InspectorDiagramError) {
        self.graph = try Self.parse(mermaid)
        self.type = ObjectIdentifier(type)
        self.naming = Naming<T>(node: node, event: event)
    }

    /// The most lines a diagram may have (100,000).
    public static let lineLimit = 100_000

    /// Reads the subset of Mermaid's `stateDiagram-v2` that `StateGraph`
    /// writes: `state "NAME" as ID`, `[*] --> ID`, `ID --> ID: EVENT`,
    /// `ID --> [*]`, and `%%` comments.
    static func parse(_ mermaid: String) throws(InspectorDiagramError) -> InspectorEntry.Diagram {
        let lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count <= lineLimit else { throw .tooLarge(lines: lines.count) }
        var names: [String: String] = [:]
        var nodes: [String] = []
        var initial: String?
        var terminal: [String] = []
        var transitions: [InspectorEntry.Diagram.Transition] = []
        var sawHeader = false

        /// The node `id` names, declared now if it was not.
        func name(_ id: String) -> String {
            if let name = names[id] { return name }
            names[id] = id
            nodes.append(id)
            return id
        }

        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let unreadable = InspectorDiagramError.unreadableLine(index + 1, line)
            if line.isEmpty || line.hasPrefix("%%") { continue }
            guard sawHeader else {
                guard line == "stateDiagram-v2" || line == "stateDiagram" else { throw .notAStateDiagram }
                sawHeader = true
                continue
            }
            if line.hasPrefix("state \""), let close = line.dropFirst(7).firstIndex(of: "\"") {
                let declaration = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
                let id = declaration.dropFirst(3).trimmingCharacters(in: .whitespaces)
                guard declaration.hasPrefix("as "), !id.isEmpty, names[id] == nil else { throw unreadable }
                let name = Self.unescape(line[line.index(line.startIndex, offsetBy: 7)..<close])
                names[id] = name
                nodes.append(name)
                continue
            }
            guard let arrow = line.firstRange(of: "-->") else { throw unreadable }
            let from = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
            let rest = line[arrow.upperBound...]
            let colon = rest.firstIndex(of: ":")
            let to = rest[..<(colon ?? rest.endIndex)].trimmingCharacters(in: .whitespaces)
            let event =
                colon.map { Self.unescape(rest[rest.index(after: $0)...].trimmingCharacters(in: .whitespaces)) } ?? ""
            guard !from.isEmpty, !to.isEmpty, !(from == "[*]" && to == "[*]") else { throw unreadable }
            if from == "[*]" {
                initial = name(to)
            } else if to == "[*]" {
                terminal.append(name(from))
            } else {
                transitions.append(.init(from: name(from), event: event, to: name(to)))
            }
        }
        guard sawHeader else { throw .notAStateDiagram }
        guard let initial else { throw .noInitialState }
        return InspectorEntry.Diagram(nodes: nodes, initial: initial, terminal: terminal, transitions: transitions)
    }

    /// Undoes `StateGraph`'s escapes: `#58;` is a colon.
    private static func unescape(_ text: some StringProtocol) -> String {
        String(text).replacing("#58;", with: ":")
    }
}

/// Names a transducer's states and events on its diagram, for values of
/// any type (a run of another type gets `nil`).
private protocol DiagramNaming: Sendable {
    func node<State>(_ state: State) -> String?
    func event<Event>(_ event: Event) -> String?
}

private struct Naming<T: BaseTransducer>: DiagramNaming {
    let node: @Sendable (T.State) -> String
    let event: @Sendable (T.Event) -> String

    func node<State>(_ state: State) -> String? {
        (state as? T.State).map(node)
    }

    func event<Event>(_ event: Event) -> String? {
        (event as? T.Event).map(self.event)
    }
}

/// Why a diagram could not be read.
public enum InspectorDiagramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text does not begin with `stateDiagram-v2`.
    case notAStateDiagram
    /// A line is not one `StateGraph` writes.
    case unreadableLine(Int, String)
    /// No `[*] --> ID` line says where the diagram starts.
    case noInitialState
    /// More than ``InspectorDiagram/lineLimit`` lines.
    case tooLarge(lines: Int)

    /// What went wrong, and what to give instead.
    public var description: String {
        let fix = "Give the diagram as OakTesting's StateGraph.mermaid() wrote it."
        return switch self {
        case .notAStateDiagram: "The diagram does not begin with \"stateDiagram-v2\". \(fix)"
        case .unreadableLine(let number, let text):
            "Line \(number) of the diagram (\"\(text.prefix(80))\") is not a state, a start, an end or a transition. \(fix)"
        case .noInitialState: "The diagram has no \"[*] --> state\" line to say where it starts. \(fix)"
        case .tooLarge(let lines):
            "The diagram has \(lines) lines, more than \(InspectorDiagram.lineLimit). Explore fewer states (maxStates)."
        }
    }
}
