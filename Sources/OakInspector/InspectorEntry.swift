// What the inspector is sent of a run, as plain values: an entry a step,
// with text where the run had values (events, states as a diff, outputs).

/// One thing a run did, as the inspector receives it: `Sendable`, `Codable`
/// (one JSON object a line on the wire), and independent of the
/// transducer's types.
public struct InspectorEntry: Hashable, Sendable, Codable {
    /// What the entry tells.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The run started: `type`, `parent`, and `state` (the initial state).
        case started
        /// A run that was already going when the reader (re)connected:
        /// `type`, `parent`, and `state` as last recorded.
        case running
        /// The run took an event (`text`).
        case event
        /// The state after a step: `diff` against the state before, and the
        /// whole `state`.
        case state
        /// An output, before it is delivered (`text`).
        case output
        /// An effect started (`effect`).
        case effectStarted
        /// An operation finished (`effect`).
        case effectFinished
        /// An operation was cancelled (`effect`).
        case effectCancelled
        /// An effect failed (`effect`, and the error in `text`).
        case effectFailed
        /// An event from a cancelled operation was refused (`effect`).
        case eventRefused
        /// An intent was invoked out of its state's scope (`text`: its event).
        case intentRefused
        /// The run waits for its next event.
        case waiting
        /// The run ended: `text` is the error, or nothing for a terminal state.
        case ended
        /// The inspector fell behind and `dropped` entries were lost
        /// (the oldest ones): the ring buffer was full.
        case dropped
        /// A test's expectation failed after the steps before it (`text`:
        /// the failure); only in an ``InspectorRecording`` of a failing test.
        case testFailed
    }

    /// Numbers the entries of one inspector from 1, in the order they were
    /// recorded (a gap is what a `dropped` entry counts).
    public var sequence: UInt64
    /// Seconds since the inspector started, when the entry was recorded.
    public var time: Double
    /// The run (`RunID`'s number); 0 for `dropped`.
    public var run: UInt64
    /// What the entry tells.
    public var kind: Kind
    /// The transducer's type (`started`, `running`).
    public var type: String?
    /// The run whose operation started this one (`started`, `running`).
    public var parent: UInt64?
    /// The event, output, error or refused event, as text.
    public var text: String?
    /// The whole state (`started`, `running`, `state`), as multi-line text.
    public var state: String?
    /// The state's change from the step before (`state`): every line of
    /// both, in order, each marked kept, removed or added. Empty when the
    /// step changed nothing.
    public var diff: [DiffLine]?
    /// The effect (`effect…`, `eventRefused`).
    public var effect: Effect?
    /// How many entries were dropped (`dropped` only).
    public var dropped: UInt64?
    /// Where the run's initial state was restored from — a snapshot's
    /// file, a checkpoint — (`started`, `running`); `nil` for a state made
    /// anew.
    public var restoredFrom: String?
    /// The value itself as JSON, when its type is `Encodable` and its JSON
    /// at most ``jsonLimit`` bytes: the event (`event`), the output
    /// (`output`), the state (`started`, `running`, `state`). What an
    /// export replays (``InspectorExport``).
    public var json: String?
    /// The run's state diagram as its tests explored it, when the app gave
    /// the inspector one for its type (``InspectorDiagram``): `started`,
    /// `running`.
    public var diagram: Diagram?
    /// The state's node in ``diagram`` (`started`, `running`, `state`), or
    /// the event's name on its transitions (`event`).
    public var node: String?

    /// The longest ``json`` kept, in bytes (100,000): a larger value is
    /// shown as text and cannot be exported.
    public static let jsonLimit = 100_000

    /// An entry; the fields a kind does not use are `nil`.
    public init(
        sequence: UInt64, time: Double, run: UInt64, kind: Kind, type: String? = nil, parent: UInt64? = nil,
        text: String? = nil, state: String? = nil, diff: [DiffLine]? = nil, effect: Effect? = nil,
        dropped: UInt64? = nil, restoredFrom: String? = nil, json: String? = nil, diagram: Diagram? = nil,
        node: String? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.run = run
        self.kind = kind
        self.type = type
        self.parent = parent
        self.text = text
        self.state = state
        self.diff = diff
        self.effect = effect
        self.dropped = dropped
        self.restoredFrom = restoredFrom
        self.json = json
        self.diagram = diagram
        self.node = node
    }

    /// An effect of a run, as `EffectInfo` tells it.
    public struct Effect: Hashable, Sendable, Codable {
        /// Numbers the run's effects from 1.
        public var number: UInt64
        /// `action` or `operation`.
        public var kind: String
        /// The operation's id, if it has one.
        public var id: String?

        /// An effect.
        public init(number: UInt64, kind: String, id: String?) {
            self.number = number
            self.kind = kind
            self.id = id
        }
    }

    /// A line of a state's diff: kept, removed or added.
    public struct DiffLine: Hashable, Sendable, Codable {
        /// ` ` kept, `-` removed, `+` added.
        public var mark: String
        /// The line's text.
        public var text: String

        /// A line of a diff.
        public init(_ mark: String, _ text: String) {
            self.mark = mark
            self.text = text
        }
    }

    /// A state diagram: its states (nodes), where it starts, where it
    /// ends, and the transitions between them, each named by its event
    /// (`didLoad (received)` for an event an effect sent).
    public struct Diagram: Hashable, Sendable, Codable {
        /// The nodes, in the order the diagram declares them.
        public var nodes: [String]
        /// The node the transducer starts in.
        public var initial: String
        /// The nodes whose states are terminal.
        public var terminal: [String]
        /// The transitions, in the diagram's order.
        public var transitions: [Transition]

        /// A transition from one node to another (or the same) on an event.
        public struct Transition: Hashable, Sendable, Codable {
            /// The node before.
            public var from: String
            /// The event's name.
            public var event: String
            /// The node after.
            public var to: String

            /// A transition.
            public init(from: String, event: String, to: String) {
                self.from = from
                self.event = event
                self.to = to
            }
        }

        /// A diagram.
        public init(nodes: [String], initial: String, terminal: [String] = [], transitions: [Transition]) {
            self.nodes = nodes
            self.initial = initial
            self.terminal = terminal
            self.transitions = transitions
        }
    }
}
