// The Comics feature's port: everything its effects need from the world,
// as closures over domain types. `Services` builds the live one; tests and
// previews use `mock`.

import Foundation
import Synchronization

/// What the Comics feature needs from the world.
public struct ComicsEnv: Sendable {
    /// The latest comic.
    public var latest: @Sendable () async throws(ComicsError) -> Comic
    /// Comic number `n`.
    public var comic: @Sendable (_ number: Int) async throws(ComicsError) -> Comic
    /// A number in the range, for "random".
    public var randomNumber: @Sendable (_ range: ClosedRange<Int>) -> Int
    /// Whether comic `n` is a favourite.
    public var isFavourite: @Sendable (_ number: Int) async throws(FavouritesUnavailable) -> Bool
    /// Makes `comic` a favourite, or not.
    public var setFavourite: @Sendable (_ comic: Comic, _ isFavourite: Bool) async throws(FavouritesUnavailable) -> Void
    /// The image at the address, when the front end shows images (a PNG),
    /// or `nil`: not wanted, not allowed, or not loaded. Never an error.
    public var image: @Sendable (_ url: URL) async -> Data?

    /// An environment from its parts.
    public init(
        latest: @escaping @Sendable () async throws(ComicsError) -> Comic,
        comic: @escaping @Sendable (_ number: Int) async throws(ComicsError) -> Comic,
        randomNumber: @escaping @Sendable (_ range: ClosedRange<Int>) -> Int,
        isFavourite: @escaping @Sendable (_ number: Int) async throws(FavouritesUnavailable) -> Bool,
        setFavourite:
            @escaping @Sendable (_ comic: Comic, _ isFavourite: Bool) async throws(FavouritesUnavailable) ->
            Void,
        image: @escaping @Sendable (_ url: URL) async -> Data? = { _ in nil }
    ) {
        self.latest = latest
        self.comic = comic
        self.randomNumber = randomNumber
        self.isFavourite = isFavourite
        self.setFavourite = setFavourite
        self.image = image
    }
}

extension ComicsEnv {
    /// Ten comics, #1…#10, without #4; "random" picks the middle of the
    /// range; favourites kept in memory.
    public static var mock: ComicsEnv {
        let favourites = MockFavourites()
        return ComicsEnv(
            latest: { Comic.mock(10) },
            comic: { (number: Int) throws(ComicsError) -> Comic in
                guard (1...10).contains(number), number != 4 else { throw .notFound(number) }
                return Comic.mock(number)
            },
            randomNumber: { range in (range.lowerBound + range.upperBound) / 2 },
            isFavourite: { number in favourites.contains(number) },
            setFavourite: { comic, isFavourite in favourites.set(comic.number, isFavourite) })
    }
}

extension Comic {
    /// A comic made up for tests and previews: "Comic n".
    public static func mock(_ number: Int) -> Comic {
        Comic(
            number: number, title: "Comic \(number)", alt: "Alt \(number)",
            date: "2026-01-\(String(format: "%02d", min(number, 28)))")
    }
}

/// Favourites in memory, for ``ComicsEnv/mock``.
final class MockFavourites: Sendable {
    private let numbers = Mutex<Set<Int>>([])

    func contains(_ number: Int) -> Bool { numbers.withLock { $0.contains(number) } }

    func set(_ number: Int, _ isFavourite: Bool) {
        numbers.withLock { numbers in
            if isFavourite { numbers.insert(number) } else { numbers.remove(number) }
        }
    }
}
