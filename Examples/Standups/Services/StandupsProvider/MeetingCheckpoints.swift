// The port through which meetings in progress are kept durable: each room
// writes its meeting's checkpoint (opaque bytes, in the format of
// `MeetingRooms`), and a process that starts finds the meetings that were in
// progress when the last one stopped. The same store as the stand-ups
// (SQLite, PostgreSQL), so that a restored meeting is saved where its
// stand-up is.

import Foundation
import Models
import Synchronization

/// The checkpoints of the meetings in progress.
public struct MeetingCheckpoints: Sendable {
    /// A meeting in progress as its room last wrote it.
    public struct Kept: Equatable, Sendable {
        /// The stand-up whose meeting it is.
        public var standup: Standup.ID
        /// The room that ran it (and the meeting's id once saved).
        public var room: UUID
        /// The checkpoint.
        public var checkpoint: Data

        /// A kept checkpoint.
        public init(standup: Standup.ID, room: UUID, checkpoint: Data) {
            self.standup = standup
            self.room = room
            self.checkpoint = checkpoint
        }
    }

    /// Keeps the checkpoint of a stand-up's meeting (replacing the one kept
    /// for the stand-up).
    public var save: @Sendable (Kept) async throws(StoreFailure) -> Void
    /// Forgets the checkpoint of the stand-up's meeting if it is the one of
    /// the room (a later meeting's stays).
    public var remove: @Sendable (_ standup: Standup.ID, _ room: UUID) async throws(StoreFailure) -> Void
    /// Every checkpoint kept.
    public var all: @Sendable () async throws(StoreFailure) -> [Kept]

    /// A port from its parts.
    public init(
        save: @escaping @Sendable (Kept) async throws(StoreFailure) -> Void,
        remove: @escaping @Sendable (_ standup: Standup.ID, _ room: UUID) async throws(StoreFailure) -> Void,
        all: @escaping @Sendable () async throws(StoreFailure) -> [Kept]
    ) {
        self.save = save
        self.remove = remove
        self.all = all
    }

    /// Nothing is kept: meetings live in memory only.
    public static let none = MeetingCheckpoints(save: { _ in }, remove: { _, _ in }, all: { [] })

    /// Checkpoints in memory (tests, previews), in `kept`.
    public static func mock(_ kept: MockCheckpoints = MockCheckpoints()) -> MeetingCheckpoints {
        MeetingCheckpoints(
            save: { checkpoint in kept.change { $0[checkpoint.standup] = checkpoint } },
            remove: { standup, room in kept.change { if $0[standup]?.room == room { $0[standup] = nil } } },
            all: { kept.kept })
    }
}

/// Checkpoints in memory, for ``MeetingCheckpoints/mock(_:)``; a test
/// awaits what they become.
public final class MockCheckpoints: Sendable {
    private struct Contents {
        var kept: [Standup.ID: MeetingCheckpoints.Kept] = [:]
        var waiters: [(condition: @Sendable ([MeetingCheckpoints.Kept]) -> Bool, CheckedContinuation<Void, Never>)] =
            []
    }

    private let contents = Mutex(Contents())

    /// None kept.
    public init() {}

    /// The checkpoints kept now.
    public var kept: [MeetingCheckpoints.Kept] { contents.withLock { Array($0.kept.values) } }

    func change(_ body: (inout [Standup.ID: MeetingCheckpoints.Kept]) -> Void) {
        let ready = contents.withLock { contents in
            body(&contents.kept)
            let kept = Array(contents.kept.values)
            let ready = contents.waiters.filter { $0.condition(kept) }.map(\.1)
            contents.waiters.removeAll { $0.condition(kept) }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once the checkpoints kept satisfy `condition`.
    public func waitUntil(_ condition: @escaping @Sendable ([MeetingCheckpoints.Kept]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let holds = contents.withLock { contents in
                guard !condition(Array(contents.kept.values)) else { return true }
                contents.waiters.append((condition, continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }
}
