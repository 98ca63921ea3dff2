// The web front end in a real browser: headless Chromium (Debian's
// `chromium` and `chromium-driver`, installed by .ci/run) driven through
// WebDriver, as a person would use the page. In CI the browser must be
// there; elsewhere the test is skipped without it.

import FixtureServer
import Foundation
import Testing
import WebHost
import WebTesting

@Suite("In a real browser", .serialized, .timeLimit(.minutes(3)), .needsChromium)
struct BrowserTests {
    /// A JavaScript test that the title shows comic `number`.
    static func showing(_ number: Int) -> String {
        "document.querySelector('#comic[data-number=\"\(number)\"] #comic-title') !== null"
            + " && document.getElementById('comic-loading') === null"
    }

    @Test func aReaderBrowsesFavouritesAndSeesAnotherSessionsChangeLive() async throws {
        let web = try await WebFixture.start()
        let browser = try await WebDriver.start()
        try await withCleanup {
            let latest = FixtureCatalog.latestNumber
            try await browser.open(web.host.baseURL + "/")
            try await browser.waitUntil(Self.showing(latest))
            #expect(try await browser.text("#comic-number") == "#\(latest)")
            #expect(!(try await browser.text("#comic-title")).isEmpty)
            // The image, fetched by the server from the catalog, has loaded.
            try await browser.waitUntil("document.getElementById('comic-image') !== null")
            let width = try await browser.run(
                """
                const image = document.getElementById('comic-image');
                if (!image.complete) { await new Promise((done) => { image.onload = done; image.onerror = done; }); }
                return image.naturalWidth;
                """)
            #expect((width as? Int ?? 0) > 0)
            try WebDriver.saveArtifact(try await browser.screenshot(), as: "comics-web.png")

            // Previous, then next: back on the latest comic.
            try await browser.click(WebDriver.intentButton("comics.previous"))
            try await browser.waitUntil(Self.showing(latest - 1))
            try await browser.click(WebDriver.intentButton("comics.next"))
            try await browser.waitUntil(Self.showing(latest))

            // Favourite it, open the favourites.
            try await browser.click(WebDriver.intentButton("comics.toggleFavourite"))
            try await browser.waitUntil("document.getElementById('comic-favourite') !== null")
            try await browser.click(WebDriver.intentButton("main.showFavourites"))
            try await browser.waitUntil(
                "document.querySelector('#favourites-list li[data-number=\"\(latest)\"]') !== null")

            // Another browser session favourites comic #7: the list shows it
            // without a reload.
            let other = web.client()
            let (token, _) = try await other.open()
            let events = other.events()
            #expect(try await other.intent("comics.goTo", number: 7, token: token).status == 204)
            _ = try await events.first(where: { WebClient.shows(7, $0) }, "comic #7")
            #expect(try await other.intent("comics.toggleFavourite", token: token).status == 204)
            try await browser.waitUntil("document.querySelector('#favourites-list li[data-number=\"7\"]') !== null")

            // Open one.
            try await browser.click(WebDriver.intentButton("main.openComic:7"))
            try await browser.waitUntil(Self.showing(7))
            // The tab's title follows the pushed page.
            let title = try await browser.text("#comic-title")
            #expect(try await browser.run("return document.title;") as? String == "Oak Comics · \(title)")
            try await browser.waitUntil("document.getElementById('comic-image') !== null")
            try WebDriver.saveArtifact(try await browser.screenshot(), as: "comics-web-favourite.png")

            // The server stops (a deploy, a restart): the page says so, above
            // what it showed, instead of going quiet.
            await web.host.stop()
            try await browser.waitUntil(
                "(document.getElementById('oak-refusal')?.textContent ?? '').includes('stopping or restarting')")
            #expect(try await browser.run("return document.getElementById('oak-refusal').hidden;") as? Bool == false)
            try WebDriver.saveArtifact(try await browser.screenshot(), as: "comics-web-stopping.png")
        } cleanup: {
            await browser.quit()
            await web.stop()
        }
    }

    /// A script fetches `/` a thousand times without a cookie (before,
    /// that filled every session and browsers got 503 for half an hour):
    /// a browser that comes next is served, keeps its session and browses.
    @Test func aBrowserIsServedAfterAFloodOfFirstVisits() async throws {
        let web = try await WebFixture.start(limits: SessionLimits(maxSessions: 20))
        let port = web.host.port
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in stride(from: worker, to: 1_000, by: 8) {
                        let answer = try await RawHTTP.send(
                            port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(100))")
                    }
                }
            }
            try await group.waitForAll()
        }
        let browser = try await WebDriver.start()
        try await withCleanup {
            let latest = FixtureCatalog.latestNumber
            try await browser.open(web.host.baseURL + "/")
            try await browser.waitUntil(Self.showing(latest))
            try await browser.click(WebDriver.intentButton("comics.previous"))
            try await browser.waitUntil(Self.showing(latest - 1))
            // Its session outlives more first visits.
            for _ in 0..<100 {
                _ = try await RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            try await browser.click(WebDriver.intentButton("comics.next"))
            try await browser.waitUntil(Self.showing(latest))
        } cleanup: {
            await browser.quit()
            await web.stop()
        }
    }
}
