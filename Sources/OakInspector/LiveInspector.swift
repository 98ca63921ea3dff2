// The inspector a running app installs: turns every record of every run
// into an `InspectorEntry` at once (on the run's isolation: the values are
// not `Sendable`), keeps the entries in a ring buffer that drops the oldest
// when whoever reads them falls behind, and never blocks a run.

import DequeModule
import Dispatch
import Foundation
import Oak

/// Watches every run started where it is installed and keeps what they do
/// as ``InspectorEntry`` values for a reader: the `oak-inspector` page, a
/// log, a test.
///
/// ```swift
/// let inspector = LiveInspector()
/// try await TransducerInspection.$inspector.withValue(inspector) {
///     try await app.run()
/// }
/// // elsewhere:
/// for await entries in inspector.batches { send(entries) }
/// ```
///
/// It never blocks a run: each record is turned into text and appended
/// under a lock; the reader computes each state's diff to the step before. At most `capacity`
/// entries wait for the reader; beyond that the oldest are dropped, and the
/// reader's next batch begins with a ``InspectorEntry/Kind/dropped`` entry
/// that counts them.
///
/// Given the state diagrams its app's tests explored (``InspectorDiagram``),
/// it places each run of those types on its diagram: the entries carry the
/// diagram, each state's node and each event's name on it.
public final class LiveInspector: TransducerInspector, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `buffer` is read and written only
    // under `lock`, `runs` only under `readerLock`; the rest is immutable.
    private let lock = NSLock()
    private var buffer = Buffer()
    private let start = ContinuousClock.now
    /// The reader's side: each run's state as last taken, to diff the next
    /// against (off the runs' path). Only touched under `readerLock`.
    private let readerLock = NSLock()
    private var runs: [UInt64: RunNow] = [:]

    /// A live run as the reader last saw it.
    private struct RunNow {
        var type: String?
        var parent: UInt64?
        var restoredFrom: String?
        var state: String
        var json: String?
        var time: Double
        var diagram: InspectorEntry.Diagram?
        var node: String?
    }

    /// The most entries kept for the reader.
    public let capacity: Int

    /// The diagrams the app gave, by transducer type.
    private let diagrams: [ObjectIdentifier: InspectorDiagram]

    /// An inspector keeping at most `capacity` entries (at least 1) for its
    /// reader; each run of a type `diagrams` has one for is shown on it
    /// (the last given for a type counts).
    public init(capacity: Int = 10_000, diagrams: [InspectorDiagram] = []) {
        self.capacity = max(1, capacity)
        self.diagrams = Dictionary(diagrams.map { ($0.type, $0) }, uniquingKeysWith: { $1 })
    }

    /// The diagram of `type`, if the app gave one.
    private func diagram<T: BaseTransducer>(of type: T.Type) -> InspectorDiagram? {
        diagrams.isEmpty ? nil : diagrams[ObjectIdentifier(type)]
    }

    private struct Buffer {
        var entries = Deque<InspectorEntry>()
        var sequence: UInt64 = 0
        var dropped: UInt64 = 0
        var totalDropped: UInt64 = 0
        var waiter: CheckedContinuation<[InspectorEntry], Never>?
        /// A thread's reader waiting in ``LiveInspector/next(timeout:)``.
        var sleeper: DispatchSemaphore?
        var isClosed = false
    }

    /// How many entries were dropped in all because the reader fell behind.
    public var droppedCount: UInt64 { lock.withLock { buffer.totalDropped } }

    // MARK: TransducerInspector

    /// Records the start of a run: its type, parent, initial state, and
    /// where that was restored from.
    public func started<T: BaseTransducer>(_ run: RunID, of type: T.Type, initialState: T.State, start: RunStart) {
        let state = Self.text(of: initialState)
        let diagram = diagram(of: type)
        append(
            run, .started, type: String(reflecting: type), parent: start.parent?.rawValue, state: state,
            restoredFrom: start.restoredFrom, json: Self.json(of: initialState), diagram: diagram?.graph,
            node: diagram?.node(initialState))
    }

    /// Records one step of a run.
    public func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        switch record {
        case .event(let event):
            append(
                run, .event, text: StateText.described(event), json: Self.json(of: event),
                node: diagram(of: T.self)?.event(event))
        case .state(let state):
            append(
                run, .state, state: Self.text(of: state), json: Self.json(of: state),
                node: diagram(of: T.self)?.node(state))
        case .output(let output):
            append(
                run, .output, text: StateText.described(output),
                json: Self.json(of: output))
        case .effectStarted(let info): append(run, .effectStarted, effect: Self.effect(info))
        case .effectFinished(let info): append(run, .effectFinished, effect: Self.effect(info))
        case .effectCancelled(let info): append(run, .effectCancelled, effect: Self.effect(info))
        case .effectFailed(let info, let error):
            append(
                run, .effectFailed, text: StateText.described(error),
                effect: Self.effect(info))
        case .eventRefused(let info): append(run, .eventRefused, effect: Self.effect(info))
        case .intentRefused(let event):
            append(run, .intentRefused, text: StateText.described(event))
        case .waitingForEvents: append(run, .waiting)
        case .ended(let error):
            append(run, .ended, text: error.map { StateText.described($0) })
        }
    }

    /// A state as lines a diff can compare: one a stored property, nested
    /// ones indented; a type that describes itself (`URL`, `Date`) by
    /// its description; at most 50 items of a collection.
    public static func text(of state: some Any) -> String {
        StateText.render(state)
    }

    /// `value` as JSON (sorted keys, as `SessionRecorder` writes it) when
    /// its type is `Encodable` and the JSON is at most
    /// ``InspectorEntry/jsonLimit`` bytes; else `nil`.
    static func json(of value: some Any) -> String? {
        guard let encodable = value as? any Encodable else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(encodable), data.count <= InspectorEntry.jsonLimit else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func effect(_ info: EffectInfo) -> InspectorEntry.Effect {
        InspectorEntry.Effect(number: info.sequenceNumber, kind: info.kind.rawValue, id: info.id.map { "\($0)" })
    }

    private func append(
        _ run: RunID, _ kind: InspectorEntry.Kind, type: String? = nil, parent: UInt64? = nil, text: String? = nil,
        state: String? = nil, effect: InspectorEntry.Effect? = nil, restoredFrom: String? = nil, json: String? = nil,
        diagram: InspectorEntry.Diagram? = nil, node: String? = nil
    ) {
        let waiter: CheckedContinuation<[InspectorEntry], Never>?
        let taken: [InspectorEntry]
        (waiter, taken) = lock.withLock { () -> (CheckedContinuation<[InspectorEntry], Never>?, [InspectorEntry]) in
            guard !buffer.isClosed else { return (nil, []) }
            // Read under the lock, so that times rise with the sequence
            // numbers when an operation's task records beside its run.
            let elapsed = start.duration(to: .now)
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            buffer.sequence += 1
            let entry = InspectorEntry(
                sequence: buffer.sequence, time: time, run: run.rawValue, kind: kind, type: type, parent: parent,
                text: text, state: state, effect: effect, restoredFrom: restoredFrom, json: json, diagram: diagram,
                node: node)
            buffer.entries.append(entry)
            if buffer.entries.count > capacity {
                buffer.entries.removeFirst()
                buffer.dropped += 1
                buffer.totalDropped += 1
            }
            if let sleeper = buffer.sleeper {
                buffer.sleeper = nil
                sleeper.signal()
            }
            guard let waiter = buffer.waiter else { return (nil, []) }
            buffer.waiter = nil
            return (waiter, takeAll())
        }
        waiter?.resume(returning: taken)
    }

    // MARK: Reading

    /// The entries recorded since the last call, oldest first (a `dropped`
    /// entry first when some were lost); waits for one when there are
    /// none. Once the inspector is closed, the entries not yet read and
    /// then empty batches. One reader at a time.
    public func next() async -> [InspectorEntry] {
        let batch = await withCheckedContinuation { continuation in
            let ready: [InspectorEntry]? = lock.withLock {
                if buffer.isClosed || !buffer.entries.isEmpty || buffer.dropped > 0 { return takeAll() }
                // A second reader's wait ends the first's with nothing.
                buffer.waiter?.resume(returning: [])
                buffer.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return diffed(batch)
    }

    /// The entries recorded since the last call, waiting at most `timeout`
    /// for one, blocking the calling thread: for a reader on a thread of
    /// its own (``InspectorLink``). Empty when none came in time, or once
    /// the inspector is closed and its entries were read.
    public func next(timeout: Duration) -> [InspectorEntry] {
        let sleeper = DispatchSemaphore(value: 0)
        let ready: [InspectorEntry]? = lock.withLock {
            if buffer.isClosed || !buffer.entries.isEmpty || buffer.dropped > 0 { return takeAll() }
            buffer.sleeper?.signal()
            buffer.sleeper = sleeper
            return nil
        }
        if let ready { return diffed(ready) }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        _ = sleeper.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        return diffed(
            lock.withLock {
                if buffer.sleeper === sleeper { buffer.sleeper = nil }
                return takeAll()
            })
    }

    /// The runs going now, as the reader last saw them: one `running` entry
    /// a run, for a reader that (re)connects after they started.
    public func runningNow() -> [InspectorEntry] {
        readerLock.withLock {
            runs.sorted { $0.key < $1.key }.map { run, now in
                InspectorEntry(
                    sequence: 0, time: now.time, run: run, kind: .running, type: now.type, parent: now.parent,
                    state: now.state, restoredFrom: now.restoredFrom, json: now.json, diagram: now.diagram,
                    node: now.node)
            }
        }
    }

    /// The entries recorded since the last call, without waiting.
    public func take() -> [InspectorEntry] {
        diffed(lock.withLock { takeAll() })
    }

    /// `batch` with each state's diff to the run's state as last taken.
    private func diffed(_ batch: [InspectorEntry]) -> [InspectorEntry] {
        readerLock.withLock {
            var batch = batch
            for index in batch.indices {
                let run = batch[index].run
                switch batch[index].kind {
                case .started, .running:
                    runs[run] = RunNow(
                        type: batch[index].type, parent: batch[index].parent,
                        restoredFrom: batch[index].restoredFrom, state: batch[index].state ?? "",
                        json: batch[index].json, time: batch[index].time, diagram: batch[index].diagram,
                        node: batch[index].node)
                case .state:
                    guard let state = batch[index].state else { break }
                    batch[index].diff = StateDiff.lines(from: runs[run]?.state ?? "", to: state)
                    runs[run, default: RunNow(state: state, time: batch[index].time)].state = state
                    runs[run]?.json = batch[index].json
                    runs[run]?.node = batch[index].node
                case .ended:
                    runs[run] = nil
                default:
                    break
                }
            }
            return batch
        }
    }

    /// Every batch until the inspector is closed.
    public var batches: AsyncStream<[InspectorEntry]> {
        AsyncStream(unfolding: { [self] in
            let batch = await next()
            return batch.isEmpty ? nil : batch
        })
    }

    /// Stops recording; a waiting reader gets an empty batch.
    public func close() {
        let waiter = lock.withLock {
            buffer.isClosed = true
            buffer.sleeper?.signal()
            buffer.sleeper = nil
            defer { buffer.waiter = nil }
            return buffer.waiter
        }
        waiter?.resume(returning: [])
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { lock.withLock { buffer.isClosed } }

    /// Called under `lock`.
    private func takeAll() -> [InspectorEntry] {
        var taken: [InspectorEntry] = []
        taken.reserveCapacity(buffer.entries.count + 1)
        if buffer.dropped > 0 {
            let first = buffer.entries.first?.sequence ?? buffer.sequence + 1
            taken.append(
                InspectorEntry(
                    sequence: first - 1, time: buffer.entries.first?.time ?? 0, run: 0, kind: .dropped,
                    dropped: buffer.dropped))
            buffer.dropped = 0
        }
        taken.append(contentsOf: buffer.entries)
        buffer.entries.removeAll(keepingCapacity: true)
        return taken
    }
}
