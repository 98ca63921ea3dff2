// The Comics feature's port, live: the xkcd JSON API over HTTP, mapped to
// the feature's domain types; favourites in the favourites' store.

import API
import ComicsFeature
import Foundation
import HTTPClient
import Persistence

/// Where comics come from.
public struct ComicsSource: Sendable {
    /// The server's root, `https://xkcd.com` or the fixture server's
    /// address.
    public var base: URL
    /// The client that fetches.
    public var client: HTTPClient

    /// A source.
    public init(base: URL, client: HTTPClient = HTTPClient()) {
        self.base = base
        self.client = client
    }

    /// Fetches and decodes one endpoint.
    func fetch(_ endpoint: Endpoint) async throws(ComicsError) -> Comic {
        guard let url = URL(string: base.absoluteString + endpoint.path) else {
            throw .badResponse("bad address \(base.absoluteString)\(endpoint.path)")
        }
        let data: Data
        do {
            data = try await client.get(url)
        } catch {
            switch error {
            case .status(404):
                if case .comic(let number) = endpoint { throw .notFound(number) }
                throw .server(status: 404)
            case .status(let status): throw .server(status: status)
            case .timedOut: throw .timedOut
            case .tooLarge(let limit): throw .badResponse("the answer is larger than \(limit) bytes")
            case .unreachable(let reason), .refused(let reason): throw .unreachable(reason)
            }
        }
        let dto: ComicDTO
        do {
            dto = try JSONDecoder().decode(ComicDTO.self, from: data)
        } catch {
            throw .badResponse(Self.describe(error))
        }
        return Self.comic(from: dto, base: base)
    }

    /// The domain comic of a DTO. Image addresses are kept only when they
    /// point at https, or at the configured server itself.
    public static func comic(from dto: ComicDTO, base: URL) -> Comic {
        let image = URL(string: dto.img).flatMap { url in isAllowed(url, base: base) ? url : nil }
        let link = base.appendingPathComponent("\(dto.num)/")
        let date = [dto.year, pad(dto.month), pad(dto.day)].map { String($0.filter(\.isASCII).filter(\.isNumber)) }
            .joined(separator: "-")
        return Comic(number: dto.num, title: dto.title, alt: dto.alt, date: date, imageURL: image, link: link)
    }

    static func isAllowed(_ url: URL, base: URL) -> Bool {
        guard let host = url.host, host == base.host, url.port == base.port else { return false }
        return url.scheme == "https" || url.scheme == base.scheme
    }

    static func pad(_ text: String) -> String { text.count == 1 ? "0" + text : text }

    /// A decoding error that names the failing field.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "the field \"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "the field \"\(path(context))\" has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "the field \"\(path(context))\" is invalid"
        @unknown default: return "\(error)"
        }
    }
}

extension ComicsEnv {
    /// The live port: comics from `source`, favourites in `store` (or
    /// unavailable, with the reason, when the store could not be opened),
    /// images (PNG only, from the addresses `source` allows) when
    /// `loadsImages`; comics and images kept in `cache` when there is one
    /// (give one port, and so one cache, to every session of a server).
    public static func live(
        source: ComicsSource, favourites store: Result<any FavouritesStorage, PersistenceError>,
        loadsImages: Bool = false,
        cache: ComicsCache? = nil
    ) -> ComicsEnv {
        @Sendable func fetch(_ endpoint: Endpoint) async throws(ComicsError) -> Comic {
            guard let cache else { return try await source.fetch(endpoint) }
            return try await cache.comics.value(for: endpoint) { () async throws(ComicsError) in
                try await source.fetch(endpoint)
            }
        }
        @Sendable func fetchImage(_ url: URL) async -> Data? {
            guard loadsImages, ComicsSource.isAllowed(url, base: source.base) else { return nil }
            @Sendable func load() async throws(ImageUnavailable) -> Data {
                guard let data = try? await source.client.get(url), data.starts(with: [0x89, 0x50, 0x4E, 0x47])
                else { throw ImageUnavailable() }
                return data
            }
            guard let cache else { return try? await load() }
            return try? await cache.images.value(for: url, fetch: load)
        }
        return ComicsEnv(
            latest: { () async throws(ComicsError) -> Comic in try await fetch(.latest) },
            comic: { (number: Int) async throws(ComicsError) -> Comic in try await fetch(.comic(number)) },
            randomNumber: { Int.random(in: $0) },
            isFavourite: { (number: Int) throws(FavouritesUnavailable) -> Bool in
                try await store.using({ FavouritesUnavailable($0, detail: $1) }) { store throws(PersistenceError) in
                    try await store.contains(number)
                }
            },
            setFavourite: { (comic: Comic, isFavourite: Bool) throws(FavouritesUnavailable) in
                try await store.using({ FavouritesUnavailable($0, detail: $1) }) { store throws(PersistenceError) in
                    if isFavourite {
                        try await store.add(StoredFavourite(number: comic.number, title: comic.title, addedAt: Date()))
                    } else {
                        try await store.remove(comic.number)
                    }
                }
            },
            image: { url in await fetchImage(url) })
    }
}
