// The live favourites ports over a real SQLite file, and over a store that
// could not be opened.

import ComicsFeature
import FavouritesFeature
import Foundation
import Persistence
import Services
import Testing

@Suite("Favourites through the live ports")
struct FavouritesServiceTests {
    @Test func bothFeaturesSeeTheSameStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-favs-\(UUID().uuidString)")
        let store = Result { () throws(PersistenceError) -> any FavouritesStorage in
            try FavouritesStore(directory: directory)
        }
        let source = ComicsSource(base: try #require(URL(string: "https://example.com")))
        let comics = ComicsEnv.live(source: source, favourites: store)
        let favourites = FavouritesEnv.live(store)

        try await comics.setFavourite(.mock(3), true)
        #expect(try await comics.isFavourite(3))
        #expect(try await favourites.all().map(\.number) == [3])
        try await favourites.remove(3)
        #expect(try await !comics.isFavourite(3))
    }

    @Test func aStoreThatCouldNotBeOpenedIsEachFeaturesOwnError() async throws {
        let failure = PersistenceError.corrupt(path: "/data/favourites.sqlite", reason: "not a database")
        let store = Result<any FavouritesStorage, PersistenceError>.failure(failure)
        let source = ComicsSource(base: try #require(URL(string: "https://example.com")))
        // What anyone may see names no file; the detail, for the machine's
        // user, has the path.
        await #expect(throws: FavouritesUnavailable(failure.summary, detail: failure.description)) {
            try await ComicsEnv.live(source: source, favourites: store).isFavourite(1)
        }
        await #expect(throws: FavouritesError(failure.summary, detail: failure.description)) {
            try await FavouritesEnv.live(store).all()
        }
        #expect(!failure.summary.contains("/data"))
    }
}
