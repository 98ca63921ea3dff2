// The Comics feature's domain types: what the transducer and its views know
// of a comic, and what can go wrong fetching one.

import Foundation

/// One comic, as the Comics feature shows it.
public struct Comic: Equatable, Hashable, Sendable, Codable {
    /// Its number, from 1.
    public var number: Int
    /// The title, as the server sent it (renderers make it plain text).
    public var title: String
    /// The alt text.
    public var alt: String
    /// The day it was published, `yyyy-mm-dd`.
    public var date: String
    /// Where its image is.
    public var imageURL: URL?
    /// Where a person reads it on the web.
    public var link: URL?

    /// A comic.
    public init(number: Int, title: String, alt: String, date: String, imageURL: URL? = nil, link: URL? = nil) {
        self.number = number
        self.title = title
        self.alt = alt
        self.date = date
        self.imageURL = imageURL
        self.link = link
    }

    /// The numbers comics can have: from 1 (the latest bounds them above).
    public static let numbers = 1...
}

/// Why a comic could not be loaded.
public enum ComicsError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// There is no comic with this number (xkcd has no #404).
    case notFound(Int)
    /// The server could not be reached, or the connection broke.
    case unreachable(String)
    /// The server answered with an error status.
    case server(status: Int)
    /// The server did not answer in time.
    case timedOut
    /// The answer could not be understood.
    case badResponse(String)

    /// Whether trying again may help.
    public var isRetryable: Bool {
        switch self {
        case .notFound: false
        case .unreachable, .timedOut: true
        case .server(let status): status >= 500
        case .badResponse: true
        }
    }

    /// For example "The server answered with status 503."
    public var description: String {
        switch self {
        case .notFound(let number): "There is no comic #\(number)."
        case .unreachable(let reason): "The server could not be reached (\(reason))."
        case .server(let status): "The server answered with status \(status)."
        case .timedOut: "The server did not answer in time."
        case .badResponse(let reason): "The server's answer could not be read (\(reason))."
        }
    }
}

/// Why the favourites could not be read or changed.
public struct FavouritesUnavailable: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
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
