// The run's storage (`_EventChannel`): what each method does after the state
// machine has decided, with real continuations, tasks and a real lock. The
// decisions themselves are tested in `EventChannelStateMachineTests`; the
// rules a user sees, through proxies and runs, in the contract suites.

import Foundation
import Testing

@testable import Oak

@Suite("Event channel (the run's storage)")
struct EventChannelTests {
    @Test("a buffered proxy's sends do not wait; a suspending proxy's wait until processed")
    func whetherSendsWaitIsAPropertyOfTheChannel() {
        #expect(Proxy<Int>()._channel.waitsUntilProcessed == false)
        #expect(SyncSuspendingProxy<Int>()._channel.waitsUntilProcessed == true)
    }

    @Test("an input tells which channel it sends to, and as whom")
    func anInputNamesItsChannelAndOrigin() {
        let proxy = Proxy<Int>()
        let (channel, origin) = Proxy<Int>._channel(of: proxy.input)
        #expect(channel === proxy._channel)
        #expect(origin == 0)
        let operationInput = Proxy<Int>._input(proxy._channel, operation: 7)
        #expect(Proxy<Int>._channel(of: operationInput).origin == 7)
    }

    @Test("offer enqueues while there is room, then does nothing and says the sender would wait")
    func offerNeverWaitsAndNeverDrops() throws {
        let proxy = Proxy<Int>(bufferSize: 2)
        let channel = proxy._channel
        #expect(channel.offer(1, from: 0) == .enqueued)
        #expect(channel.offer(2, from: 0) == .enqueued)
        #expect(channel.offer(3, from: 0) == .wouldWait)
        #expect(channel.pendingEvents == 2)
        #expect(throws: TransducerError.bufferFull) { try proxy.send(4) }
    }

    @Test("offer after the end refuses with terminated")
    func offerAfterTheEndRefuses() async throws {
        let proxy = Proxy<Int>()
        proxy.cancel()
        await #expect(throws: TransducerError.cancelled) {
            try await Counting.run(initialState: Counting.State(), proxy: proxy, output: NoCallback())
        }
        #expect(proxy._channel.offer(1, from: 0) == .refused(.terminated))
    }

    @Test("a waiting send is refused at once when the buffer is full, not left waiting")
    func aWaitingSendOnAFullBufferIsRefusedAtOnce() async {
        let proxy = SyncSuspendingProxy<Int>(bufferSize: 1)
        let channel = proxy._channel
        #expect(channel.offer(1, from: 0) == .enqueued)
        let error = await channel.enqueueAndWait(2, from: 0, waitingForRoom: false)
        #expect(error == .bufferFull)
        #expect(channel.pendingEvents == 1)
    }

    @Test("a send that waits for room is processed once there is room, and resumes after it was processed")
    func aSendWaitingForRoomIsProcessed() async throws {
        let proxy = SyncSuspendingProxy<Int>(bufferSize: 1)
        let channel = proxy._channel
        #expect(channel.offer(1, from: 0) == .enqueued)
        let waiting = Task { await channel.deliver(2, from: 0, untilProcessed: true) }
        let run = Task {
            try await SuspendingCounting.run(
                initialState: Counting.State(limit: 2), proxy: proxy, output: NoCallback())
        }
        #expect(await waiting.value == nil)
        #expect(try await run.value == 2)
    }

    @Test("the first stop request decides how the run ends; later ones change nothing")
    func theFirstStopWins() async {
        struct First: Error {}
        struct Second: Error {}
        let proxy = Proxy<Int>()
        proxy.cancel(with: First())
        proxy.cancel(with: Second())
        // A failure after the stop request (an effect that throws once
        // cancelled) does not replace it.
        #expect(proxy._channel.firstEnding(failingWith: Second()) is First)
        await #expect(throws: First.self) {
            try await Counting.run(initialState: Counting.State(), proxy: proxy, output: NoCallback())
        }
    }
}

/// Counts events until `limit`; outputs the count.
private enum Counting: Transducer {
    struct State: Terminable {
        var count = 0
        var limit = Int.max
        var isTerminal: Bool { count >= limit }
    }

    static func update(_ state: inout State, event: Int) -> Int {
        state.count += 1
        return state.count
    }
}

/// ``Counting`` behind a ``SyncSuspendingProxy``.
private enum SuspendingCounting: Transducer {
    typealias Proxy = SyncSuspendingProxy<Int>

    static func update(_ state: inout Counting.State, event: Int) -> Int {
        Counting.update(&state, event: event)
    }
}
