// `StateTracker`: a host that renders again replaces its tracking of the
// children and shared runs it read instead of adding one; a change tells
// the latest tracking once, and a cancelled one never; a publication
// between the read and the tracking's installation is not missed; and
// tracking, cancelling and publishing from many threads at once tell
// every tracking at most once.

import Testing

@testable import Oak

@Suite("A state tracker", .timeLimit(.minutes(1)))
struct StateTrackerTests {
    /// The shared run's observation (its registrar's holder).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    static func observation(_ shared: SharedRun<SharedTally>) -> StateObservation? {
        shared.broadcast.observation as? StateObservation
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func renderingAgainReplacesTheTrackingInsteadOfAddingOne() throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let tracker = StateTracker()
        let told = Locked<[Int]>([])
        for rendering in 0..<1_000 {
            let count = tracker.track {
                shared.state.count
            } onChange: {
                told.withLock { $0.append(rendering) }
            }
            #expect(count == 0)
        }
        // A rendering is told at once, and its tracking ends, when a child
        // or shared run anywhere in the process (another test) announced a
        // change while it ran.
        let toldWhileRendering = told.withLock { $0 }
        let lastIsWaiting = !toldWhileRendering.contains(999)
        let observation = try #require(Self.observation(shared))
        #expect(observation.waitingTrackings == (lastIsWaiting ? 1 : 0), "at most one tracking, the last rendering's")
        shared.broadcast.publish(SharedTally.State(count: 1))
        let expected = toldWhileRendering + (lastIsWaiting ? [999] : [])
        #expect(told.withLock { $0 } == expected, "only the last rendering is told, once")
        #expect(observation.waitingTrackings == 0)
        shared.broadcast.publish(SharedTally.State(count: 2))
        #expect(told.withLock { $0 } == expected)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aCancelledTrackingIsNotTold() throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let tracker = StateTracker()
        let told = Locked(0)
        _ = tracker.track {
            shared.state.count
        } onChange: {
            told.withLock { $0 += 1 }
        }
        tracker.cancel()
        let toldWhileRendering = told.withLock { $0 }  // another test's change meanwhile
        #expect(try #require(Self.observation(shared)).waitingTrackings == 0)
        shared.broadcast.publish(SharedTally.State(count: 1))
        #expect(told.withLock { $0 } == toldWhileRendering)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aTrackerThatGoesAwayLeavesNoTracking() throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        do {
            let tracker = StateTracker()
            _ = tracker.track {
                shared.state.count
            } onChange: {
            }
            #expect(try #require(Self.observation(shared)).waitingTrackings == 1)
        }
        #expect(try #require(Self.observation(shared)).waitingTrackings == 0)
    }

    /// A shared run publishes on its own isolation: between the view's read
    /// and the tracking's installation.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aPublicationBetweenTheReadAndTheTrackingIsNotMissed() {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let tracker = StateTracker()
        let told = Locked(0)
        let read = tracker.track {
            let count = shared.state.count
            shared.broadcast.publish(SharedTally.State(count: 9))
            return count
        } onChange: {
            told.withLock { $0 += 1 }
        }
        #expect(read == 0)
        #expect(told.withLock { $0 } == 1)
    }

    /// Two runs read: the first change tells the tracking, which leaves
    /// the other run's tracking too.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theFirstChangeOfAnythingReadEndsTheWholeTracking() throws {
        let first = SharedRun<SharedTally>(initialState: .init())
        let second = SharedRun<SharedTally>(initialState: .init())
        let tracker = StateTracker()
        let told = Locked(0)
        _ = tracker.track {
            first.state.count + second.state.count
        } onChange: {
            told.withLock { $0 += 1 }
        }
        second.broadcast.publish(SharedTally.State(count: 1))
        #expect(told.withLock { $0 } == 1)
        #expect(try #require(Self.observation(first)).waitingTrackings == 0)
        first.broadcast.publish(SharedTally.State(count: 1))
        #expect(told.withLock { $0 } == 1)
    }

    /// A task the rendering started inherits its recorder: what it reads
    /// once the rendering is over is not recorded (told to the registrar
    /// instead), whatever thread it runs on.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aReadAfterTheRenderingIsNotRecorded() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let observation = try #require(Self.observation(shared))
        let recorder = StateAccessRecorder()
        #expect(recorder.record(observation))
        #expect(recorder.close().count == 1)
        #expect(!recorder.record(observation))
        // Through a tracker: a task started in the rendering reads later.
        let tracker = StateTracker()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let reader = tracker.track {
            Task {
                for await _ in gate { break }
                return shared.state.count
            }
        } onChange: {
        }
        open.yield()
        #expect(await reader.value == 0)
        #expect(observation.waitingTrackings == 0)
    }

    /// Renderings on one thread, publications on others: no tracking is
    /// told twice, none is left waiting once the tracker is done, and the
    /// last rendering is told of a change after it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func trackingAndPublishingAtOnceTellEachTrackingAtMostOnce() async throws {
        let shared = SharedRun<SharedTally>(initialState: .init())
        let tracker = StateTracker()
        let told = Locked<[Int: Int]>([:])
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<3 {
                group.addTask {
                    for count in 0..<2_000 {
                        shared.broadcast.publish(SharedTally.State(count: publisher * 10_000 + count))
                    }
                }
            }
            group.addTask {
                for rendering in 0..<2_000 {
                    _ = tracker.track {
                        shared.state.count
                    } onChange: {
                        told.withLock { $0[rendering, default: 0] += 1 }
                    }
                }
            }
        }
        #expect(told.withLock { $0.values.allSatisfy { $0 == 1 } })
        let observation = try #require(Self.observation(shared))
        #expect(observation.waitingTrackings <= 1)
        let toldBefore = told.withLock { $0[1_999] ?? 0 }
        shared.broadcast.publish(SharedTally.State(count: -1))
        #expect(told.withLock { $0[1_999] } == 1, "told before (\(toldBefore)) or by this change")
        #expect(observation.waitingTrackings == 0)
    }
}
