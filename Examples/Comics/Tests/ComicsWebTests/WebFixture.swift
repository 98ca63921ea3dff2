// The Comics web front end for the tests: the offline catalog, a favourites
// store in a fresh directory, and the web host serving `ComicsWeb` over
// them; and what a test browser needs to know of the Comics pages.

import ComicsFeature
import ComicsMain
import ComicsWeb
import FavouritesFeature
import FixtureServer
import Foundation
import Logging
import Persistence
import Services
import WebHost
import WebTesting

/// The offline catalog, a store in a fresh directory, and the web host
/// over them.
struct WebFixture {
    let catalog: FixtureServer
    let host: WebHost<ComicsWeb>
    let directory: URL

    static func start(
        limits: SessionLimits = SessionLimits(), clock: any Clock<Duration> = ContinuousClock(),
        directory: URL? = nil
    ) async throws -> WebFixture {
        let catalog = try await FixtureServer.start()
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("oak-web-\(UUID().uuidString)")
        let store = Result { () throws(PersistenceError) -> any FavouritesStorage in
            try FavouritesStore(directory: directory)
        }
        let base = URL(string: catalog.baseURL) ?? URL(fileURLWithPath: "/")
        let env = Main.Env(
            comics: .live(source: ComicsSource(base: base), favourites: store, loadsImages: true),
            favourites: .live(store))
        var logger = Logger(label: "comics.web.test")
        logger.logLevel = .critical  // stopping a server with open streams logs an error
        let host = try await WebHost.start(
            app: ComicsWeb(env: env), limits: limits, clock: clock, sweeps: false, logger: logger)
        return WebFixture(catalog: catalog, host: host, directory: directory)
    }

    func stop() async {
        await host.stop()
        await catalog.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client of this server.
    func client() -> WebClient { WebClient(base: host.baseURL) }
}

extension WebClient {
    /// Opens the app as a browser does: the first page (which makes the
    /// session, and shows the latest comic once loaded). Returns its token
    /// and the page.
    func open() async throws -> (token: String, page: String) {
        let first = try await get("/")
        guard first.status == 200 else { throw WebTestError.status(first.status, "GET /") }
        guard Self.shows(FixtureCatalog.latestNumber, first.body), let token = Self.token(in: first.body) else {
            throw WebTestError.noSuchPage("the latest comic in the first page", last: first.body)
        }
        return (token, first.body)
    }

    /// Whether `page` shows comic `number`, loaded (not "Loading…": while a
    /// comic loads, the intents that start another load are not offered).
    static func shows(_ number: Int, _ page: String) -> Bool {
        page.contains("data-number=\"\(number)\"") && !page.contains("id=\"comic-loading\"")
    }
}
