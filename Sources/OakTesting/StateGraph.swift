import Clocks
import Foundation
import Oak

/// The states a transducer reaches from an initial state with a set of
/// sample events, explored breadth first by running it — every path from
/// the initial state, as a test replays it: effects run against a mock
/// environment and, when given, a test clock, which runs until nothing
/// sleeps on it as a step of its own (``Step/wait``), so that states
/// reached only through the answers of operations are found too, and so
/// are the events that meet an operation in flight.
///
/// ```swift
/// let graph = await StateGraph.explore(
///     EffectCounter.self, from: EffectCounter.initialState,
///     events: [.increment, .decrement, .reset],
///     env: { .waiting(on: clock) }, clock: clock,
///     node: { "\($0.value) \($0.pending)" })
/// print(graph.mermaid())
/// ```
///
/// States are grouped into nodes by `node` (all counts in one node, say):
/// the graph has one node per value it returns. The graph then says which
/// non-terminal nodes have no way out (``deadEnds``), which declared nodes
/// were never reached (``unreachable(among:)``), which events change
/// nothing in a node (``eventsThatChangeNothing``), and the shortest list of
/// events that reaches each node (``paths``), which
/// ``verifyPaths(isolation:fileID:filePath:line:column:)`` replays as tests.
public struct StateGraph<T: BaseTransducer, Node: Hashable & CustomStringConvertible> where T.State: Equatable {
    /// A transition seen while exploring.
    public struct Edge: Hashable, CustomStringConvertible {
        /// The node before.
        public let from: Node
        /// The event, named by the explorer's `eventName`; events that
        /// effects sent back are marked `(received)`.
        public let event: String
        /// The node after.
        public let to: Node

        /// For example `idle --load--> loading`.
        public var description: String { "\(from) --\(event)--> \(to)" }
    }

    /// A step of a path: an event sent, or time passing (the exploration's
    /// clock run until nothing sleeps on it, the answers it brought
    /// processed).
    public enum Step: CustomStringConvertible {
        /// Send this event.
        case send(T.Event)
        /// Let time pass.
        case wait

        /// The event, or `(time passes)`.
        public var description: String {
            switch self {
            case .send(let event): "\(event)"
            case .wait: "(time passes)"
            }
        }
    }

    /// The node of the initial state.
    public let initial: Node
    /// Every node reached, in the order it was found.
    public private(set) var nodes: [Node] = []
    /// Every transition seen, in the order it was found.
    public private(set) var edges: [Edge] = []
    /// The nodes of terminal states.
    public private(set) var terminal: Set<Node> = []
    /// For each node, the sample events that changed nothing there (and
    /// started nothing that did), in one of its states at least; each named
    /// once, in the order found.
    public private(set) var eventsThatChangeNothing: [Node: [String]] = [:]
    /// The shortest list of sample events that reaches each node from the
    /// initial state (events sent back by effects follow by themselves).
    public private(set) var paths: [Node: [Step]] = [:]
    /// The shortest list of sample events that takes each transition: the
    /// path to its node before, then the event (for a transition an
    /// effect's answer takes, the event that started the effect).
    /// ``verifyTransitions(isolation:fileID:filePath:line:column:)``
    /// replays them as tests.
    public private(set) var transitionPaths: [Edge: [Step]] = [:]
    /// Whether the exploration stopped at `maxStates` or `maxDepth` before it
    /// had tried every event in every state found.
    public private(set) var isTruncated = false
    /// Why the exploration stopped early, when it did (``isTruncated``).
    public private(set) var truncation: String?

    let replay: ([Step], Node, CallSite, isolated (any Actor)?) async -> Void
    let replayEdge: ([Step], Edge, CallSite, isolated (any Actor)?) async -> Bool

    /// The non-terminal nodes with no transition to another node: once
    /// there, a run never leaves.
    public var deadEnds: [Node] {
        nodes.filter { node in
            !terminal.contains(node) && !edges.contains { $0.from == node && $0.to != node }
        }
    }

    /// The nodes of `declared` that the exploration did not reach: for nodes
    /// that can be listed (an enum's cases, say).
    public func unreachable(among declared: some Sequence<Node>) -> [Node] {
        let reached = Set(nodes)
        return declared.filter { !reached.contains($0) }
    }

