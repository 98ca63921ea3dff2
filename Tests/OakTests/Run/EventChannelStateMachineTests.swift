// The run's state machine alone: no task, no continuation, no lock. The
// parked loop, a waiting sender's acknowledgement and an operation's task are
// plain values here (`Int`, `Int`, `String`), so every transition and the
// action it returns can be asserted directly. Debug builds also check the
// machine's invariants after every transition (OAK_INTERNAL_CHECKS).

import DequeModule
import Foundation
import Testing

@testable import Oak

@Suite("Run state machine")
struct EventChannelStateMachineTests {
    typealias Machine = EventChannelStateMachine<String, Int, Int, String>
    typealias Element = Machine.Element

    func element(_ event: String, ack: Int? = nil) -> Element {
        Element(event: event, ack: ack)
    }

    /// Sends `event` from the proxy with nothing taken.
    func send(_ machine: inout Machine, _ event: String, from origin: UInt64 = 0, taken: Int = 0) -> Machine.SendAction
    {
        machine.send(element(event), from: origin, taken: taken, waitingForRoom: false)
    }

    func events(_ batch: Deque<Element>) -> [String] { batch.map(\.event) }

    // MARK: Lifecycle

    @Test func aNewChannelIsUnattachedAndOpen() {
        let machine = Machine(capacity: 2)
        guard case .unattached(.open) = machine.lifecycle else {
            Issue.record("expected unattached(open), got \(machine.lifecycle)")
            return
        }
        #expect(machine.acceptsEvents)
    }

    @Test func attachingTwiceIsRefused() {
        var machine = Machine(capacity: 2)
        #expect(machine.attach(run: 1, taskIsCancelled: false) == .attached)
        #expect(machine.attach(run: 2, taskIsCancelled: false) == .refused(.proxyAlreadyInUse))
        _ = machine.finish(taken: [])
        #expect(machine.attach(run: 2, taskIsCancelled: false) == .refused(.proxyAlreadyInUse))
    }

    @Test func anInvalidCapacityIsReportedByAttachAndSend() {
        var machine = Machine(capacity: 0)
        #expect(machine.attach(run: 1, taskIsCancelled: false) == .refused(.invalidBufferSize(0)))
        guard case .refused(.invalidBufferSize(0)) = send(&machine, "a") else {
            Issue.record("expected invalidBufferSize")
            return
        }
    }

    @Test func eventsSentBeforeTheRunWaitForIt() {
        var machine = Machine(capacity: 4)
        _ = send(&machine, "a")
        _ = send(&machine, "b")
        #expect(machine.attach(run: 1, taskIsCancelled: false) == .attached)
        var batch: Deque<Element> = []
        guard case .filled = machine.refill(into: &batch) else {
            Issue.record("expected filled")
            return
        }
        #expect(events(batch) == ["a", "b"])
    }

    @Test func aStopBeforeTheRunIsKeptForIt() {
        var machine = Machine(capacity: 4)
        _ = send(&machine, "a")
        guard case .stopping(resume: nil) = machine.stop(.cancelled) else {
            Issue.record("expected stopping")
            return
        }
        #expect(machine.attach(run: 1, taskIsCancelled: false) == .attachedStopping)
        var batch: Deque<Element> = []
        // The stop wins over the buffered event.
        guard case .stop(.cancelled) = machine.refill(into: &batch) else {
            Issue.record("expected the pending stop")
            return
        }
        #expect(batch.isEmpty)
        let finish = machine.finish(taken: batch)
        #expect(finish.unprocessed.map(\.event) == ["a"])
    }

