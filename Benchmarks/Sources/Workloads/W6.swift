// W6: latency of one event sent into a waiting transducer until its
// `update` has run (p50, p99). Floor: a value handed to a task parked on a
// continuation, resumed from another task. Each send waits `pause` first so
// that the receiver is parked; the update (or the floor's receiver) stamps
// the time and hands it back. Target: Oak ≤ 1.5 × floor.

import BenchSupport
import Oak

enum Echo: Transducer {
    struct State: Terminable {
        var stopped = false
        var isTerminal: Bool { stopped }
    }

    enum Event: Sendable {
        case ping(Mailbox<UInt64>)
        case stop
    }

    static func update(_ state: inout State, event: Event) {
        switch event {
        case .ping(let reply): reply.put(monotonicNanos())
        case .stop: state.stopped = true
        }
    }
}

/// W6: the latency of one event into a waiting run, and its floor.
public enum W6Workload {
    /// The spin before each send, so that the receiver has parked.
    public static let pause: UInt64 = 20_000

    /// Sends `samples` events one at a time into a waiting run; `record`
    /// receives each latency in nanoseconds.
    public static func oak(samples: Int, record: (Int) -> Void) async throws {
        let proxy = Echo.Proxy()
        let reply = Mailbox<UInt64>()
        let run = Task { try await Echo.run(initialState: Echo.State(), proxy: proxy) }
        for _ in 0..<samples {
            spin(nanoseconds: pause)
            let sent = monotonicNanos()
            try proxy.send(.ping(reply))
            let updated = await reply.take()
            record(Int(updated &- sent))
        }
        try proxy.send(.stop)
        try await run.value
    }

    /// The same into a task parked on a one-slot mailbox.
    public static func floor(samples: Int, record: (Int) -> Void) async {
        let inbox = Mailbox<Echo.Event>()
        let reply = Mailbox<UInt64>()
        let receiver = Task {
            var state = Echo.State()
            while !state.isTerminal {
                Echo.update(&state, event: await inbox.take())
            }
        }
        for _ in 0..<samples {
            spin(nanoseconds: pause)
            let sent = monotonicNanos()
            inbox.put(.ping(reply))
            let updated = await reply.take()
            record(Int(updated &- sent))
        }
        inbox.put(.stop)
        await receiver.value
    }
}
