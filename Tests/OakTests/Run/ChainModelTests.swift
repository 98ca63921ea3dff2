// Rules 2.3 and 3.3 against a reference model, with random action trees:
// every event of a generated program returns a tree of effects — events,
// combinations nested in combinations, synchronous actions, and the four
// kinds of async action — and the output subject awaits some deliveries.
// The run is stopped (proxy.cancel(), cancel(with:), the task's
// cancellation) a random moment after it starts, half of the sequences with
// every core kept busy beside them.
//
// The model executes the same program: it gives the order of the updates
// when nothing stops the run, and the places where the run suspends (an
// awaited delivery, an async action, a synchronous action that a run
// without isolation performs on its actor). What must hold whatever the
// timing:
// - the updates the run made are that order cut at one of those places (or
//   before a top-level event, or at its end): a chain is cut only where it
//   suspends, and nothing after the cut reaches `update`;
// - once the stop has returned, the run passes no further place where it
//   could be cut (an update that had begun may complete; rule 3.3);
// - `run` throws the stop's error.
//
// Nothing here sleeps: "a random moment" is a number of `Task.yield()`s of
// the canceller.

import PropertyBased
import Synchronization
import Testing

@testable import Oak

/// A node of a generated effect tree.
indirect enum TreeNode: Sendable, CustomStringConvertible {
    case event(Int)
    case events([Int])
    case combine([TreeNode])
    case syncAction(Int)
    case asyncAction(Int)
    case asyncActions([Int])
    case isolatedAction(Int)
    case isolatedActions([Int])

    var description: String {
        switch self {
        case .event(let n): ".event(\(n))"
        case .events(let ns): ".events(\(ns))"
        case .combine(let nodes): ".combine(\(nodes.map(\.description).joined(separator: ", ")))"
        case .syncAction(let n): "action→\(n)"
        case .asyncAction(let n): "async→\(n)"
        case .asyncActions(let ns): "async→\(ns)"
        case .isolatedAction(let n): "isolated→\(n)"
        case .isolatedActions(let ns): "isolated→\(ns)"
        }
    }
}

/// A generated program: the top-level events sent, and each event's tree.
struct TreeProgram: Sendable, CustomStringConvertible {
    var roots: [Int] = []
    var trees: [Int: TreeNode] = [:]

    var description: String {
        "roots \(roots); " + trees.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: "; ")
    }

    /// A program from `seed`: 1–3 top-level events, trees up to depth 4,
    /// at most about 40 events in all.
    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var next = 1
        func newEvent(depth: Int) -> Int {
            let event = next
            next += 1
            pending.append((event, depth))
            return event
        }
        var pending: [(Int, Int)] = []
        func node(depth: Int, nested: Int = 0) -> TreeNode? {
            guard depth > 0, next < 40 else { return nil }
            let kind = Int(random.next() % 10)
            func some() -> [Int] { (0..<(1 + Int(random.next() % 3))).map { _ in newEvent(depth: depth - 1) } }
            switch kind {
            case 0, 1: return nil
            case 2: return .event(newEvent(depth: depth - 1))
            case 3: return .events(some())
            case 4:
                guard nested < 2 else { return .syncAction(newEvent(depth: depth - 1)) }
                let parts = (0..<(2 + Int(random.next() % 2))).compactMap { _ in node(depth: depth, nested: nested + 1)
                }
                return .combine(parts)
            case 5: return .syncAction(newEvent(depth: depth - 1))
            case 6: return .asyncAction(newEvent(depth: depth - 1))
            case 7: return .asyncActions(some())
            case 8: return .isolatedAction(newEvent(depth: depth - 1))
            default: return .isolatedActions(some())
            }
        }
        for _ in 0..<(1 + Int(random.next() % 3)) { roots.append(newEvent(depth: 4)) }
        while !pending.isEmpty {
            let (event, depth) = pending.removeFirst()
            if let tree = node(depth: depth) { trees[event] = tree }
        }
    }
}

/// A small, seedable generator (SplitMix64), so that a failing program is
/// reproduced from the seed the test prints.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How the outputs are delivered.
enum TreeSubject: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Never awaited (`NoCallback`).
    case synchronous
    /// Every delivery awaited (`Callback`).
    case awaited
    /// The outputs of events divisible by 3 awaited, the others not.
    case sometimesAwaited

    var description: String {
        switch self {
        case .synchronous: "no subject"
        case .awaited: "a callback"
        case .sometimesAwaited: "a subject awaiting every third event"
        }
    }

    func awaits(_ event: Int) -> Bool {
        switch self {
        case .synchronous: false
        case .awaited: true
        case .sometimesAwaited: event % 3 == 0
        }
    }
}

/// Delivers synchronously unless the event is divisible by 3.
struct SometimesAwaited: Subject {
    func _sendSynchronously(_ value: Int) throws -> Bool { value % 3 != 0 }

