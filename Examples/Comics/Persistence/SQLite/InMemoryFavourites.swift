// Favourites in memory: the store port's rules without a file, for tests
// and previews (`Tests/PersistenceTests` holds it to the same contract as
// the SQLite and PostgreSQL stores).

import Foundation
import Synchronization

/// Favourites kept in memory while the value lives.
public final class InMemoryFavourites: FavouritesStorage {
    private struct Contents {
        var favourites: [StoredFavourite] = []
        var followers: [Int: AsyncStream<[StoredFavourite]>.Continuation] = [:]
        var nextID = 0
    }

    private let contents = Mutex(Contents())

    /// No favourites yet, or `favourites`.
    public init(_ favourites: [StoredFavourite] = []) {
        contents.withLock { $0.favourites = Self.ordered(favourites) }
    }

    /// All favourites, the newest first (ties: the highest number first).
    public func all() -> [StoredFavourite] { contents.withLock { $0.favourites } }

    /// Whether `number` is a favourite.
    public func contains(_ number: Int) -> Bool { contents.withLock { $0.favourites.contains { $0.number == number } } }

    /// Adds `favourite`, replacing the one with its number.
    public func add(_ favourite: StoredFavourite) {
        change { favourites in
            favourites.removeAll { $0.number == favourite.number }
            favourites = Self.ordered(favourites + [favourite])
        }
    }

    /// Removes the favourite numbered `number`, if there is one.
    public func remove(_ number: Int) {
        change { $0.removeAll { $0.number == number } }
    }

    /// The list now, then after each change.
    public func changes<Value: Sendable>(
        _ transform: @escaping @Sendable ([StoredFavourite]) -> Value
    ) -> AsyncStream<Value> {
        let (lists, continuation) = AsyncStream<[StoredFavourite]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = contents.withLock { contents in
            defer { contents.nextID += 1 }
            contents.followers[contents.nextID] = continuation
            continuation.yield(contents.favourites)
            return contents.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.contents.withLock { $0.followers.removeValue(forKey: id) }
        }
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { output in
            let task = Task {
                for await list in lists { output.yield(transform(list)) }
                output.finish()
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    private func change(_ body: (inout [StoredFavourite]) -> Void) {
        contents.withLock { contents in
            let before = contents.favourites
            body(&contents.favourites)
            guard contents.favourites != before else { return }
            for follower in contents.followers.values { follower.yield(contents.favourites) }
        }
    }

    private static func ordered(_ favourites: [StoredFavourite]) -> [StoredFavourite] {
        favourites.sorted { ($0.addedAt, $0.number) > ($1.addedAt, $1.number) }
    }

}