    /// The graph in Mermaid's `stateDiagram-v2` syntax.
    public func mermaid() -> String {
        var ids: [Node: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node] = "s\(index)" }
        var lines = ["stateDiagram-v2"]
        for node in nodes {
            lines.append("    state \"\(Self.escape(node.description))\" as \(ids[node] ?? "")")
        }
        lines.append("    [*] --> \(ids[initial] ?? "")")
        for edge in edges {
            lines.append("    \(ids[edge.from] ?? "") --> \(ids[edge.to] ?? ""): \(Self.escape(edge.event))")
        }
        for node in nodes where terminal.contains(node) {
            lines.append("    \(ids[node] ?? "") --> [*]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz's DOT language.
    public func dot() -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        var lines = ["digraph \(quoted("\(T.self)")) {", "    rankdir=LR;", "    node [shape=box, style=rounded];"]
        lines.append("    start [shape=point];")
        lines.append("    start -> \(quoted(initial.description));")
        for node in nodes where terminal.contains(node) {
            lines.append("    \(quoted(node.description)) [peripheries=2];")
        }
        for edge in edges {
            lines.append(
                "    \(quoted(edge.from.description)) -> \(quoted(edge.to.description)) [label=\(quoted(edge.event))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Replays the shortest path to every node as a test: runs the
    /// transducer from the initial state, sends the path's events (letting
    /// effects answer and the clock run), and checks that the node is
    /// reached. A failure prints the path. A replay that did not reach it
    /// is run again with more patience, as
    /// ``verifyTransitions(isolation:fileID:filePath:line:column:)`` does.
    public func verifyPaths(
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID, filePath, line, column)
        for node in nodes {
            guard let path = paths[node] else { continue }
            await replay(path, node, site, isolation)
        }
    }

    /// Replays the shortest path to every transition as a test: runs the
    /// transducer from the initial state, sends the path's events (letting
    /// effects answer and the clock run), and checks that its last event
    /// took the transition. A failure prints the path. Returns the
    /// coverage: the transitions the replays took, of those found.
    ///
    /// A step ends once the operations it started have answered, or after
    /// a second without an answer (the operation is taken to await
    /// something the exploration does not see). A replay that did not take
    /// its transition is run again, up to three times, giving operations 5
    /// and then 15 seconds: a loaded machine is slow, not wrong. Only a
    /// transition none of the tries took fails the test.
    @discardableResult
    public func verifyTransitions(
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> TransitionCoverage {
        let site = CallSite(fileID, filePath, line, column)
        var covered = 0
        for edge in edges {
            guard let path = transitionPaths[edge] else { continue }
            if await replayEdge(path, edge, site, isolation) { covered += 1 }
        }
        return TransitionCoverage(
            transducer: "\(T.self)", covered: covered, found: edges.count, isComplete: !isTruncated)
    }

    /// Fails the test, saying why and what to do, when the exploration
    /// stopped at its bound (``isTruncated``): a state space that grows
    /// without end (a counter, a list that grows) is not explored for ever,
    /// and its coverage is not claimed.
    public func requireComplete(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        guard isTruncated else { return }
        CallSite(fileID, filePath, line, column).fail(
            "Exploring \(T.self) stopped early: \(truncation ?? "it reached its bound"). Its states may grow "
                + "without end: group them into fewer nodes with `node:`, filter the sample events with "
                + "`allowing:`, or raise `maxStates`/`maxDepth`.")
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: ":", with: "#58;")
            .replacingOccurrences(of: "\n", with: " ")
    }
}

extension StateGraph {
    /// Explores the states of `type` from `initialState`.
    ///
    /// Every state found is explored by replaying, in a fresh run, the path
    /// that found it, so the environment must answer the same way each run:
    /// answers at once or on `clock`, never on real time. A replay that
    /// does not come back to its state is tried again, and if none does the
    /// exploration stops there and says so (``truncation``) rather than
    /// drawing edges of a state the run was not in.
    ///
    /// - Parameters:
    ///   - type: The transducer.
    ///   - initialState: Where the exploration starts.
    ///   - events: The sample events tried in every state found.
    ///   - env: Makes the environment of each exploring run: mocks that
    ///     answer at once, or on `clock`.
    ///   - clock: A test clock the environment sleeps on. Time passing is
    ///     a step of its own: the operations in flight are given (up to a
    ///     second of real time) to reach their sleep, then the clock runs
    ///     until no sleep is left, so delayed answers arrive.
    ///   - node: Groups states into the nodes of the graph.
    ///   - eventName: Names events on the edges.
    ///   - allowing: Which sample events are tried in a state (all, by
    ///     default): leave out those a test does not mean to cover there.
    ///   - maxStates: Explore at most this many distinct states, and find
    ///     at most this many nodes (``isTruncated``; see
    ///     ``requireComplete(fileID:filePath:line:column:)``).
    ///   - maxDepth: Do not look further than this many events from the
    ///     initial state.
    ///   - isolation: Where the exploring runs run: the caller's isolation.
    public static func explore(
        _ type: T.Type,
        from initialState: T.State,
        events: [T.Event],
        env: @escaping () -> T.Env,
        clock: TestClock<Duration>? = nil,
        node: @escaping (T.State) -> Node,
        eventName: @escaping (T.Event) -> String = { "\($0)" },
        allowing: @escaping (T.State, T.Event) -> Bool = { _, _ in true },
        maxStates: Int = 100,
        maxDepth: Int = 20,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Self {
        await explore(
            from: initialState, events: events,
            probe: Probe<T>(initial: initialState, env: env, clock: clock, same: { $0 == $1 }),
            node: node, eventName: eventName, allowing: allowing, maxStates: maxStates, maxDepth: maxDepth)
    }

    /// Explores the states of a root: a transducer whose state holds
    /// handles of child runs (`Child`).
    ///
    /// A handle compares by the run it names, and every replay starts new
    /// ones, so states are told apart by `identity`: what the root itself
    /// keeps (the screen shown, what is being typed), not the handles.
    /// `children` lists the handles a state holds: the operations that run
    /// them are not waited for (they run as long as the state holds them),
    /// but the children's runs are, until each has processed the events
    /// sent to it and its operations rest — so what a child says to its
    /// parent arrives within the step that led to it.
    ///
    /// ```swift
    /// let graph = await StateGraph.explore(
    ///     Main.self, from: Main.State(), events: events, env: { .mock },
    ///     identity: { [$0.scene == .comics ? "comics" : "favourites", $0.prompt ?? "-"] },
    ///     children: { [$0.comics as (any ExploredChild)?, $0.favourites].compactMap { $0 } },
    ///     node: { "\($0.scene)" })
    /// ```
    ///
    /// A root that waits for something the exploration cannot see — the
    /// runs it shares with other roots (`SharedRun`), an answer it asked
    /// for — says when it rests with `isAtRest`: a step ends once it holds
    /// (within a second), for instance once each shared run it watches has
    /// caught up (`SharedRun.isAtRest`) and nothing it asked for is
    /// pending. A sample event that names a child — whose id is new in
    /// every run — names a placeholder, and `resolving` makes the event
    /// sent from it in the run's state (the child's id put in).
    ///
    /// Within a step, an event the root received that changed nothing
    /// `identity` sees draws no edge: watchers answer in an order the
    /// exploration does not choose, and only what the root keeps counts.
    ///
    /// The other parameters are those of
    /// ``explore(_:from:events:env:clock:node:eventName:allowing:maxStates:maxDepth:isolation:)``.
    public static func explore<Identity: Hashable>(
        _ type: T.Type,
        from initialState: T.State,
        events: [T.Event],
        env: @escaping () -> T.Env,
        clock: TestClock<Duration>? = nil,
        identity: @escaping (T.State) -> Identity,
        children: @escaping (T.State) -> [any ExploredChild],
        isAtRest: @escaping (T.State) -> Bool = { _ in true },
        resolving: @escaping (T.State, T.Event) -> T.Event = { $1 },
        node: @escaping (T.State) -> Node,
        eventName: @escaping (T.Event) -> String = { "\($0)" },
        allowing: @escaping (T.State, T.Event) -> Bool = { _, _ in true },
        maxStates: Int = 100,
        maxDepth: Int = 20,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Self {
        let probe = Probe<T>(
            initial: initialState, env: env, clock: clock, same: { identity($0) == identity($1) },
            children: children, isAtRest: isAtRest, resolving: resolving)
        return await explore(
            from: initialState, events: events, probe: probe, node: node, eventName: eventName, allowing: allowing,
            maxStates: maxStates, maxDepth: maxDepth)
    }

    private static func explore(
        from initialState: T.State, events: [T.Event], probe: Probe<T>, node: @escaping (T.State) -> Node,
        eventName: @escaping (T.Event) -> String, allowing: @escaping (T.State, T.Event) -> Bool,
        maxStates: Int, maxDepth: Int, isolation: isolated (any Actor)? = #isolation
    ) async -> Self {
        // Safety: a graph, its probe and these functions are used by one test
        // at a time, on the isolation of the call that uses them.
        nonisolated(unsafe) let replayProbe = probe
        nonisolated(unsafe) let replayNode = node
        nonisolated(unsafe) let replayName = eventName
        var graph = StateGraph(
            initial: node(initialState),
            replay: { path, target, site, isolation in
                await replayProbe.verify(
                    path: path, reaches: target, node: replayNode, eventName: replayName, site: site,
                    isolation: isolation)
            },
            replayEdge: { path, edge, site, isolation in
                await replayProbe.verify(
                    path: path, takes: edge, node: replayNode, eventName: replayName, site: site,
                    isolation: isolation)
            })
        await graph.search(
            from: initialState, events: events, probe: probe, node: node, eventName: eventName, allowing: allowing,
            maxStates: maxStates, maxDepth: maxDepth)
        return graph
    }
}

extension StateGraph where T: Transducer {
    /// Explores the states of the pure transducer `type` from
    /// `initialState`: ``explore(_:from:events:env:clock:node:eventName:allowing:maxStates:maxDepth:isolation:)``
    /// with no environment and no clock, each path run by the runtime.
    ///
    /// ```swift
    /// let graph = await StateGraph.explore(
    ///     Turnstile.self, from: .locked, events: [.coin, .push], node: { $0 })
    /// ```
    public static func explore(
        _ type: T.Type,
        from initialState: T.State,
        events: [T.Event],
        node: @escaping (T.State) -> Node,
        eventName: @escaping (T.Event) -> String = { "\($0)" },
        allowing: @escaping (T.State, T.Event) -> Bool = { _, _ in true },
        maxStates: Int = 100,
        maxDepth: Int = 20,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Self {
        await explore(
            type, from: initialState, events: events, env: {}, node: node, eventName: eventName,
            allowing: allowing, maxStates: maxStates, maxDepth: maxDepth)
    }
}

extension StateGraph {
    init(
        initial: Node, replay: @escaping ([Step], Node, CallSite, isolated (any Actor)?) async -> Void,
        replayEdge: @escaping ([Step], Edge, CallSite, isolated (any Actor)?) async -> Bool
    ) {
        self.initial = initial
        self.replay = replay
        self.replayEdge = replayEdge
    }

}

extension StateGraph {
    /// Breadth first: every sample event in every state found, each in a
    /// fresh run from that state.
    mutating func search(
        from initialState: T.State, events: [T.Event], probe: Probe<T>,
        node: (T.State) -> Node, eventName: (T.Event) -> String, allowing: (T.State, T.Event) -> Bool,
        maxStates: Int, maxDepth: Int, isolation: isolated (any Actor)? = #isolation
    ) async {
        nodes = [initial]
        paths[initial] = []
        if initialState.isTerminal { terminal.insert(initial) }
        var queue: [(state: T.State, path: [Step])] = [(initialState, [])]
        // With a clock, time passing is a step of its own: a state in which
        // an operation waits on the clock is a place the run rests (events
        // sent there meet the operation in flight).
        let steps = events.map(Step.send) + (probe.clock == nil ? [] : [.wait])
        // Every distinct state a run rests in is explored (up to
        // `maxStates`), whatever node it falls in: two states of one node
        // may lead on differently.
        var explored: [T.State] = [initialState]
        var seenEdges = Set<Edge>()
        var head = 0
        while head < queue.count {
            // A cancelled test (its time limit) ends the exploration, said.
            guard !Task.isCancelled else {
                isTruncated = true
                truncation = truncation ?? "it was cancelled (the test's time limit?) before it ended"
                break
            }
            let (state, path) = queue[head]
            head += 1
            guard !state.isTerminal else { continue }
            guard path.count < maxDepth else {
                isTruncated = true
                truncation = truncation ?? "a state \(maxDepth) events deep (maxDepth) still led on"
                continue
            }
            let from = node(state)
            for candidate in steps {
                if case .send(let event) = candidate, !allowing(state, event) { continue }
                // From the initial state, the path then the step: what is
                // in flight after the path (an operation waiting) is part
                // of the run, as it is when a test replays the path.
                guard let visited = await probe.lastSteps(after: path, at: state, taking: candidate) else {
                    isTruncated = true
                    truncation =
                        truncation
                        ?? "replaying \(Probe<T>.describe(path, eventName)) three times did not come back to the "
                        + "state it reached first: the transducer's environment is not deterministic (an answer "
                        + "that does not wait on the explorer's clock, or real time)"
                    continue
                }
                if visited.isEmpty || visited.allSatisfy({ node($0.state) == from && probe.same($0.state, state) }) {
                    if case .send(let event) = candidate,
                        !(eventsThatChangeNothing[from]?.contains(eventName(event)) ?? false)
                    {
                        eventsThatChangeNothing[from, default: []].append(eventName(event))
                    }
                    continue
                }
                var previous = from
                for (index, step) in visited.enumerated() {
                    let to = node(step.state)
                    let label = Probe<T>.label(of: candidate, at: index, step.event, eventName)
                    let edge = Edge(from: previous, event: label, to: to)
                    if seenEdges.insert(edge).inserted {
                        edges.append(edge)
                        transitionPaths[edge] = path + [candidate]
                    }
                    if step.state.isTerminal { terminal.insert(to) }
                    if paths[to] == nil {
                        guard nodes.count < maxStates else {
                            isTruncated = true
                            truncation = truncation ?? "more than \(maxStates) nodes (maxStates)"
                            previous = to
                            continue
                        }
                        nodes.append(to)
                        paths[to] = path + [candidate]
                    }
                    // Explored from where the run rests once the event and
                    // the answers it led to are processed; a node passed
                    // through on the way (an operation in flight) is not
                    // a place a run can be held in.
                    if index == visited.count - 1, !explored.contains(where: { probe.same($0, step.state) }) {
                        if explored.count < maxStates {
                            explored.append(step.state)
                            queue.append((step.state, path + [candidate]))
                        } else {
                            isTruncated = true
                            truncation = truncation ?? "more than \(maxStates) states (maxStates)"
                        }
                    }
                    previous = to
                }
            }
        }
    }
}

/// Runs a transducer from a given state for one event and reports the
/// states it went through. Used by one exploration at a time, on its
/// caller's isolation.
final class Probe<T: BaseTransducer> {
    /// The state the graph is explored from.
    let initial: T.State
    let env: () -> T.Env
    let clock: TestClock<Duration>?
    /// The operations (by id) that were once in flight for `patience`
    /// with nothing sleeping on the clock: they await something else
    /// (``untilOperationsRest(in:proxy:isolation:)``).
    private var awaitingSomethingElse = Set<EffectID>()
    /// How long an operation in flight may take to answer or to reach its
    /// sleep on the clock before it is taken to await something else. A
    /// replay that does not come back to its state is tried again with
    /// more: on a loaded machine an operation can take longer than a
    /// second to get there, and must not pass for one that never will.
    private var patience: Duration = .seconds(1)
    /// Whether two states are the same state for the exploration: equal,
    /// or of equal identity (a root's state holds child handles that each
    /// run makes anew).
    let same: (T.State, T.State) -> Bool
    /// The children a state holds: the operations that run them are not
    /// waited for (they run as long as the state holds them); their runs
    /// are, until they have processed what they had.
    let children: (T.State) -> [any ExploredChild]
    /// Whether a root's state waits for nothing the exploration does not
    /// see: a step waits until it holds.
    let isAtRest: (T.State) -> Bool
    /// The event sent for a sample event in a state.
    let resolving: (T.State, T.Event) -> T.Event
    /// Whether this explores a root: received events that change nothing
    /// the root keeps are left out of a step.
    let isRoot: Bool

    init(
        initial: T.State, env: @escaping () -> T.Env, clock: TestClock<Duration>?,
        same: @escaping (T.State, T.State) -> Bool
    ) {
        self.initial = initial
        self.env = env
        self.clock = clock
        self.same = same
        self.children = { _ in [] }
        self.isAtRest = { _ in true }
        self.resolving = { $1 }
        self.isRoot = false
    }

    init(
        initial: T.State, env: @escaping () -> T.Env, clock: TestClock<Duration>?,
        same: @escaping (T.State, T.State) -> Bool, children: @escaping (T.State) -> [any ExploredChild],
        isAtRest: @escaping (T.State) -> Bool, resolving: @escaping (T.State, T.Event) -> T.Event
    ) {
        self.initial = initial
        self.env = env
        self.clock = clock
        self.same = same
        self.children = children
        self.isAtRest = isAtRest
        self.resolving = resolving
        self.isRoot = true
    }

    /// The events `step` led to and the states after them, in order, when
    /// a run from the initial state takes `path` and then `step`; none when
    /// the run ended before `step`.
    ///
    /// The run must come to `expected` at the end of `path`, as the run
    /// that found it did; one that does not (a load on the machine that
    /// changed what the environment answered) is tried again, up to three
    /// times, each with more patience for operations in flight (and those
    /// taken to await something else looked at again). Returns `nil` when
    /// none did.
    func lastSteps<Node>(
        after path: [StateGraph<T, Node>.Step], at expected: T.State, taking step: StateGraph<T, Node>.Step,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [(event: T.Event, state: T.State)]? {
        defer { patience = .seconds(1) }
        for attempt in 0..<3 {
            morePatience(for: attempt)
            guard let steps = await lastStepsOnce(after: path, at: expected, taking: step) else { continue }
            // A root's step is taken twice and kept when both runs agree:
            // on a loaded machine, answers its watchers send can land in
            // an order the step does not show twice.
            guard isRoot else { return steps }
            guard let again = await lastStepsOnce(after: path, at: expected, taking: step),
                again.count == steps.count, zip(steps, again).allSatisfy({ same($0.state, $1.state) })
            else { continue }
            return steps
        }
        return nil
    }

    /// One run of `path` then `step`: the steps `step` took, if the run
    /// came back to `expected` at the end of `path` (compared where it
    /// rested then: a root's identity may read runs the step changes).
    private func lastStepsOnce<Node>(
        after path: [StateGraph<T, Node>.Step], at expected: T.State, taking step: StateGraph<T, Node>.Step,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [(event: T.Event, state: T.State)]? {
        var reachedExpected = path.isEmpty && same(initial, expected)
        let steps = await run(from: initial, taking: path + [step]) { index, state in
            if index == path.count - 1 { reachedExpected = same(state, expected) }
        }
        guard steps.count >= path.count, reachedExpected else { return nil }
        guard steps.count == path.count + 1 else { return [] }
        return steps.last ?? []
    }

    /// The name of the transition the `index`th event that `step` led to
    /// took: the event sent, or one received (an effect's answer).
    static func label<Node>(
        of step: StateGraph<T, Node>.Step, at index: Int, _ event: T.Event, _ eventName: (T.Event) -> String
    ) -> String {
        if case .send(let sent) = step, index == 0 { return eventName(sent) }
        return eventName(event) + " (received)"
    }

    /// Runs from `state` and takes `path`'s steps one after the other:
    /// sends each event and lets what answers at once answer; at each wait,
    /// runs the clock until nothing sleeps on it. Returns, per step, the
    /// events processed and the states after them; `resting` sees the
    /// state where the run rests after each step, then (a root's identity
    /// may read runs that later steps change).
    func run<Node>(
        from state: T.State, taking path: [StateGraph<T, Node>.Step],
        resting: (_ step: Int, _ state: T.State) -> Void = { _, _ in },
        isolation: isolated (any Actor)? = #isolation
    ) async -> [[(event: T.Event, state: T.State)]] {
        let log = RunLog<T>(forwardingTo: nil)
        let proxy = T.Proxy()
        // Safety: the environment and the state go to the run only, which
        // uses them on `isolation`, the caller's.
        nonisolated(unsafe) let env = self.env()
        nonisolated(unsafe) let initial = state
        let start: (T.Proxy, isolated (any Actor)?) async throws -> Void = { proxy, isolation in
            _ = try await T.run(
                initialState: initial, proxy: proxy, env: env, output: NoCallback(), isolation: isolation)
        }
        nonisolated(unsafe) let run = start
        let inspector: any TransducerInspector = log
        let task = Task {
            _ = try? await TransducerInspection.$inspector.withValue(inspector) {
                try await run(proxy, isolation)
            }
        }
        var results: [[(event: T.Event, state: T.State)]] = []
        _ = await log.wait(for: .settled, timeout: patience * 5)
        for step in path {
            guard !log.hasEnded else { break }
            let start = log.count
            if case .send(let sample) = step {
                nonisolated(unsafe) let event = resolving(log.lastState ?? initial, sample)
                if let proxy = proxy as? Proxy<T.Event> {
                    guard (try? proxy.send(event)) != nil else { break }
                } else if let proxy = proxy as? SyncSuspendingProxy<T.Event> {
                    guard (try? await proxy.checkedSend(event)) != nil else { break }
                }
                _ = await log.wait(for: .processedEvent(after: start), timeout: patience * 5)
                await untilOperationsRest(in: log, proxy: proxy)
            }
            // Time passes: run the clock until nothing sleeps on it and the
            // run has processed what came back.
            if case .wait = step, let clock {
                await untilOperationsRest(in: log, proxy: proxy)
                for _ in 0..<10 {
                    let before = log.count
                    // A generous real-time bound: `run`'s default (0.5 s)
                    // is too short when a loaded machine starves the
                    // background-priority tasks the test clock yields to.
                    // A cancelled test (its time limit) stops here rather
                    // than have the clock report sleeps it could not run.
                    guard !Task.isCancelled else { break }
                    await clock.run(timeout: .seconds(30))
                    await untilOperationsRest(in: log, proxy: proxy)
                    if log.count == before { break }
                }
            }
            let steps = Self.steps(in: log.entries(from: start))
            results.append(isRoot ? collapsed(steps, after: results.joined().last?.state ?? initial) : steps)
            resting(results.count - 1, log.lastState ?? initial)
        }
        proxy.cancel()
        await task.value
        log.stopMonitor()
        return results
    }

    /// Returns once the operations in flight rest: each has ended (its
    /// answers processed), or sleeps on the clock, or is known to await
    /// something else — or `patience` has passed.
    ///
    /// The run settles (waits for events) as soon as it has started an
    /// operation's task; the task answers, or reaches its sleep on the
    /// clock, a moment later, and much later on a loaded machine. Taking
    /// the next step before then would make the exploration depend on the
    /// machine's load. An operation still in flight after `patience` with
    /// nothing sleeping on the clock (it awaits a stream, say) is
    /// remembered by its id and not waited for again.
    func untilOperationsRest(
        in log: RunLog<T>, proxy: T.Proxy, isolation: isolated (any Actor)? = #isolation
    ) async {
        let deadline = ContinuousClock.now + patience
        while true {
            _ = await log.settle(
                pendingEvents: { proxy._channel.pendingEvents }, timeout: patience * 5, until: deadline)
            let held = log.lastState.map(children) ?? []
            let childRuns = Set(held.map(\.operationID))
            let others = log.othersAtRest
            let waitedFor = (log.operationsInFlight + others.operations).filter { info in
                guard let id = info.id else { return true }
                return !childRuns.contains(id) && !awaitingSomethingElse.contains(id)
            }
            // A child with events in its channel has yet to process them
            // (its run may not even have started).
            let childrenBusy =
                !others.areParked || held.contains { $0.pendingEvents > 0 }
                || !(log.lastState.map(isAtRest) ?? true)
            guard !waitedFor.isEmpty || childrenBusy else { return }
            // `checkSuspension` throws when something sleeps on the clock.
            if !waitedFor.isEmpty, let clock, (try? await clock.checkSuspension()) == nil { return }
            guard ContinuousClock.now < deadline else {
                awaitingSomethingElse.formUnion(waitedFor.compactMap(\.id))
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A path, its events named by `eventName`.
    static func describe<Node>(_ path: [StateGraph<T, Node>.Step], _ eventName: (T.Event) -> String) -> String {
        path.map { step in
            switch step {
            case .send(let event): eventName(event)
            case .wait: "(time passes)"
            }
        }.joined(separator: " → ")
    }

    /// `steps` without the events received after the first that changed
    /// nothing the root keeps (``same``): whether a watcher's answer that
    /// changes nothing comes within a step or the next is up to the
    /// scheduler, not the transducer.
    func collapsed(
        _ steps: [(event: T.Event, state: T.State)], after before: T.State
    ) -> [(event: T.Event, state: T.State)] {
        var kept: [(event: T.Event, state: T.State)] = []
        var previous = before
        for (index, step) in steps.enumerated() where index == 0 || !same(step.state, previous) {
            kept.append(step)
            previous = step.state
        }
        return kept
    }

    /// Pairs each processed event with the state after it.
    static func steps(in entries: ArraySlice<RunLog<T>.Entry>) -> [(event: T.Event, state: T.State)] {
        var steps: [(event: T.Event, state: T.State)] = []
        var event: T.Event?
        for entry in entries {
            switch entry {
            case .event(let next): event = next
            case .state(let state):
                if let current = event { steps.append((current, state)) }
                event = nil
            default: break
            }
        }
        return steps
    }

    /// Replays `path` and checks that its last event took `edge` (its
    /// node before, its event's name, its node after, in order among the
    /// steps the event led to); returns whether it did.
    ///
    /// A replay that did not take it is tried again, up to three times,
    /// each with more patience for operations in flight (as
    /// ``lastSteps(after:at:taking:isolation:)`` does when exploring): on a
    /// loaded machine an operation can take longer than a second to
    /// answer, and a step that ended before its answer came shows the
    /// answer in the next step. Only a transition no replay took fails.
    func verify<Node: Hashable & CustomStringConvertible>(
        path: [StateGraph<T, Node>.Step], takes edge: StateGraph<T, Node>.Edge, node: (T.State) -> Node,
        eventName: (T.Event) -> String, site: CallSite, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        guard let last = path.last else { return false }
        defer { patience = .seconds(1) }
        var taken: [StateGraph<T, Node>.Edge] = []
        for attempt in 0..<3 {
            morePatience(for: attempt)
            // The node before the last step: where the steps before it
            // led, seen where the run rested then.
            var previous = node(initial)
            let steps = await run(from: initial, taking: path) { index, state in
                if index == path.count - 2 { previous = node(state) }
            }
            taken = []
            for (index, step) in (steps.last ?? []).enumerated() {
                let label = Self.label(of: last, at: index, step.event, eventName)
                let to = node(step.state)
                taken.append(StateGraph<T, Node>.Edge(from: previous, event: label, to: to))
                previous = to
            }
            if StateGraph<T, Node>.spellings(of: taken).contains(edge) { return true }
        }
        site.fail(
            "The path to the transition \(edge) did not take it: \(Self.describe(path, eventName)); "
                + "its last event took \(taken.map(\.description).joined(separator: ", ")).")
        return false
    }

    /// Before the `attempt`th try of a replay (from 0): the first with a
    /// second's patience, the next with 5 and 15 seconds, and the
    /// operations taken to await something else looked at again.
    private func morePatience(for attempt: Int) {
        guard attempt > 0 else { return }
        patience = .seconds(attempt == 1 ? 5 : 15)
        awaitingSomethingElse.removeAll()
    }

    /// Replays `path` and checks that `target` is among the nodes its last
    /// event led to; tried again with more patience as
    /// ``verify(path:takes:node:eventName:site:isolation:)`` is.
    func verify<Node: Hashable & CustomStringConvertible>(
        path: [StateGraph<T, Node>.Step], reaches target: Node, node: (T.State) -> Node,
        eventName: (T.Event) -> String,
        site: CallSite, isolation: isolated (any Actor)? = #isolation
    ) async {
        defer { patience = .seconds(1) }
        var reached: [Node] = []
        for attempt in 0..<3 {
            morePatience(for: attempt)
            let steps = await run(from: initial, taking: path)
            reached = (steps.last ?? []).map { node($0.state) }
            if path.isEmpty ? node(initial) == target : reached.contains(target) { return }
        }
        site.fail(
            "The path to \(target) did not reach it: \(Self.describe(path, eventName)); "
                + "its last event led to \(reached.map(\.description).joined(separator: ", ")).")
    }
}

/// How many of the transitions an exploration found its replays took: the
/// transition coverage of a transducer's generated tests
/// (``StateGraph/verifyTransitions(isolation:fileID:filePath:line:column:)``).
public struct TransitionCoverage: Equatable, Sendable, CustomStringConvertible {
    /// The transducer's name.
    public var transducer: String
    /// The transitions a replay took.
    public var covered: Int
    /// The transitions the exploration found.
    public var found: Int
    /// Whether the exploration tried every sample event in every node it
    /// found (it did not stop at its bound).
    public var isComplete: Bool

    /// A coverage.
    public init(transducer: String, covered: Int, found: Int, isComplete: Bool) {
        self.transducer = transducer
        self.covered = covered
        self.found = found
        self.isComplete = isComplete
    }

    /// The share covered, in percent (100 when nothing was found).
    public var percent: Double { found == 0 ? 100 : Double(covered) * 100 / Double(found) }

    /// For example `StandupDetail: 23 of 23 transitions (100 %)`.
    public var description: String {
        let share = percent.rounded(.down) == percent ? "\(Int(percent))" : String(format: "%.1f", percent)
        return "\(transducer): \(covered) of \(found) transitions (\(share) %)"
            + (isComplete ? "" : ", exploration stopped at its bound")
    }
}

extension StateGraph {
    /// The transitions a replayed event `taken` counts as taking: those it
    /// took, and — when the event itself changed nothing the root keeps and
    /// the change came with the answer it received next — the one
    /// transition from where it started to where that answer led. Whether
    /// an answer comes within the event's step or as the next one is up to
    /// the scheduler, not the transducer (as in `collapsed(_:after:)`).
    static func spellings(of taken: [Edge]) -> [Edge] {
        guard taken.count >= 2, taken[0].from == taken[0].to else { return taken }
        return taken + [Edge(from: taken[0].from, event: taken[0].event, to: taken[1].to)]
    }
}

extension StateGraph.Step: Equatable where T.Event: Equatable {}

/// A child run a state holds, as an exploration of its parent sees it: a
/// `Child` handle.
public protocol ExploredChild {
    /// The id of the operation that runs the child.
    var operationID: EffectID { get }
    /// How many events wait in the child's channel.
    var pendingEvents: Int { get }
}

extension SharedRun {
    /// Whether the run has processed every event sent to it (its loop
    /// waits for more, or it has not started or has ended) and every
    /// watcher of its states waits for a newer state than the latest (none
    /// is still busy with one it got): what an
    /// exploration of a root that watches it waits for
    /// (`StateGraph.explore(_:from:events:env:clock:identity:children:isAtRest:resolving:node:eventName:allowing:maxStates:maxDepth:isolation:)`).
    public var isAtRest: Bool { proxy._channel.isIdle && watchersAreWaiting }
}

extension Child: ExploredChild {
    /// How many events wait in the child's channel.
    public var pendingEvents: Int { proxy._channel.pendingEvents }
}