    func send(_ value: sending Int, isolated: isolated any Actor) async throws {
        await Task.yield()
    }
}

/// Every update, and whether the stop had returned when it began.
final class TreeLog: Sendable {
    let stopReturned = Atomic<Bool>(false)
    private let updates = Locked<[(event: Int, afterStop: Bool)]>([])

    func update(_ event: Int) {
        let afterStop = stopReturned.load(ordering: .sequentiallyConsistent)
        updates.withLock { $0.append((event, afterStop)) }
    }

    var entries: [(event: Int, afterStop: Bool)] { updates.withLock { $0 } }
}

/// Runs the generated program.
enum TreeChain: EffectTransducer {
    struct State: NonTerminal, Sendable {
        let program: TreeProgram
        let log: TreeLog
    }

    typealias Event = Int
    typealias Output = Int
    typealias Env = Void
    typealias Proxy = Oak.Proxy<Int>
    typealias TransducerOutput = (Oak.Effect<TreeChain>?, Int)

    static func update(_ state: inout State, event: Int) -> (Self.Effect?, Int) {
        state.log.update(event)
        return (state.program.trees[event].map(effect), event)
    }

    static func effect(_ node: TreeNode) -> Self.Effect {
        switch node {
        case .event(let n): .event(n)
        case .events(let ns): Effect(boxed: .events(ns))
        case .combine(let nodes): .combine(nodes.map(effect))
        case .syncAction(let n): Effect { _, _ in n }
        case .asyncAction(let n):
            Effect(action: { _ in
                await Task.yield()
                return n
            })
        case .asyncActions(let ns):
            Effect(action: { _ in
                await Task.yield()
                return ns
            })
        case .isolatedAction(let n):
            Effect(isolatedAction: { _, _ in
                await Task.yield()
                return n
            })
        case .isolatedActions(let ns):
            Effect(isolatedAction: { _, _ in
                await Task.yield()
                return ns
            })
        }
    }
}

/// What the model says of a program: the order of the updates when nothing
/// stops the run, and where the run can be cut (as counts of updates made
/// before the place).
struct ChainModel {
    private(set) var order: [Int] = []
    private(set) var cuts: Set<Int> = [0]
    private let program: TreeProgram
    private let subject: TreeSubject
    private let onAnActor: Bool
    /// Whether a run without isolation has made its actor (an isolated
    /// action made it): its synchronous actions then run there, awaited.
    private var runActorMade = false

    init(program: TreeProgram, subject: TreeSubject, onAnActor: Bool) {
        self.program = program
        self.subject = subject
        self.onAnActor = onAnActor
        for root in program.roots {
            cuts.insert(order.count)
            process(root)
        }
        cuts.insert(order.count)
    }

    private mutating func process(_ event: Int) {
        order.append(event)
        if subject.awaits(event) { cuts.insert(order.count) }
        guard let tree = program.trees[event] else { return }
        for next in execute(tree) { process(next) }
    }

    private mutating func execute(_ node: TreeNode) -> [Int] {
        switch node {
        case .event(let n): return [n]
        case .events(let ns): return ns
        case .combine(let nodes): return nodes.flatMap { execute($0) }
        case .syncAction(let n):
            if !onAnActor, runActorMade { cuts.insert(order.count) }
            return [n]
        case .asyncAction(let n):
            cuts.insert(order.count)
            return [n]
        case .asyncActions(let ns):
            cuts.insert(order.count)
            return ns
        case .isolatedAction(let n):
            if !onAnActor { runActorMade = true }
            cuts.insert(order.count)
            return [n]
        case .isolatedActions(let ns):
            if !onAnActor { runActorMade = true }
            cuts.insert(order.count)
            return ns
        }
    }
}

actor TreeHost {
    func run<Out: Subject<Int>>(_ state: TreeChain.State, proxy: TreeChain.Proxy, output: Out) async throws {
        _ = try await TreeChain.run(initialState: state, proxy: proxy, output: output)
    }
}

/// One generated sequence.
struct ChainStopSequence: Sendable, CustomStringConvertible {
    var seed: UInt64
    var onAnActor: Bool
    var stop: ChainStop
    var subject: TreeSubject
    var yieldsBeforeStopping: Int
    var loaded: Bool

    var description: String {
        "seed \(seed), \(onAnActor ? "on an actor" : "no actor"), \(subject), \(stop) after "
            + "\(yieldsBeforeStopping) yields\(loaded ? ", under load" : "")"
    }
}

