// The stand-ups provider's live dependencies: the SQLite store (seed 004's
// `ScrumProvider.live()`). Here, on the adapter side, so that no feature
// and no provider imports the store; the injector calls it.

import Foundation
import Models
import StandupsProvider
import StandupsStore
import Synchronization

extension StandupsProvider.Dependencies {
    /// Dependencies over the SQLite store in `directory`. The store's
    /// blocking calls run off the caller's thread.
    public static func live(_ store: StandupsStore) -> Self {
        // The list the last load returned: the feed's first list is dropped
        // when it is the same (see `changes(in:after:)`).
        let loaded = Mutex<[Standup]?>(nil)
        return Self(
            load: { () async throws(StoreFailure) -> [Standup] in
                let standups = try await Self.blocking { () throws(StandupsStoreError) in try store.load() }
                loaded.withLock { $0 = standups }
                return standups
            },
            save: { (changes: [StandupChange]) async throws(StoreFailure) -> [EditConflict] in
                try await Self.blocking { () throws(StandupsStoreError) in try store.save(changes) }
            },
            startOver: { (standups: [Standup]) async throws(StoreFailure) in
                try await Self.blocking { () throws(StandupsStoreError) in _ = try store.startOver(with: standups) }
            },
            updates: { Self.changes(in: store.updates(), after: { loaded.withLock { $0 } }) })
    }

    /// The lists after each change, from the store's feed, which starts
    /// with the list as it is when following starts. That first list is
    /// dropped when it is the one the last load returned (`loaded`): the
    /// provider has it, and the same copy read before this process's first
    /// write but delivered after it would undo the write for a moment (a
    /// stand-up just added and opened vanished, and its screen closed). A
    /// first list that differs — a change committed between the load and
    /// the start of the feed — is told (decision 0050).
    static func changes(
        in feed: AsyncStream<[Standup]>, after loaded: @escaping @Sendable () -> [Standup]?
    ) -> AsyncStream<[Standup]> {
        let (changes, continuation) = AsyncStream<[Standup]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            var isFirst = true
            for await standups in feed {
                if isFirst {
                    isFirst = false
                    if standups == loaded() { continue }
                }
                continuation.yield(standups)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return changes
    }

    /// Runs `work` on a thread of Dispatch's global pool (SQLite blocks
    /// while it waits for the disk or another writer's lock), mapping the
    /// store's error to the provider's.
    static func blocking<T: Sendable>(
        _ work: @escaping @Sendable () throws(StandupsStoreError) -> T
    ) async throws(StoreFailure) -> T {
        let result: Result<T, StandupsStoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(StandupsStoreError) in try work() })
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw StoreFailure(error)
        }
    }
}

extension MeetingCheckpoints {
    /// The meetings' checkpoints in the SQLite store.
    public static func live(_ store: StandupsStore) -> Self {
        typealias Blocking = StandupsProvider.Dependencies
        return Self(
            save: { (kept: Kept) async throws(StoreFailure) in
                try await Blocking.blocking { () throws(StandupsStoreError) in
                    try store.saveCheckpoint(kept.checkpoint, standup: kept.standup, room: kept.room)
                }
            },
            remove: { (standup: Standup.ID, room: UUID) async throws(StoreFailure) in
                try await Blocking.blocking { () throws(StandupsStoreError) in
                    try store.removeCheckpoint(standup: standup, room: room)
                }
            },
            all: { () async throws(StoreFailure) -> [Kept] in
                try await Blocking.blocking { () throws(StandupsStoreError) in
                    try store.checkpoints().map { Kept(standup: $0.standup, room: $0.room, checkpoint: $0.checkpoint) }
                }
            })
    }
}

extension StoreFailure {
    /// The provider's view of a store error.
    public init(_ error: StandupsStoreError) {
        let isDamaged = if case .damaged = error { true } else { false }
        self.init(summary: error.summary, detail: error.description, isDamaged: isDamaged)
    }
}
