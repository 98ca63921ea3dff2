// W8: composition. N events sent to a parent, which routes each to a child
// transducer running as its operation (`Effect.send(_:to:)`); the child's
// output comes back to the parent as an event (through `Effect.run(_:output:)`,
// with back pressure) and the parent adds it up. Next to it, the same work in
// one flat transducer: N events, each doubled and added up in one update.
// Target: composed ≤ 2 × flat.
//
// W8b: the same routing with the child embedded: the child's state is part
// of the parent's, the parent's update calls the child's, and the child's
// output comes back as the parent's next event (`.event`). No run, channel
// or task of its own: the form for a child without effects.

import BenchSupport
import Oak

/// W8: a parent routing every event through a child and back, and the same
/// work in one flat transducer.
public enum W8Workload {
    /// The child: doubles every value it gets and outputs it.
    enum Doubler: Transducer {
        struct State: NonTerminal, Sendable {}
        enum Event: Sendable { case value(Int) }

        static func update(_ state: inout State, event: Event) -> Int {
            switch event {
            case .value(let value): doubled(value)
            }
        }
    }

    /// The parent: starts the child, routes every value to it and adds up
    /// what comes back; terminal once `limit` answers have arrived.
    enum Parent: EffectTransducer {
        struct State: Terminable, Sendable {
            var child: Child<Doubler>?
            var answers = 0
            var total = 0
            let limit: Int
            var isTerminal: Bool { answers >= limit }
        }

        enum Event: Sendable {
            case start
            case value(Int)
            case doubled(Int)
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
            switch event {
            case .start:
                let child = Child<Doubler>(initialState: .init(), proxy: Doubler.Proxy(bufferSize: state.limit))
                state.child = child
                return (.run(child, output: { .doubled($0) }), state.total)
            case .value(let value):
                guard let child = state.child else { return (nil, state.total) }
                return (.send(.value(value), to: child), state.total)
            case .doubled(let value):
                state.answers += 1
                state.total = add(state.total, value)
                return (nil, state.total)
            }
        }
    }

    /// The parent with the child embedded: its update calls the child's and
    /// feeds the output back as its next event.
    enum Embedding: EffectTransducer {
        struct State: Terminable, Sendable {
            var child = Doubler.State()
            var answers = 0
            var total = 0
            let limit: Int
            var isTerminal: Bool { answers >= limit }
        }

        enum Event: Sendable {
            case value(Int)
            case doubled(Int)
        }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
            switch event {
            case .value(let value):
                let output = Doubler.update(&state.child, event: .value(value))
                return (.event(.doubled(output)), state.total)
            case .doubled(let value):
                state.answers += 1
                state.total = add(state.total, value)
                return (nil, state.total)
            }
        }
    }

    /// The flat transducer: the child's and the parent's work in one update.
    enum Flat: EffectTransducer {
        struct State: Terminable, Sendable {
            var answers = 0
            var total = 0
            let limit: Int
            var isTerminal: Bool { answers >= limit }
        }

        enum Event: Sendable { case value(Int) }

        typealias Output = Int

        static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
            switch event {
            case .value(let value):
                state.answers += 1
                state.total = add(state.total, doubled(value))
                return (nil, state.total)
            }
        }
    }

    /// The flat transducer: `n` events sent through the proxy, then `run`
    /// in a task until terminal.
    public static func flat(n: Int) async throws -> Int {
        let proxy = Flat.Proxy(bufferSize: n)
        for value in 0..<n {
            try proxy.send(.value(value))
        }
        let run = Task { try await Flat.run(initialState: Flat.State(limit: n), proxy: proxy, env: ()) }
        return try await run.value
    }

    /// The parent with the child embedded: `n` events sent through the
    /// parent's proxy, then `run` in a task until `n` answers came back.
    public static func embedded(n: Int) async throws -> Int {
        let proxy = Embedding.Proxy(bufferSize: n)
        for value in 0..<n {
            try proxy.send(.value(value))
        }
        let run = Task { try await Embedding.run(initialState: Embedding.State(limit: n), proxy: proxy, env: ()) }
        return try await run.value
    }

    /// The parent and its child: `.start`, then `n` events sent through the
    /// parent's proxy, then `run` in a task until `n` answers came back.
    public static func composed(n: Int) async throws -> Int {
        let proxy = Parent.Proxy(bufferSize: n + 1)
        try proxy.send(.start)
        for value in 0..<n {
            try proxy.send(.value(value))
        }
        let run = Task { try await Parent.run(initialState: Parent.State(limit: n), proxy: proxy, env: ()) }
        return try await run.value
    }
}

@inline(never)
func doubled(_ value: Int) -> Int { value &* 2 }

@inline(never)
func add(_ total: Int, _ value: Int) -> Int { total &+ value }

/// W8 with both runs on an actor, as every host runs them: the parent's
/// loop and the child's then take turns on one executor.
public actor W8OnActor {
    /// A fresh actor.
    public init() {}

    /// The flat transducer, run on this actor.
    public func flat(n: Int) async throws -> Int {
        let proxy = W8Workload.Flat.Proxy(bufferSize: n)
        for value in 0..<n {
            try proxy.send(.value(value))
        }
        return try await W8Workload.Flat.run(initialState: W8Workload.Flat.State(limit: n), proxy: proxy, env: ())
    }

    /// The parent and its child, run on this actor.
    public func composed(n: Int) async throws -> Int {
        let proxy = W8Workload.Parent.Proxy(bufferSize: n + 1)
        try proxy.send(.start)
        for value in 0..<n {
            try proxy.send(.value(value))
        }
        return try await W8Workload.Parent.run(
            initialState: W8Workload.Parent.State(limit: n), proxy: proxy, env: ())
    }
}
