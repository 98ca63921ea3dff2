// The Favourites feature's port, live: the favourites' store (the SQLite
// file, or a PostgreSQL database several server processes share).

import FavouritesFeature
import Foundation
import Persistence

extension FavouritesEnv {
    /// The live port over `store`, or unavailable with the reason.
    public static func live(_ store: Result<any FavouritesStorage, PersistenceError>) -> FavouritesEnv {
        FavouritesEnv(
            all: { () throws(FavouritesError) -> [Favourite] in
                try await store.using({ FavouritesError($0, detail: $1) }) { store throws(PersistenceError) in
                    try await store.all().map(Favourite.init)
                }
            },
            remove: { (number: Int) throws(FavouritesError) in
                try await store.using({ FavouritesError($0, detail: $1) }) { store throws(PersistenceError) in
                    try await store.remove(number)
                }
            },
            changes: {
                guard case .success(let store) = store else { return AsyncStream { $0.finish() } }
                return store.changes { $0.map(Favourite.init) }
            })
    }
}

extension Favourite {
    /// The favourite a stored row describes.
    init(_ stored: StoredFavourite) {
        self.init(number: stored.number, title: stored.title, added: stored.addedAt)
    }
}
