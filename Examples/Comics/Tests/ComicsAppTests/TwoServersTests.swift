// Two `comics serve` processes against one PostgreSQL database, as a team
// runs them behind a load balancer: a favourite added in a session of the
// first process is pushed to a page a session of the second one shows.
// Against the server OAK_TEST_POSTGRES names (a database of its own);
// skipped without one, saying what to set; on CI it must run.

import FixtureServer
import Foundation
import PostgresTesting
import Testing
import WebTesting

@Suite(
    "Two servers, one database", .timeLimit(.minutes(2)),
    .postgres)
struct TwoServersTests {
    @Test func aFavouriteAddedThroughOneServerIsPushedToAPageOfTheOther() async throws {
        let comics = try ComicsProgram.url()
        try await PostgresTestServer.withScratchDatabase { location in
            let arguments = ["serve", "--port", "0", "--database", "\(location)"]
            let first = try await ServerProcess.start(comics, arguments: arguments)
            let second = try await ServerProcess.start(comics, arguments: arguments)
            try await withCleanup {
                // A reader on the second server watches its favourites.
                let reader = WebClient(base: second.baseURL)
                let readerToken = try await Self.open(reader)
                let pages = reader.events()
                #expect(try await reader.intent("main.showFavourites", token: readerToken).status == 204)
                _ = try await pages.first(where: { $0.contains("id=\"favourites-empty\"") }, "no favourites yet")

                // A writer on the first server keeps the latest comic.
                let writer = WebClient(base: first.baseURL)
                let writerToken = try await Self.open(writer)
                let comic = writer.events()
                _ = try await comic.first(
                    where: { $0.contains("data-number=\"\(FixtureCatalog.latestNumber)\"") }, "the latest comic")
                #expect(try await writer.intent("comics.toggleFavourite", token: writerToken).status == 204)

                let page = try await pages.first(
                    where: { $0.contains("id=\"favourites-list\"") }, "the favourite, pushed")
                #expect(page.contains("data-number=\"\(FixtureCatalog.latestNumber)\""))
            } cleanup: {
                await first.stop()
                await second.stop()
            }
        }
    }

    /// Opens the app as a browser does; the session's token.
    static func open(_ client: WebClient) async throws -> String {
        let page = try await client.get("/")
        #expect(page.status == 200)
        return try #require(WebClient.token(in: page.body))
    }
}
