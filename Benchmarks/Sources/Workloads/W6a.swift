// W6a: W6 (latency of one event into a waiting transducer) with `run` on an
// actor, as every host runs: the sender is off the actor, the update runs on
// it. Floor: a receiver task on the same actor parked on a one-slot mailbox.
// Target: Oak ≤ 1.5 × floor.

import BenchSupport
import Oak

/// The actor the run (or the floor's receiver) of W6a is isolated to.
public actor W6aReceiver {
    /// A fresh actor.
    public init() {}

    /// Runs the echo transducer here until it stops.
    func run(proxy: Echo.Proxy) async throws {
        try await Echo.run(initialState: Echo.State(), proxy: proxy)
    }

    /// Receives events from `inbox` here until `.stop`.
    func receive(from inbox: Mailbox<Echo.Event>) async {
        var state = Echo.State()
        while !state.isTerminal {
            Echo.update(&state, event: await inbox.take())
        }
    }
}

/// W6a: the latency of one event into a run on an actor, and its floor.
public enum W6aWorkload {
    /// Sends `samples` events one at a time into a run waiting on an actor;
    /// `record` receives each latency in nanoseconds.
    public static func oak(samples: Int, record: (Int) -> Void) async throws {
        let receiver = W6aReceiver()
        let proxy = Echo.Proxy()
        let reply = Mailbox<UInt64>()
        let run = Task { try await receiver.run(proxy: proxy) }
        for _ in 0..<samples {
            spin(nanoseconds: W6Workload.pause)
            let sent = monotonicNanos()
            try proxy.send(.ping(reply))
            let updated = await reply.take()
            record(Int(updated &- sent))
        }
        try proxy.send(.stop)
        try await run.value
    }

    /// The same into a task on an actor parked on a one-slot mailbox.
    public static func floor(samples: Int, record: (Int) -> Void) async {
        let receiver = W6aReceiver()
        let inbox = Mailbox<Echo.Event>()
        let reply = Mailbox<UInt64>()
        let task = Task { await receiver.receive(from: inbox) }
        for _ in 0..<samples {
            spin(nanoseconds: W6Workload.pause)
            let sent = monotonicNanos()
            inbox.put(.ping(reply))
            let updated = await reply.take()
            record(Int(updated &- sent))
        }
        inbox.put(.stop)
        await task.value
    }
}
