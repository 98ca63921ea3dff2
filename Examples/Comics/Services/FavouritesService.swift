// The Favourites feature's port, live: the SQLite store.

import FavouritesScene
import Foundation
import Persistence

extension FavouritesEnv {
    /// The live port over `store`, or unavailable with the reason.
    public static func live(_ store: Result<FavouritesStore, PersistenceError>) -> FavouritesEnv {
        FavouritesEnv(
            all: { () throws(FavouritesError) -> [Favourite] in
                try store.using(FavouritesError.init) { store throws(PersistenceError) in
                    try store.all().map { Favourite(number: $0.number, title: $0.title, added: $0.addedAt) }
                }
            },
            remove: { (number: Int) throws(FavouritesError) in
                try store.using(FavouritesError.init) { store throws(PersistenceError) in try store.remove(number) }
            },
            changes: {
                guard case .success(let store) = store else { return AsyncStream { $0.finish() } }
                let changes = store.changes()
                return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                    let task = Task {
                        for await stored in changes {
                            continuation.yield(
                                stored.map { Favourite(number: $0.number, title: $0.title, added: $0.addedAt) })
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            })
    }
}
