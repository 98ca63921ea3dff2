import Foundation

/// A favourite comic as the favourites file keeps it.
///
/// A favourite keeps `addedAt` to the millisecond, as every store does
/// (in UTC): the date given is rounded when the favourite is made, so a
/// favourite read back from a store equals the one written.
public struct StoredFavourite: Equatable, Sendable {
    /// The comic's number, unique in the store.
    public let number: Int
    /// The comic's title when it was added.
    public let title: String
    /// When the comic was added, to the millisecond;
    /// ``FavouritesStore/all()`` lists the newest first.
    public let addedAt: Date

    /// Creates a favourite to store.
    ///
    /// - Parameters:
    ///   - number: The comic's number, unique in the store.
    ///   - title: The comic's title.
    ///   - addedAt: When the comic was added; kept to the nearest
    ///     millisecond.
    public init(number: Int, title: String, addedAt: Date) {
        let milliseconds = (addedAt.timeIntervalSinceReferenceDate * 1000).rounded()
        self.number = number
        self.title = title
        self.addedAt = Date(timeIntervalSinceReferenceDate: milliseconds / 1000)
    }
}