@Suite("2.3 and 3.3: random action trees stopped at random moments", .timeLimit(.minutes(3)))
struct ChainModelTests {
    @Test func aStopCutsTheChainOnlyWhereItSuspendsAndNothingPassesTheCut() async {
        await propertyCheck(
            count: 3_000,
            input: Gen.int(in: 0...Int(Int32.max)), Gen.bool, Gen.int(in: 0...2), Gen.int(in: 0...2),
            Gen.int(in: 0...60), Gen.bool
        ) { seed, onAnActor, stop, subject, yields, loaded in
            await Self.check(
                ChainStopSequence(
                    seed: UInt64(seed), onAnActor: onAnActor, stop: ChainStop.allCases[stop],
                    subject: TreeSubject(rawValue: subject) ?? .synchronous, yieldsBeforeStopping: yields,
                    loaded: loaded))
        }
    }

    /// The model itself, on a program written by hand: the chain of issue 32.
    @Test func theModelCutsWhereTheChainSuspends() {
        var program = TreeProgram(seed: 0)
        program.roots = [23]
        program.trees = [
            23: .event(24), 24: .combine([.event(25), .event(27)]), 25: .combine([.isolatedAction(26)]),
            27: .events([28, 29]),
        ]
        let model = ChainModel(program: program, subject: .synchronous, onAnActor: true)
        #expect(model.order == [23, 24, 25, 26, 27, 28, 29])
        #expect(model.cuts == [0, 3, 7])
        // Without isolation, a synchronous action after an isolated one is
        // awaited on the run's actor: a place where the chain can be cut.
        let program2 = TreeProgram.with(roots: [1], trees: [1: .isolatedAction(2), 2: .syncAction(3)])
        #expect(ChainModel(program: program2, subject: .synchronous, onAnActor: false).cuts == [0, 1, 2, 3])
        #expect(ChainModel(program: program2, subject: .synchronous, onAnActor: true).cuts == [0, 1, 3])
        #expect(ChainModel(program: program2, subject: .sometimesAwaited, onAnActor: true).cuts == [0, 1, 3])
        #expect(ChainModel(program: program2, subject: .awaited, onAnActor: true).cuts == [0, 1, 2, 3])
    }

    static func check(_ sequence: ChainStopSequence) async {
        let program = TreeProgram(seed: sequence.seed)
        let model = ChainModel(program: program, subject: sequence.subject, onAnActor: sequence.onAnActor)
        await withBusyLoad(sequence.loaded) {
            let log = TreeLog()
            let proxy = TreeChain.Proxy(bufferSize: 4)
            for root in program.roots { try? proxy.send(root) }
            let state = TreeChain.State(program: program, log: log)
            let host = TreeHost()
            let subject = sequence.subject
            let run = Task {
                switch (sequence.onAnActor, subject) {
                case (true, .synchronous): try await host.run(state, proxy: proxy, output: NoCallback())
                case (true, .awaited): try await host.run(state, proxy: proxy, output: Callback { _ in })
                case (true, .sometimesAwaited): try await host.run(state, proxy: proxy, output: SometimesAwaited())
                case (false, .synchronous):
                    _ = try await TreeChain.run(initialState: state, proxy: proxy, output: NoCallback())
                case (false, .awaited):
                    _ = try await TreeChain.run(initialState: state, proxy: proxy, output: Callback { _ in })
                case (false, .sometimesAwaited):
                    _ = try await TreeChain.run(initialState: state, proxy: proxy, output: SometimesAwaited())
                }
            }
            for _ in 0..<sequence.yieldsBeforeStopping { await Task.yield() }
            switch sequence.stop {
            case .proxyCancel: proxy.cancel()
            case .proxyCancelWithAnError: proxy.cancel(with: ChainStopError())
            case .taskCancellation, .failingOperation: run.cancel()
            }
            log.stopReturned.store(true, ordering: .sequentiallyConsistent)
            guard let result = await withinDeadline("the end of the run", { await run.result }) else { return }

            switch (sequence.stop, result) {
            case (.proxyCancel, .failure(let error)):
                #expect(error as? TransducerError == .cancelled, "\(sequence)")
            case (.proxyCancelWithAnError, .failure(let error)):
                #expect(error is ChainStopError, "\(sequence)")
            case (_, .failure(let error)):
                #expect(error is CancellationError, "\(sequence)")
            case (_, .success):
                Issue.record("\(sequence): the run returned")
            }
            let updates = log.entries
            let seen = updates.map(\.event)
            #expect(
                seen == Array(model.order.prefix(seen.count)) && model.cuts.contains(seen.count),
                "\(sequence): saw \(seen), the model's order \(model.order), cut only after \(model.cuts.sorted()); \(program)"
            )
            if let first = updates.firstIndex(where: \.afterStop) {
                let passed = model.cuts.filter { $0 > first && $0 < seen.count }
                #expect(
                    passed.isEmpty,
                    "\(sequence): the stop had returned before update \(first), yet the run went on past \(passed.sorted()) to \(seen.count); \(program)"
                )
            }
        }
    }
}

extension TreeProgram {
    static func with(roots: [Int], trees: [Int: TreeNode]) -> TreeProgram {
        var program = TreeProgram(seed: 0)
        program.roots = roots
        program.trees = trees
        return program
    }
}
