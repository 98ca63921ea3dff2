import Foundation

/// A favourite comic as the favourites file keeps it.
///
/// `addedAt` is stored in UTC to the millisecond: a value read back may
/// differ from the one written by less than a millisecond.
public struct StoredFavourite: Equatable, Sendable {
    /// The comic's number, unique in the store.
    public let number: Int
    /// The comic's title when it was added.
    public let title: String
    /// When the comic was added; ``FavouritesStore/all()`` lists the newest first.
    public let addedAt: Date

    /// Creates a favourite to store.
    ///
    /// - Parameters:
    ///   - number: The comic's number, unique in the store.
    ///   - title: The comic's title.
    ///   - addedAt: When the comic was added.
    public init(number: Int, title: String, addedAt: Date) {
        self.number = number
        self.title = title
        self.addedAt = addedAt
    }

    /// The favourite as every store keeps it: its date to the millisecond.
    public var keptToTheMillisecond: StoredFavourite {
        StoredFavourite(
            number: number, title: title,
            addedAt: Date(
                timeIntervalSinceReferenceDate: (addedAt.timeIntervalSinceReferenceDate * 1000).rounded() / 1000))
    }
}
