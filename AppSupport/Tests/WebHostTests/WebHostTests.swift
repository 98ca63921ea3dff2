// The generic web host over real HTTP on loopback, serving the Tally app:
// sessions and their cookie, the first page that waits for the app to
// settle, intents and the pages pushed after them, the token, the limits on
// bodies and sessions, expiry and the open page that keeps a session alive
// (on a test clock), escaping, and the security headers of every response.

import Clocks
import Foundation
import Logging
import Oak
import ServerSupport
import Synchronization
import Testing
import WebTesting
import WebUI

@testable import WebHost

/// A one-shot gate: `wait()` returns once `open()` has been called.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// A host of the Tally app whose first count is 41, loaded once `loaded`
/// opens (at once by default).
struct TallyHost {
    let host: WebHost<TallyWeb>
    let loaded: Gate
    let taps: TapLog

    static func start(
        opened: Bool = true, limits: SessionLimits = SessionLimits(), allowedHosts: AllowedHosts = AllowedHosts(),
        secureCookies: Bool = false, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> TallyHost {
        let loaded = Gate()
        if opened { loaded.open() }
        var logger = Logger(label: "oak.test.web")
        logger.logLevel = .critical  // stopping a server with open streams logs an error
        let app = TallyWeb(
            environment: Tally.Env(load: {
                await loaded.wait()
                return 41
            }))
        let host = try await WebHost.start(
            app: app, limits: limits, allowedHosts: allowedHosts, secureCookies: secureCookies, clock: clock,
            sweeps: false, logger: logger)
        return TallyHost(host: host, loaded: loaded, taps: app.taps)
    }

    func client() -> WebClient { WebClient(base: host.baseURL) }

    /// The session of `client`'s cookie.
    func session(of client: WebClient) async throws -> WebSession<TallyWeb> {
        let id = try #require(client.cookie?.split(separator: "=").last.map(String.init))
        return try #require(await host.store.session(id: id))
    }
}

@Suite("Web host", .serialized, .timeLimit(.minutes(1)))
struct WebHostTests {
    @Test func aServerBehindHTTPSMarksTheSessionCookieSecure() async throws {
        let tally = try await TallyHost.start(secureCookies: true)
        let client = tally.client()
        let page = try await client.get("/")
        let cookie = try #require(page.header("Set-Cookie"))
        // `__Host-`: a browser takes it only from this host, over HTTPS,
        // for `/` and without a `Domain`: no sibling site can toss one.
        #expect(cookie.hasPrefix("__Host-oak_session=") && cookie.hasSuffix("; Secure"), "\(cookie)")
        #expect(cookie.contains("Path=/") && !cookie.contains("Domain"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        // The session is found by that cookie, and only by it.
        #expect(try await client.get("/").header("Set-Cookie") == nil)
        let id = try #require(client.cookie?.split(separator: "=", maxSplits: 1).last)
        let other = tally.client()
        other.cookie = "oak_session=\(id)"
        #expect(try await other.get("/").header("Set-Cookie")?.hasPrefix("__Host-oak_session=") == true)
        await tally.host.stop()
    }

    @Test func theFirstPageShowsTheSettledStateWithTheCookieAndHeaders() async throws {
        let tally = try await TallyHost.start(opened: false)
        let client = tally.client()
        let first = Task { try await client.get("/") }
        // The page waits until the app has loaded its count.
        tally.loaded.open()
        let page = try await first.value
        #expect(page.status == 200)
        #expect(page.body.contains("data-count=\"41\""), "\(page.body)")
        #expect(!page.body.contains("Loading…"))
        #expect(page.body.contains("<title>Tally · 41</title>"))
        let cookie = try #require(page.header("Set-Cookie"))
        #expect(cookie.hasPrefix("oak_session="))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(!cookie.contains("Secure"), "a server reached over plain HTTP")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        // The page's token is 64 hexadecimal digits.
        let token = try #require(WebClient.token(in: page.body))
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        await tally.host.stop()
    }

    @Test func aPageOpenedAtAnAddressTheAppOpensStartsThereAndOthersAreNotFound() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let page = try await client.get("/at/7")
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie")?.hasPrefix("oak_session=") == true)
        #expect(page.body.contains("opened at /at/7"), "\(page.body)")
        // With its session, the same address shows the session's page.
        #expect(try await client.get("/at/9").body.contains("opened at /at/7"))
        // An address the app does not open is not a page.
        let other = tally.client()
        #expect(try await other.get("/at/seven").status == 404)
        #expect(try await other.get("/at/7/more").status == 404)
        #expect(other.cookie == nil)
        await tally.host.stop()
    }

