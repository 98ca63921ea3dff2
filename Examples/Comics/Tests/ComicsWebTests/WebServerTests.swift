// The web front end over real HTTP on loopback: pages, intents, the
// anti-forgery token, the session cap and expiry, escaping, images.

import Clocks
import ComicsWeb
import FixtureServer
import Foundation
import Testing
import WebTesting

@testable import WebHost

@Suite("Web server", .serialized, .timeLimit(.minutes(2)))
struct WebServerTests {
    @Test func theFirstVisitMakesASessionWithASafeCookieAndPolicy() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let response = try await client.get("/")
        #expect(response.status == 200)
        let cookie = try #require(response.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        let id = try #require(client.cookie?.split(separator: "=").last)
        #expect(id.count == 64 && id.allSatisfy(\.isHexDigit))
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
        #expect(response.body.contains("<main id=\"app\">"))
        #expect(response.body.contains("src=\"/app.js\""))
        // The same browser keeps its session.
        let again = try await client.get("/")
        #expect(again.header("Set-Cookie") == nil)
        #expect(await web.host.sessionCount == 1)
        await web.stop()
    }

    /// As `curl http://127.0.0.1:PORT/` sees it: the first response shows
    /// the latest comic, its number and its image, without a second request.
    @Test func theFirstResponseShowsTheLatestComicAndItsImage() async throws {
        let web = try await WebFixture.start()
        let first = try await web.client().get("/")
        #expect(first.status == 200)
        #expect(first.body.contains("#\(FixtureCatalog.latestNumber)"), "\(first.body)")
        #expect(first.body.contains("<img id=\"comic-image\" src=\"/image/\(FixtureCatalog.latestNumber)\""))
        #expect(!first.body.contains("Loading…") && !first.body.contains("Starting…"))
        await web.stop()
    }

    @Test func onlyFormsArePostedAsIntents() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        let cookie = try #require(client.cookie)
        let answer = try await RawHTTP.send(
            port: web.host.port,
            "POST /intent HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: text/plain\r\n"
                + "Connection: close\r\nContent-Length: \(token.count + 6)\r\n\r\ntoken=\(token)")
        #expect(answer.hasPrefix("HTTP/1.1 415"), "\(answer)")
        await web.stop()
    }

    /// A damaged favourites file: the page says so, but shows no path of
    /// the server's (the server's log has it).
    @Test func aDamagedDatabaseIsReportedWithoutTheServersPaths() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("this is not a database".utf8).write(to: directory.appendingPathComponent("favourites.sqlite"))
        let web = try await WebFixture.start(directory: directory)
        let client = web.client()
        let (token, _) = try await client.open()
        let events = client.events()
        #expect(try await client.intent("main.showFavourites", token: token).status == 204)
        let page = try await events.first(where: { $0.contains("id=\"favourites-error\"") }, "the error")
        #expect(page.contains("damaged"), "\(page)")
        #expect(!page.contains(directory.path), "the page shows the server's path: \(page)")
        #expect(!page.contains("favourites.sqlite"))
        await web.stop()
    }

    @Test func theLatestComicIsPushedAndAnIntentMovesOn() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, page) = try await client.open()
        #expect(page.contains("#\(FixtureCatalog.latestNumber)"))
        let events = client.events()
        let response = try await client.intent("comics.previous", token: token)
        #expect(response.status == 204)
        let previous = try await events.first(
            where: { WebClient.shows(FixtureCatalog.latestNumber - 1, $0) }, "the previous comic")
        #expect(previous.contains("id=\"comic-title\""))
        await web.stop()
    }

    @Test func aPlainFormPostIsAnsweredWithARedirect() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        let response = try await client.intent("comics.random", token: token, fetch: false)
        #expect(response.status == 303)
        #expect(response.header("Location") == "/")
        await web.stop()
    }

    @Test func anIntentWithoutTheTokenIsRefused() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        #expect(try await client.intent("comics.previous", token: "forged").status == 403)
        #expect(try await client.post("/intent", fields: [("intent", "comics.previous")]).status == 403)
        // Another browser's token does not work here either.
        let other = web.client()
        let (otherToken, _) = try await other.open()
        #expect(otherToken != token)
        #expect(try await client.intent("comics.previous", token: otherToken).status == 403)
        // Without a session at all.
        let stranger = web.client()
        #expect(try await stranger.intent("comics.previous", token: token).status == 403)
        await web.stop()
    }

    @Test func anIntentNotOfferedNowIsAConflict() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        // The latest comic has no next one.
        #expect(try await client.intent("comics.next", token: token).status == 409)
        #expect(try await client.intent("no.such.intent", token: token).status == 409)
        await web.stop()
    }

    @Test func hostileTitlesAreEscaped() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        let events = client.events()
        for number in [FixtureCatalog.Special.scriptTitle, FixtureCatalog.Special.quoteTitle] {
            #expect(try await client.intent("comics.goTo", number: number, token: token).status == 204)
            let page = try await events.first(where: { WebClient.shows(number, $0) }, "comic #\(number)")
            #expect(!page.contains("<script"))
            #expect(!page.contains("onerror=\""))
            #expect(!page.lowercased().contains("<img src=x"))
        }
        await web.stop()
    }

    @Test func theComicsImageIsServedWhileItIsShown() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        _ = try await client.open()
        let events = client.events()
        _ = try await events.first(where: { $0.contains("id=\"comic-image\"") }, "the image")
        let image = try await client.get("/image/\(FixtureCatalog.latestNumber)")
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/png")
        #expect(image.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try await client.get("/image/1").status == 404)
        #expect(try await web.client().get("/image/\(FixtureCatalog.latestNumber)").status == 404)
        await web.stop()
    }

    @Test func beyondTheCapANewBrowserGetsAClearPage() async throws {
        let web = try await WebFixture.start(limits: SessionLimits(maxSessions: 2))
        for _ in 0..<2 {
            let client = web.client()
            #expect(try await client.get("/").status == 200)
            // Its cookie came back (the page's script): the session counts.
            #expect(try await client.get("/app.js").status == 200)
        }
        let third = try await web.client().get("/")
        #expect(third.status == 503)
        #expect(third.body.contains("Try again"))
        #expect(third.header("Retry-After") != nil)
        await web.stop()
    }

    @Test func anIdleSessionExpiresAndItsRunEnds() async throws {
        let clock = TestClock()
        let web = try await WebFixture.start(
            limits: SessionLimits(maxSessions: 10, idleTimeout: .seconds(60)), clock: clock)
        let client = web.client()
        let (token, _) = try await client.open()
        await clock.advance(by: .seconds(30))
        #expect(await web.host.sweep().expired == 0)
        #expect(try await client.intent("comics.previous", token: token).status == 204)  // used: 30 s
        await clock.advance(by: .seconds(61))
        _ = await web.host.sweep().expired
        #expect(await web.host.sessionCount == 0)
        #expect(try await client.intent("comics.previous", token: token).status == 403)
        // A new visit makes a new session.
        #expect(try await client.get("/").status == 200)
        #expect(await web.host.sessionCount == 1)
        await web.stop()
    }

    @Test func anExpiredSessionIsFreedWithItsRun() async throws {
        let clock = TestClock()
        let web = try await WebFixture.start(
            limits: SessionLimits(maxSessions: 10, idleTimeout: .seconds(60)), clock: clock)
        weak var freed: WebSession<ComicsWeb>?
        do {
            let client = web.client()
            let (token, _) = try await client.open()
            let id = try #require(client.cookie?.split(separator: "=").last.map(String.init))
            freed = await web.host.store.session(id: id)
            #expect(freed != nil)
            _ = try await client.intent("comics.previous", token: token)
        }
        await clock.advance(by: .seconds(61))
        _ = await web.host.sweep().expired
        #expect(await web.host.sessionCount == 0)
        #expect(freed == nil)
        await web.stop()
    }

    @Test func largeBodiesAndWrongMethodsAreRefused() async throws {
        let web = try await WebFixture.start()
        let client = web.client()
        let (token, _) = try await client.open()
        let large = String(repeating: "x", count: 40_000)
        #expect(try await client.post("/intent", fields: [("token", token), ("intent", large)]).status == 413)
        #expect(try await client.get("/intent").status == 405)
        #expect(try await client.get("/nowhere").status == 404)
        #expect(try await client.get("/app.js").header("Content-Type")?.hasPrefix("text/javascript") == true)
        await web.stop()
    }
}
