// The Favourites feature's port, live: the SQLite store.

import FavouritesScene
import Foundation
import Persistence

extension FavouritesEnv {
    /// The live port over `store`, or unavailable with the reason.
    public static func live(_ store: Result<FavouritesStore, PersistenceError>) -> FavouritesEnv {
        FavouritesEnv(
            all: { () throws(FavouritesError) -> [Favourite] in
                do throws(PersistenceError) {
                    return try store.get().all().map {
                        Favourite(number: $0.number, title: $0.title, added: $0.addedAt)
                    }
                } catch {
                    throw FavouritesError(error.description)
                }
            },
            remove: { (number: Int) throws(FavouritesError) in
                do throws(PersistenceError) {
                    try store.get().remove(number)
                } catch {
                    throw FavouritesError(error.description)
                }
            })
    }
}
