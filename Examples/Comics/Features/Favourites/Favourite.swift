// The Favourites feature's domain type and port.

import Common
import Foundation
import Oak
import Synchronization

/// A comic the user keeps.
public struct Favourite: Equatable, Hashable, Sendable, Identifiable, Codable {
    /// The comic's number.
    public var number: Int
    /// Its title, as it was when it was kept.
    public var title: String
    /// When it was kept.
    public var added: Date

    /// The comic's number.
    public var id: Int { number }

    /// A favourite.
    public init(number: Int, title: String, added: Date) {
        self.number = number
        self.title = title
        self.added = added
    }
}

/// What the Favourites feature needs from the world.
public struct FavouritesEnv: Sendable {
    /// Every favourite, newest first.
    public let all: @Sendable () async throws(FavouritesError) -> [Favourite]
    /// Forgets favourite `number`.
    public var remove: @Sendable (_ number: Int) async throws(FavouritesError) -> Void

    /// The favourites after every change, from now on (whoever made it:
    /// another browser session of the same server, say); the first element
    /// may be the list now. An empty stream where nothing else changes them.
    public let changes: @Sendable () -> AsyncStream<[Favourite]>
    /// The list every session that has this port shows: one run, reading
    /// with `all` and following `changes` as they were given to
    /// ``init(all:remove:changes:)``, started by the first session that
    /// attaches (not read before), ended by `close()` when the app stops.
    public let list: LazySharedRun<FavouritesList>

    /// An environment from its parts.
    public init(
        all: @escaping @Sendable () async throws(FavouritesError) -> [Favourite],
        remove: @escaping @Sendable (_ number: Int) async throws(FavouritesError) -> Void,
        changes: @escaping @Sendable () -> AsyncStream<[Favourite]> = { AsyncStream { $0.finish() } }
    ) {
        self.all = all
        self.remove = remove
        self.changes = changes
        self.list = LazySharedRun(
            SharedRun(initialState: FavouritesList.State(), proxy: FavouritesList.Proxy(bufferSize: 64)),
            env: FavouritesList.Env(all: all, changes: changes), first: .load)
    }
}

/// Why the favourites could not be read or changed.
public struct FavouritesError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What happened and what to do, for anyone who sees it (a browser's
    /// user too): it names no file of the machine.
    public var description: String
    /// Where and why, for the user of the machine the favourites live on
    /// (a terminal) and for logs: it may name files.
    public var detail: String?

    /// An error with its message and, for the machine's user, its detail.
    public init(_ description: String, detail: String? = nil) {
        self.description = description
        self.detail = detail
    }
}

extension FavouritesEnv {
    /// Three favourites in memory (#3, #2, #1, newest first); removing works.
    public static var mock: FavouritesEnv {
        let store = MockStore()
        return FavouritesEnv(all: { store.all() }, remove: { store.remove($0) })
    }

    /// Favourites that cannot be read: `reason` is the error.
    public static func unavailable(_ reason: String) -> FavouritesEnv {
        FavouritesEnv(
            all: { () throws(FavouritesError) -> [Favourite] in throw FavouritesError(reason) },
            remove: { (_: Int) throws(FavouritesError) in throw FavouritesError(reason) })
    }
}

/// Favourites in memory, for ``FavouritesEnv/mock``.
final class MockStore: Sendable {
    private let favourites = Mutex<[Favourite]>(
        (1...3).reversed().map {
            Favourite(number: $0, title: "Comic \($0)", added: Date(timeIntervalSince1970: Double($0) * 86_400))
        })

    func all() -> [Favourite] { favourites.withLock { $0 } }

    func remove(_ number: Int) {
        favourites.withLock { $0.removeAll { $0.number == number } }
    }
}
