// The favourites' store port, as the adapters (Services) use it: the SQLite
// file (FavouritesStore), a PostgreSQL database several server processes
// share (PostgresPersistence), or memory (InMemoryFavourites, for tests).
// Every adapter keeps the same rules; `Tests/PersistenceTests`'s contract
// suite runs against each.

import Foundation

/// Where favourites are kept.
///
/// The rules every store keeps:
/// - ``all()`` lists the newest first (ties: the highest number first).
/// - A number is kept once: adding a number again replaces its title and
///   date (no error).
/// - Removing a number that is not there does nothing.
/// - ``changes(_:)`` gives the list now, then the list after each change
///   made through the store (and, where the store says so, by others).
/// - A failure is a ``PersistenceError`` saying what to do; a failed change
///   changed nothing.
public protocol FavouritesStorage: Sendable {
    /// All favourites, the newest first.
    func all() async throws(PersistenceError) -> [StoredFavourite]
    /// Whether the comic numbered `number` is a favourite.
    func contains(_ number: Int) async throws(PersistenceError) -> Bool
    /// Adds `favourite`, or replaces the one with the same number.
    func add(_ favourite: StoredFavourite) async throws(PersistenceError)
    /// Removes the favourite numbered `number`, if there is one.
    func remove(_ number: Int) async throws(PersistenceError)
    /// The list now, then after each change, made into `Value` by
    /// `transform`; ends when the consumer stops iterating.
    func changes<Value: Sendable>(_ transform: @escaping @Sendable ([StoredFavourite]) -> Value) -> AsyncStream<Value>
}

extension FavouritesStore: FavouritesStorage {}
