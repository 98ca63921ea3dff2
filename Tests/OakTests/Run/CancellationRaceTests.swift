// Rule 3.3 under load: a run on no actor, an actor or the main actor; senders
// on each of them filling its buffer; its task cancelled a random moment
// after its start, alone or raced with `proxy.cancel()` in either order; half
// of the sequences with every core kept busy beside them (BusyLoad). What
// must hold whatever the timing: the run ends; with the error of the ending
// requested first; and it processes no event after that ending returned.
//
// Nothing here sleeps: "a random moment" is a number of `Task.yield()`s of
// the canceller, whose length the load and the scheduler decide.

import Foundation
import PropertyBased
import Testing

@testable import Oak

/// A counter that never ends by itself and logs every update.
enum RacedCounter: Transducer {
    struct State: NonTerminal, Sendable {
        let log: RaceLog
    }
    enum Event: Sendable { case tick }
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> Int {
        state.log.append(.update)
    }
}

/// The order of updates and cancellations, as they happened.
final class RaceLog: Sendable {
    enum Entry: Equatable { case update, cancelled }
    private let entries = Locked<[Entry]>([])

    /// Appends `entry`; returns how many updates there were.
    @discardableResult
    func append(_ entry: Entry) -> Int {
        entries.withLock {
            $0.append(entry)
            return $0.count
        }
    }

    /// How many updates came after the first cancellation returned.
    var updatesAfterCancellation: Int {
        entries.withLock { entries in
            guard let cancelled = entries.firstIndex(of: .cancelled) else { return 0 }
            return entries[cancelled...].filter { $0 == .update }.count
        }
    }
}

/// Where a run or a sender executes.
enum RaceIsolation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case none, actor, mainActor

    var description: String {
        switch self {
        case .none: "no actor"
        case .actor: "an actor"
        case .mainActor: "the main actor"
        }
    }
}

/// One generated race.
struct CancellationRace: Sendable, CustomStringConvertible {
    var run: RaceIsolation
    var senders: [RaceIsolation]
    var bufferSize: Int
    var order: CancellationOrder
    var yieldsBeforeCancelling: Int
    var loaded: Bool

    var description: String {
        "run on \(run), senders on \(senders), buffer \(bufferSize), \(order.testDescription) after "
            + "\(yieldsBeforeCancelling) yields\(loaded ? ", under load" : "")"
    }
}

actor RaceActor {
    func run(proxy: RacedCounter.Proxy, log: RaceLog) async throws {
        try await RacedCounter.run(initialState: .init(log: log), proxy: proxy, output: NoCallback())
    }

    func send(to proxy: RacedCounter.Proxy, until done: Gate) async {
        await RaceSending.send(to: proxy, until: done)
    }
}

enum RaceSending {
    /// Sends ticks, yielding after each, until `done` opens or the run ends.
    static func send(to proxy: RacedCounter.Proxy, until done: Gate) async {
        for _ in 0..<2_000 where !done.isOpen {
            do {
                try proxy.send(.tick)
            } catch TransducerError.bufferFull {
                // Full: the run is behind; try again after a yield.
            } catch {
                return  // terminated: the run has ended.
            }
            await Task.yield()
        }
    }

    @MainActor
    static func sendOnTheMainActor(to proxy: RacedCounter.Proxy, until done: Gate) async {
        await send(to: proxy, until: done)
    }
}

@Suite("3.3 cancellation races under load", .timeLimit(.minutes(2)))
struct CancellationRaceTests {
    @Test func theFirstEndingDecidesAndNothingIsProcessedAfterIt() async {
        await propertyCheck(
            count: 1_500,
            input: Gen.int(in: 0...2), Gen.int(in: 0...2).array(of: 1...3), Gen.int(in: 1...64),
            Gen.int(in: 0...2), Gen.int(in: 0...40), Gen.bool
        ) { run, senders, bufferSize, order, yields, loaded in
            await Self.check(
                CancellationRace(
                    run: RaceIsolation(rawValue: run) ?? .none,
                    senders: senders.map { RaceIsolation(rawValue: $0) ?? .none },
                    bufferSize: bufferSize,
                    order: CancellationOrder.allCases[order],
                    yieldsBeforeCancelling: yields,
                    loaded: loaded))
        }
    }

    static func check(_ race: CancellationRace) async {
        await withBusyLoad(race.loaded) {
            let log = RaceLog()
            let proxy = RacedCounter.Proxy(bufferSize: race.bufferSize)
            let done = Gate()
            let host = RaceActor()
            let run: Task<Void, any Error> =
                switch race.run {
                case .none:
                    Task {
                        try await RacedCounter.run(initialState: .init(log: log), proxy: proxy, output: NoCallback())
                    }
                case .actor:
                    Task { try await host.run(proxy: proxy, log: log) }
                case .mainActor:
                    Task { @MainActor in
                        try await RacedCounter.run(initialState: .init(log: log), proxy: proxy, output: NoCallback())
                    }
                }
            var senders: [Task<Void, Never>] = []
            for sender in race.senders {
                let senderHost = RaceActor()
                switch sender {
                case .none: senders.append(Task.detached { await RaceSending.send(to: proxy, until: done) })
                case .actor: senders.append(Task { await senderHost.send(to: proxy, until: done) })
                case .mainActor: senders.append(Task { await RaceSending.sendOnTheMainActor(to: proxy, until: done) })
                }
            }
            for _ in 0..<race.yieldsBeforeCancelling { await Task.yield() }

            var attachedBeforeTheTask = false
            switch race.order {
            case .taskOnly:
                run.cancel()
                log.append(.cancelled)
            case .taskThenProxy:
                run.cancel()
                log.append(.cancelled)
                proxy.cancel()
            case .proxyThenTask:
                proxy.cancel()
                log.append(.cancelled)
                attachedBeforeTheTask = proxy._channel.state.withLock {
                    if case .attached = $0.machine.lifecycle { true } else { false }
                }
                run.cancel()
            }
            let result = await withinDeadline("the end of the run") { await run.result }
            done.open()
            for sender in senders { await sender.value }
            guard let result else { return }  // The deadline recorded the issue.

            let error: (any Error)? =
                switch result {
                case .success: nil
                case .failure(let error): error
                }
            switch race.order {
            case .taskOnly, .taskThenProxy:
                #expect(error is CancellationError, "\(race): \(String(describing: error))")
            case .proxyThenTask where attachedBeforeTheTask:
                #expect(error as? TransducerError == .cancelled, "\(race): \(String(describing: error))")
            case .proxyThenTask:
                // The run had not started when its task was cancelled: it
                // cannot order the two (TaskCancellationTests), and starts
                // in a cancelled task, or it started in between.
                #expect(
                    error is CancellationError || error as? TransducerError == .cancelled,
                    "\(race): \(String(describing: error))")
            }
            // The loop reads the stop flag before each update without the
            // lock: an update whose check came just before the stop may run
            // after it; never a second.
            #expect(log.updatesAfterCancellation <= 1, "\(race)")
        }
    }
}