    @Test func theFirstStopWinsAndLaterOnesAreIgnored() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        guard case .stopping = machine.stop(.cancelled) else {
            Issue.record("expected stopping")
            return
        }
        guard case .ignored = machine.taskCancelled(run: 1) else {
            Issue.record("a second stop must be ignored")
            return
        }
        var batch: Deque<Element> = []
        guard case .stop(.cancelled) = machine.refill(into: &batch) else {
            Issue.record("expected the first stop")
            return
        }
    }

    @Test func aTaskCancelledBeforeTheRunStartedEndsItWithCancellationError() {
        var machine = Machine(capacity: 4)
        _ = send(&machine, "a")
        // Its handler ran before the run attached: ignored, the run reads
        // the cancellation when it attaches.
        guard case .ignored = machine.taskCancelled(run: 1) else {
            Issue.record("a cancellation before the run attached is read by attach")
            return
        }
        // Both before the start: the order cannot be known; the task's
        // cancellation decides.
        _ = machine.stop(.cancelled)
        #expect(machine.attach(run: 1, taskIsCancelled: true) == .attachedStopping)
        var batch: Deque<Element> = []
        guard case .stop(.taskCancelled) = machine.refill(into: &batch) else {
            Issue.record("expected the task's cancellation")
            return
        }
    }

    @Test func onlyTheAttachedRunsTaskCancellationStopsIt() {
        var machine = Machine(capacity: 4)
        #expect(machine.attach(run: 1, taskIsCancelled: false) == .attached)
        // A second run, refused with proxyAlreadyInUse, is cancelled.
        #expect(machine.attach(run: 2, taskIsCancelled: true) == .refused(.proxyAlreadyInUse))
        guard case .ignored = machine.taskCancelled(run: 2) else {
            Issue.record("another run's cancellation must not stop this one")
            return
        }
        #expect(machine.pendingStop == nil)
        guard case .stopping = machine.taskCancelled(run: 1) else {
            Issue.record("expected stopping")
            return
        }
        guard case .taskCancelled? = machine.pendingStop else {
            Issue.record("expected the task's cancellation pending")
            return
        }
    }

    @Test func aTaskCancelledWhileTheLoopPreparesToParkWakesIt() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        var batch: Deque<Element> = []
        guard case .empty = machine.refill(into: &batch) else {
            Issue.record("expected empty")
            return
        }
        // Cancelled between the refill and the park: the park returns at once.
        _ = machine.taskCancelled(run: 1)
        guard case .resume(7) = machine.park(7) else {
            Issue.record("a pending stop must not let the loop park")
            return
        }
        guard case .stop(.taskCancelled) = machine.refill(into: &batch) else {
            Issue.record("expected the task's cancellation")
            return
        }
    }

    @Test func aStopAfterTheTerminalStateIsIgnored() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        machine.close()
        guard case .ignored = machine.stop(.cancelled) else {
            Issue.record("the terminal state happened first")
            return
        }
        guard case .refused(.terminated) = send(&machine, "late") else {
            Issue.record("a closed input refuses events")
            return
        }
    }

    @Test func finishDrainsTheBufferThenEnds() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = send(&machine, "a")
        #expect(machine.finishInput() == nil)
        guard case .refused(.terminated) = send(&machine, "b") else {
            Issue.record("a finished input refuses events")
            return
        }
        var batch: Deque<Element> = []
        guard case .filled = machine.refill(into: &batch) else {
            Issue.record("the buffered event is still processed")
            return
        }
        #expect(events(batch) == ["a"])
        batch.removeAll()
        guard case .drained = machine.refill(into: &batch) else {
            Issue.record("expected drained")
            return
        }
    }

    @Test func nothingIsAcceptedAfterTheEnd() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.finish(taken: [])
        #expect(!machine.acceptsEvents)
        guard case .refused(.terminated) = send(&machine, "a") else {
            Issue.record("expected terminated")
            return
        }
        #expect(machine.finishInput() == nil)
        guard case .ignored = machine.stop(.cancelled) else {
            Issue.record("a stop after the end must be ignored")
            return
        }
    }

    // MARK: Buffer and capacity

    @Test func takenEventsCountAgainstTheCapacity() {
        var machine = Machine(capacity: 3)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        for event in ["a", "b", "c"] { _ = send(&machine, event) }
        var batch: Deque<Element> = []
        _ = machine.refill(into: &batch)
        #expect(machine.buffer.isEmpty)
        // The loop started "a" and still holds "b" and "c": one more fits.
        guard case .enqueued = send(&machine, "d", taken: 2) else {
            Issue.record("one more event fits")
            return
        }
        guard case .refused(.bufferFull) = send(&machine, "e", taken: 2) else {
            Issue.record("expected bufferFull: 1 buffered + 2 taken = capacity 3")
            return
        }
    }

    @Test func aRefusedEventLeavesTheBufferAsItWas() {
        var machine = Machine(capacity: 1)
        _ = send(&machine, "a")
        _ = send(&machine, "b")
        #expect(machine.buffer.map(\.event) == ["a"])
    }

    @Test func aRefillTakesAtMostOneBatch() {
        let count = Machine.batchSize + 10
        var machine = Machine(capacity: count)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        for i in 0..<count { _ = send(&machine, "e\(i)") }
        var batch: Deque<Element> = []
        _ = machine.refill(into: &batch)
        #expect(batch.count == Machine.batchSize)
        #expect(batch.first?.event == "e0")
        #expect(machine.buffer.count == 10)
    }

    @Test func sendersWaitingForRoomAreAdmittedInOrderAtRefill() {
        var machine = Machine(capacity: 1)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.send(element("a", ack: 1), from: 0, taken: 0, waitingForRoom: true)
        _ = machine.send(element("b", ack: 2), from: 0, taken: 0, waitingForRoom: true)
        _ = machine.send(element("c", ack: 3), from: 0, taken: 0, waitingForRoom: true)
        #expect(machine.buffer.map(\.event) == ["a"])
        #expect(machine.overflow.map(\.event) == ["b", "c"])
        // A sender that does not wait is refused while others wait for room,
        // so that it cannot overtake them.
        guard case .refused(.bufferFull) = send(&machine, "d") else {
            Issue.record("expected bufferFull")
            return
        }
        var batch: Deque<Element> = []
        _ = machine.refill(into: &batch)
        #expect(events(batch) == ["a"])
        batch.removeAll()
        _ = machine.refill(into: &batch)
        #expect(events(batch) == ["b"])
        #expect(batch.first?.ack == 2)
    }

    // MARK: Parking

    @Test func theLoopParksOnlyWhenThereIsNothingToDo() {
        var machine = Machine(capacity: 2)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        guard case .parked = machine.park(7) else {
            Issue.record("an empty open channel parks the loop")
            return
        }
        // A send hands the parked loop to the sender, which resumes it.
        guard case .enqueued(resume: 7?) = send(&machine, "a") else {
            Issue.record("the sender resumes the loop")
            return
        }
        guard case .resume(8) = machine.park(8) else {
            Issue.record("with an event waiting, the loop resumes at once")
            return
        }
    }

    @Test(arguments: ["finish", "stop"])
    func anEndingRequestResumesTheParkedLoop(_ request: String) {
        var machine = Machine(capacity: 2)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.park(7)
        if request == "finish" {
            #expect(machine.finishInput() == 7)
        } else {
            guard case .stopping(resume: 7?) = machine.taskCancelled(run: 1) else {
                Issue.record("the stop resumes the loop")
                return
            }
        }
        guard case .resume(8) = machine.park(8) else {
            Issue.record("an ending pending: no parking")
            return
        }
    }

    // MARK: Operations

    @Test func aNewOperationWithTheSameIDReplacesTheRunningOne() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        #expect(machine.reserveOperation(1, id: EffectID("load"))?.task == nil)
        #expect(machine.activateOperation(1, task: "task1") == nil)
        // #2 replaces #1: its task is handed back to be cancelled.
        #expect(machine.reserveOperation(2, id: EffectID("load"))?.task == "task1")
        #expect(machine.activateOperation(2, task: "task2") == nil)
        // #1's late answer is refused; #2's is accepted.
        guard case .refused(.operationCancelled) = send(&machine, "late", from: 1) else {
            Issue.record("the replaced operation's event must be refused")
            return
        }
        guard case .enqueued = send(&machine, "fresh", from: 2) else {
            Issue.record("the live operation's event is accepted")
            return
        }
        // Both still registered: the end of the run awaits both tasks.
        let finish = machine.finish(taken: [])
        #expect(Set(finish.tasks) == ["task1", "task2"])
    }

    @Test func cancelTaskRefusesTheOperationsEventsUntilItReturns() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: EffectID("timer"))
        _ = machine.activateOperation(1, task: "task1")
        #expect(machine.cancelOperation(id: EffectID("timer"))?.task == "task1")
        #expect(machine.cancelOperation(id: EffectID("timer"))?.task == nil)
        guard case .refused(.operationCancelled) = send(&machine, "tick", from: 1) else {
            Issue.record("expected operationCancelled")
            return
        }
        machine.completeOperation(1, id: EffectID("timer"))
        #expect(machine.operations.isEmpty)
        #expect(machine.finish(taken: []).tasks.isEmpty)
    }

    @Test func cancellingAnOperationTakesItsBufferedEventsOut() {
        var machine = Machine(capacity: 8)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: EffectID("search"))
        _ = machine.activateOperation(1, task: "task1")
        _ = send(&machine, "typed b")
        _ = send(&machine, "answer a", from: 1)
        _ = send(&machine, "typed c")
        _ = machine.send(element("answer a, waiting", ack: 7), from: 1, taken: 0, waitingForRoom: true)
        let cancellation = machine.reserveOperation(2, id: EffectID("search"))
        #expect(cancellation?.number == 1)
        #expect(cancellation?.id == EffectID("search"))
        #expect(cancellation?.task == "task1")
        #expect(cancellation?.purged.map(\.event) == ["answer a", "answer a, waiting"])
        #expect(cancellation?.purged.map(\.ack) == [nil, 7])
        var batch = Deque<Element>()
        guard case .filled = machine.refill(into: &batch) else {
            Issue.record("expected the other events")
            return
        }
        #expect(events(batch) == ["typed b", "typed c"])
    }

    @Test func anElementTagsItsOperationWithLow32BitsNeverZero() {
        #expect(Machine.tag(0) == 0)
        #expect(Machine.tag(7) == 7)
        #expect(Machine.tag(1 << 32) == 1)
        #expect(Machine.tag((1 << 32) + 7) == 7)
        #expect(Element(event: "e", ack: nil, origin: 7).isFrom(7))
        #expect(!Element(event: "e", ack: nil, origin: 0).isFrom(0))
        // With a one-byte event and a pointer-sized acknowledgement (a continuation).
        #expect(MemoryLayout<EventChannelStateMachine<UInt8, Int, AnyObject, String>.Element>.stride == 16)
    }

    @Test func anOperationCancelledWhileStartingIsCancelledWhenItsTaskArrives() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: EffectID("a"))
        #expect(machine.cancelOperation(id: EffectID("a"))?.task == nil)
        #expect(machine.activateOperation(1, task: "task1") == "task1")
        #expect(machine.finish(taken: []).tasks == ["task1"])
    }

    @Test func anOperationThatReturnedBeforeItsTaskArrivedIsForgotten() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: nil)
        machine.completeOperation(1, id: nil)
        #expect(machine.activateOperation(1, task: "task1") == nil)
        #expect(machine.operations.isEmpty)
    }

    @Test func anIDIsFreedWhenItsOperationReturns() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: EffectID("a"))
        _ = machine.activateOperation(1, task: "task1")
        machine.completeOperation(1, id: EffectID("a"))
        #expect(machine.operationIDs.isEmpty)
        #expect(machine.reserveOperation(2, id: EffectID("a"))?.task == nil)
    }

    @Test func aReplacedOperationReturningLaterKeepsTheNewOnesID() {
        var machine = Machine(capacity: 4)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.reserveOperation(1, id: EffectID("a"))
        _ = machine.activateOperation(1, task: "task1")
        _ = machine.reserveOperation(2, id: EffectID("a"))
        _ = machine.activateOperation(2, task: "task2")
        machine.completeOperation(1, id: EffectID("a"))
        #expect(machine.operationIDs[EffectID("a")] == 2)
        #expect(machine.cancelOperation(id: EffectID("a"))?.task == "task2")
    }

    @Test func theEndHandsBackEveryEventNotProcessed() {
        var machine = Machine(capacity: 2)
        _ = machine.attach(run: 1, taskIsCancelled: false)
        _ = machine.send(element("a", ack: 1), from: 0, taken: 0, waitingForRoom: true)
        _ = machine.send(element("b", ack: 2), from: 0, taken: 0, waitingForRoom: true)
        _ = machine.send(element("c", ack: 3), from: 0, taken: 0, waitingForRoom: true)
        var batch: Deque<Element> = []
        _ = machine.refill(into: &batch)
        let finish = machine.finish(taken: batch)
        // Taken first, then buffered, then waiting for room.
        #expect(finish.unprocessed.map(\.event) == ["a", "b", "c"])
        #expect(finish.unprocessed.map(\.ack) == [1, 2, 3])
        #expect(machine.buffer.isEmpty && machine.overflow.isEmpty)
    }

    @Test func theProxyIDIsMadeOnceOnFirstUse() {
        var machine = Machine(capacity: 1)
        var made = 0
        let first = machine.identify {
            made += 1
            return UUID()
        }
        let second = machine.identify {
            made += 1
            return UUID()
        }
        #expect(first == second)
        #expect(made == 1)
    }
}

@Suite("Run state machine: prepending")
struct EventChannelStateMachinePrependTests {
    typealias Machine = EventChannelStateMachine<String, Int, Int, String>

    @Test func aPrependedEventComesFirstEvenAfterFinish() {
        var machine = Machine(capacity: 3)
        _ = machine.send(.init(event: "a", ack: nil), from: 0, taken: 0, waitingForRoom: false)
        _ = machine.finishInput()
        #expect(machine.prepend(.init(event: "restored", ack: nil)) == nil)
        #expect(machine.buffer.map(\.event) == ["restored", "a"])
        _ = machine.attach(run: 1, taskIsCancelled: false)
        #expect(machine.prepend(.init(event: "late", ack: nil)) == .terminated)
    }

    @Test func aFullBufferRefusesAPrependedEvent() {
        var machine = Machine(capacity: 1)
        _ = machine.send(.init(event: "a", ack: nil), from: 0, taken: 0, waitingForRoom: false)
        #expect(machine.prepend(.init(event: "b", ack: nil)) == .bufferFull)
    }
}