    @Test func theFirstPageShowsTheLoadingStateWhenTheAppTakesLonger() async throws {
        // The wait is on the host's clock: an immediate clock lets it pass.
        let tally = try await TallyHost.start(opened: false, clock: ImmediateClock())
        let page = try await tally.client().get("/")
        #expect(page.status == 200)
        #expect(page.body.contains("Loading…"), "\(page.body)")
        tally.loaded.open()
        await tally.host.stop()
    }

    @Test func anIntentIsPerformedAndTheNewPageIsPushed() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let page = try await client.get("/")
        let token = try #require(WebClient.token(in: page.body))
        let events = client.events()
        var iterator = events.makeAsyncIterator()
        let shown = try #require(try await iterator.next())
        #expect(shown.contains("data-count=\"41\""))
        let answer = try await client.intent("increment", token: token)
        #expect(answer.status == 204)
        let pushed = try #require(try await iterator.next())
        #expect(pushed.contains("data-count=\"42\""), "\(pushed)")
        // The page's title and address travel with it, for the script to
        // set.
        #expect(
            pushed.hasPrefix("<template data-page-title=\"Tally · 42\" data-page-path=\"/at/42\"></template>"),
            "\(pushed)")
        // A plain form (no script) is redirected to the page.
        let plain = try await client.intent("increment", token: token, fetch: false)
        #expect(plain.status == 303)
        #expect(plain.header("Location") == "/")
        // An intent the state does not offer is a conflict for the script.
        // It says why, for the script to show; a plain form gets a page
        // that says why, with the way back.
        let unknown = try await client.intent("decrement", token: token)
        #expect(unknown.status == 409)
        #expect(unknown.body.hasPrefix("That was not done: the page was out of date."), "\(unknown.body)")
        #expect(unknown.header("Content-Type") == "text/plain; charset=utf-8")
        let unknownPlain = try await client.intent("decrement", token: token, fetch: false)
        #expect(unknownPlain.status == 409)
        #expect(unknownPlain.body.contains("role=\"alert\">That was not done"), "\(unknownPlain.body)")
        #expect(unknownPlain.body.contains("<a href=\"/\">Back to the app</a>"))
        #expect(WebPage.script.contains("showRefusal"))
        await tally.host.stop()
    }

    @Test func anEventHasOneDataLinePerLineAndNoCarriageReturn() {
        #expect(
            WebResponder<TallyWeb>.event("a\r\nü\n\nb", id: 3, name: nil)
                == "id: 3\ndata: a\ndata: ü\ndata: \ndata: b\n\n")
        #expect(WebResponder<TallyWeb>.event("", id: 1) == "id: 1\nevent: page\ndata: \n\n")
    }

    @Test func eachSessionsPageCarriesItsTokenAndPushesAreTheSameForEverySession() async throws {
        let tally = try await TallyHost.start()
        let first = tally.client()
        let second = tally.client()
        let firstPage = try await first.get("/").body
        let firstToken = try #require(WebClient.token(in: firstPage))
        let secondToken = try #require(WebClient.token(in: try await second.get("/").body))
        #expect(firstToken != secondToken)
        #expect(firstToken.count == 64 && secondToken.count == 64)
        // The page as loaded: the token in its forms and for its script.
        #expect(firstPage.contains("<meta name=\"oak-token\" content=\"\(firstToken)\">"))
        #expect(!firstPage.contains("\u{1}"))
        // Pushed content names no session: its forms carry the placeholder,
        // which the script replaces with its page's token as it posts.
        var firstPushes = first.events().makeAsyncIterator()
        var secondPushes = second.events().makeAsyncIterator()
        let pushed = try #require(try await firstPushes.next())
        #expect(!pushed.contains(firstToken) && pushed.contains(WebContext.tokenPlaceholder.rendered), "\(pushed)")
        #expect(try await secondPushes.next() == pushed)
        #expect(WebPage.script.contains("meta[name=\"oak-token\"]"))
        #expect(try await first.intent("increment", token: firstToken).status == 204)
        #expect(try await second.intent("increment", token: secondToken).status == 204)
        #expect(try await second.intent("increment", token: firstToken).status == 403)
        await tally.host.stop()
    }

    @Test func anOpenPageIsSentOnlyThePartsThatChangedAndAWholePageOtherwise() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let token = try #require(WebClient.token(in: try await client.get("/").body))
        var pushes = client.events().makeAsyncIterator()
        let first = try #require(try await pushes.next())
        #expect(first.contains("data-count=\"41\""), "the first push is the whole page")

        // Only the note changed: only its part is sent.
        #expect(try await client.intent("note", token: token, fields: [("note", "<b>hi</b>")]).status == 204)
        let part = try #require(try await pushes.next())
        #expect(part == "<oak-part data-key=\"note\">&lt;b&gt;hi&lt;/b&gt;</oak-part>", "\(part)")
        // The same note again: nothing the page shows changed, nothing is
        // sent; the count changes the frame: the whole page.
        #expect(try await client.intent("note", token: token, fields: [("note", "<b>hi</b>")]).status == 204)
        #expect(try await client.intent("increment", token: token).status == 204)
        let whole = try #require(try await pushes.next())
        #expect(whole.contains("data-count=\"42\"") && whole.contains("data-key=\"note\">&lt;b&gt;hi"), "\(whole)")
        // A page that opens (or reconnects) starts with the whole page.
        var again = client.events().makeAsyncIterator()
        #expect(try await again.next()?.contains("data-count=\"42\"") == true)
        await tally.host.stop()
    }

    @Test func anIntentAnotherServerPerformsSendsTheBrowserThere() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let token = try #require(WebClient.token(in: try await client.get("/").body))
        // The page's script is told where to go; a plain form is redirected.
        let scripted = try await client.intent("elsewhere", token: token)
        #expect(scripted.status == 204)
        #expect(scripted.header("X-Oak-Location") == "http://127.0.0.1:1/tally")
        let plain = try await client.intent("elsewhere", token: token, fetch: false)
        #expect(plain.status == 303)
        #expect(plain.header("Location") == "http://127.0.0.1:1/tally")
        // An address that is not an http(s) URL sends no one anywhere.
        let refused = try await client.intent("nowhere", token: token)
        #expect(refused.status == 409)
        #expect(refused.header("X-Oak-Location") == nil)
        #expect(refused.body == "That was not done: it cannot be done from this server.")
        // Nothing was performed here.
        #expect(try await client.get("/").body.contains("data-count=\"41\""))
        #expect(WebPage.script.contains("X-Oak-Location"))
        await tally.host.stop()
    }

    @Test(arguments: ["missing", "forged", "foreign"])
    func anIntentWithoutTheSessionsTokenIsRefused(_ kind: String) async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let other = tally.client()
        _ = try await client.get("/")
        let foreignPage = try await other.get("/")
        let fields: [(String, String)] =
            switch kind {
            case "missing": [("intent", "increment")]
            case "forged": [("token", String(repeating: "0", count: 64)), ("intent", "increment")]
            default: [("token", try #require(WebClient.token(in: foreignPage.body))), ("intent", "increment")]
            }
        let answer = try await client.post("/intent", fields: fields, fetch: true)
        #expect(answer.status == 403)
        let page = try await client.get("/")
        #expect(page.body.contains("data-count=\"41\""))
        await tally.host.stop()
    }

    @Test func onlyFormsAreAcceptedAndBodiesAreBounded() async throws {
        let tally = try await TallyHost.start(limits: SessionLimits(maxBodySize: 256))
        let client = tally.client()
        let page = try await client.get("/")
        let token = try #require(WebClient.token(in: page.body))
        let cookie = try #require(client.cookie)
        let json = try await RawConnection.exchange(
            port: tally.host.port,
            "POST /intent HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: application/json\r\n"
                + "Connection: close\r\nContent-Length: 2\r\n\r\n{}")
        #expect(json.hasPrefix("HTTP/1.1 415"), "\(json)")
        let big = try await client.post(
            "/intent", fields: [("token", token), ("intent", "note"), ("note", String(repeating: "x", count: 300))])
        #expect(big.status == 413)
        await tally.host.stop()
    }

    @Test func aBodyThatTricklesIsCutOff() async throws {
        var logger = Logger(label: "oak.test.web")
        logger.logLevel = .critical
        let host = try await WebHost.start(
            app: TallyWeb(environment: Tally.Env(load: { 41 })),
            connections: ConnectionLimits(bodyTimeout: .milliseconds(300)), sweeps: false, logger: logger)
        let client = WebClient(base: host.baseURL)
        _ = try await client.get("/")
        let cookie = try #require(client.cookie)
        let answer = try await RawConnection.with(port: host.port) { connection in
            try await connection.send(
                "POST /intent HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ntoken=")
            return try await connection.readUntilClosed()
        }
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        await host.stop()
    }

    @Test func beyondTheCapANewBrowserIsAskedToComeBack() async throws {
        let tally = try await TallyHost.start(limits: SessionLimits(maxSessions: 1))
        let first = tally.client()
        _ = try await first.get("/")
        // Its cookie came back (the page's script): the session counts.
        _ = try await first.get("/app.js")
        let refused = try await tally.client().get("/")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "60")
        #expect(refused.header("Set-Cookie") == nil)
        await tally.host.stop()
    }

    @Test func anIdleSessionExpiresAndItsRunEnds() async throws {
        let clock = TestClock()
        let tally = try await TallyHost.start(limits: SessionLimits(idleTimeout: .seconds(60)), clock: clock)
        let client = tally.client()
        _ = try await client.get("/")
        let session = try await tally.session(of: client)
        await clock.advance(by: .seconds(59))
        #expect(await tally.host.sweep().expired == 0)
        await clock.advance(by: .seconds(2))
        #expect(await tally.host.sweep().expired == 1)
        #expect(await tally.host.sessionCount == 0)
        #expect(session.hasEnded)
        // The expired session's cookie gets a new session.
        let page = try await client.get("/")
        #expect(page.header("Set-Cookie") != nil)
        await tally.host.stop()
    }

    @Test func anOpenPageKeepsItsSessionUntilItCloses() async throws {
        let clock = TestClock()
        let tally = try await TallyHost.start(limits: SessionLimits(idleTimeout: .seconds(60)), clock: clock)
        let client = tally.client()
        _ = try await client.get("/")
        let session = try await tally.session(of: client)
        let reading = Task {
            var pages = 0
            for try await _ in client.events() { pages += 1 }
            return pages
        }
        await session.waitForOpenPages(1)
        // Long after the last request, the open page keeps the session.
        await clock.advance(by: .seconds(120))
        #expect(await tally.host.sweep() == SweepReport(expired: 0, kept: 1))
        #expect(await tally.host.sessionCount == 1)
        // The reader closes the page: the next ping finds it gone.
        reading.cancel()
        _ = await reading.result
        await tally.host.sweep()
        await session.waitForOpenPages(0)
        await clock.advance(by: .seconds(61))
        #expect(await tally.host.sweep().expired == 1)
        await tally.host.stop()
    }

    @Test func textFromUsersIsEscaped() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let page = try await client.get("/")
        let token = try #require(WebClient.token(in: page.body))
        let hostile = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"
        let answer = try await client.intent("note", token: token, fetch: false, fields: [("note", hostile)])
        #expect(answer.status == 303)
        let shown = try await client.get("/")
        #expect(!shown.body.contains("<script>alert"))
        #expect(!shown.body.contains("<img src=x"))
        #expect(
            shown.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        await tally.host.stop()
    }

    @Test func aFileIsServedOnlyWhileTheStateShowsIt() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let page = try await client.get("/")
        let picture = try await client.get("/picture.png")
        #expect(picture.status == 200)
        #expect(picture.header("Content-Type") == "image/png")
        #expect(picture.data == tallyPicture)
        // Another browser has no session: nothing to show.
        let stranger = try await tally.client().get("/picture.png")
        #expect(stranger.status == 404)
        _ = page
        await tally.host.stop()
    }

    @Test func theScriptTheStyleAndWrongMethods() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let script = try await client.get("/app.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        let style = try await client.get("/style.css")
        #expect(style.body.hasSuffix("#count { font-size: 2rem; }"))
        let post = try await client.post("/", fields: [])
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let missing = try await client.get("/nothing-here")
        #expect(missing.status == 404)
        await tally.host.stop()
    }

    @Test func stoppingEndsEverySessionAndItsOpenPages() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        _ = try await client.get("/")
        let session = try await tally.session(of: client)
        let reading = Task {
            var pages = 0
            for try await _ in client.events() { pages += 1 }
            return pages
        }
        await session.waitForOpenPages(1)
        await tally.host.stop()
        #expect(session.hasEnded)
        // The page's stream ended with the session.
        _ = await reading.result
    }
}
