// The provider's dependencies in memory: for tests, previews and a program
// started without a store.

import Foundation
import IdentifiedCollections
import Models
import Synchronization

extension StandupsProvider.Dependencies {
    /// Dependencies over `store`, in memory; a failed write is tried again
    /// on `clock`.
    public static func mock(
        _ store: MockStandupsStore = MockStandupsStore(), clock: any Clock<Duration> = ContinuousClock()
    ) -> Self {
        Self(
            load: { () throws(StoreFailure) in try store.load() },
            save: { (changes: [StandupChange]) throws(StoreFailure) -> [EditConflict] in try store.save(changes) },
            startOver: { (standups: [Standup]) throws(StoreFailure) in store.startOver(standups) },
            updates: { store.updates() }, clock: clock)
    }
}

/// Stand-ups in memory, with the failures a test asks for, counting the
/// batches written.
public final class MockStandupsStore: Sendable {
    private struct Contents {
        var standups: IdentifiedArrayOf<Standup>
        var batches: [[StandupChange]] = []
        var loadFailure: StoreFailure?
        var saveFailures: [StoreFailure] = []
        var listeners: [UUID: AsyncStream<[Standup]>.Continuation] = [:]
    }

    private let contents: Mutex<Contents>

    /// A store holding `standups`; loading fails with `loadFailure`, and
    /// the first writes fail with `saveFailures`, one each.
    public init(_ standups: [Standup] = [], loadFailure: StoreFailure? = nil, saveFailures: [StoreFailure] = []) {
        contents = Mutex(
            Contents(
                standups: IdentifiedArrayOf(uniqueElements: standups), loadFailure: loadFailure,
                saveFailures: saveFailures))
    }

    /// The stand-ups stored.
    public var standups: [Standup] { contents.withLock { $0.standups.elements } }
    /// The batches written, in order.
    public var batches: [[StandupChange]] { contents.withLock { $0.batches } }

    func load() throws(StoreFailure) -> [Standup] {
        let result: Result<[Standup], StoreFailure> = contents.withLock { contents in
            if let failure = contents.loadFailure { return .failure(failure) }
            return .success(contents.standups.elements)
        }
        return try result.get()
    }

    func save(_ changes: [StandupChange]) throws(StoreFailure) -> [EditConflict] {
        let result: Result<[EditConflict], StoreFailure> = contents.withLock { contents in
            if !contents.saveFailures.isEmpty { return .failure(contents.saveFailures.removeFirst()) }
            var conflicts: [EditConflict] = []
            for change in changes {
                // An edit merged as the real stores merge it.
                if case .edit(let mine, let base) = change {
                    let found = Standup.merge(mine, from: base, into: contents.standups[id: mine.id]).conflicts
                    if !found.isEmpty { conflicts.append(EditConflict(standup: mine.id, conflicts: found)) }
                }
                contents.standups.apply(change)
            }
            contents.batches.append(changes)
            return .success(conflicts)
        }
        return try result.get()
    }

    func startOver(_ standups: [Standup]) {
        contents.withLock { contents in
            contents.standups = IdentifiedArrayOf(uniqueElements: standups)
            contents.loadFailure = nil
        }
    }

    /// From now on, loading fails with `failure` (or works, with `nil`):
    /// a store that goes away and comes back.
    public func loadFails(with failure: StoreFailure?) {
        contents.withLock { $0.loadFailure = failure }
    }

    /// Changes the stored stand-ups as someone else would, telling every
    /// follower.
    public func changeElsewhere(_ change: StandupChange) {
        contents.withLock { contents in
            contents.standups.apply(change)
            for listener in contents.listeners.values { listener.yield(contents.standups.elements) }
        }
    }

    func updates() -> AsyncStream<[Standup]> {
        let (stream, continuation) = AsyncStream<[Standup]>.makeStream()
        let id = UUID()
        contents.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.contents.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
