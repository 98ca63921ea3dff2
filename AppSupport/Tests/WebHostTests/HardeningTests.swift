// The web host under abuse, over real connections on loopback: requests for
// a name the server is not (DNS rebinding) refused before any session is
// made, on every route and on a stream's upgrade, also when the name is in
// an absolute-form target; silent, half-sent and
// trickled request heads closed at the head's deadline of a default server;
// requests the HTTP parser refuses answered with their status; first visits
// that never come back kept in a budget of their own, so that a flood of
// them leaves room for a browser; every fixed path refuses the methods it
// does not take with 405 and `Allow`, and answers HEAD where it answers GET;
// a foreign session cookie sent before the session's own does not hide it.

import Clocks
import Foundation
import NIOCore
import Testing
import WebTesting
import WebUI

@testable import ServerSupport
@testable import WebHost

@Suite("Allowed hosts")
struct AllowedHostsTests {
    @Test(arguments: [
        "127.0.0.1", "127.0.0.1:8080", "10.0.0.2:80", "[::1]", "[::1]:8080", "localhost", "LOCALHOST:8080",
        "localhost.:8080", "app.localhost", "app.example", "APP.example.:443", "team.internal.example",
        "internal.example",
    ])
    func allowed(_ host: String) {
        #expect(AllowedHosts(["app.example", ".internal.example"]).allows(host))
    }

    @Test(arguments: [
        "attacker.example", "attacker.example:8080", "127.0.0.1.nip.io", "app.example.attacker.example",
        "evilinternal.example", "", ":8080", "[::1", "[::1]x", "app.example:http", "a b", "app.example/x",
        "256.0.0.1", "1.2.3", "localhost.attacker.example", "xn--ls8h.example",
    ])
    func refused(_ host: String) {
        #expect(!AllowedHosts(["app.example", ".internal.example"]).allows(host))
    }

    @Test func noHostIsRefused() {
        #expect(!AllowedHosts().allows(nil))
    }

    @Test func namesForTheOptionAreChecked() {
        #expect(AllowedHosts.name(of: "App.Example") == "app.example")
        #expect(AllowedHosts.name(of: ".Example.com") == ".example.com")
        #expect(AllowedHosts.name(of: "http://app.example") == nil)
        #expect(AllowedHosts.name(of: "app.example:8080") == nil)
        #expect(AllowedHosts.name(of: "app.example/path") == nil)
    }
}

@Suite("Web host under abuse", .timeLimit(.minutes(1)))
struct HardeningTests {
    /// A raw request for `/` with `Host: host`.
    static func get(_ path: String = "/", host: String?, port: Int, method: String = "GET") async throws -> String {
        let hostLine = host.map { "Host: \($0)\r\n" } ?? ""
        return try await RawConnection.exchange(
            port: port, "\(method) \(path) HTTP/1.1\r\n\(hostLine)Connection: close\r\n\r\n")
    }

    /// Every fixed path asked with a method it does not take answers 405
    /// and says which it takes (decision 0060: why the host routes by hand).
    @Test(arguments: [
        ("PUT", "/", "GET, HEAD"), ("DELETE", "/", "GET, HEAD"), ("GET", WebPage.intentPath, "POST"),
        ("POST", WebPage.eventsPath, "GET"), ("HEAD", WebPage.eventsPath, "GET"),
        ("POST", WebPage.scriptPath, "GET, HEAD"), ("PUT", WebPage.stylePath, "GET, HEAD"),
        ("POST", WebPage.microphoneWorkletPath, "GET, HEAD"),
    ])
    func aMethodAPathDoesNotTakeIsAnswered405WithWhatItTakes(
        method: String, path: String, allow: String
    )
        async throws
    {
        let tally = try await TallyHost.start()
        let answer = try await Self.get(path, host: "127.0.0.1", port: tally.host.port, method: method)
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(method) \(path): \(answer.prefix(200))")
        #expect(answer.lowercased().contains("\r\nallow: \(allow.lowercased())\r\n"), "\(answer.prefix(400))")
        #expect(await tally.host.sessionCount == 0)
        await tally.host.stop()
    }

    /// `HEAD` is answered wherever `GET` is: the same status and type, no
    /// body.
    @Test(arguments: [WebPage.scriptPath, WebPage.stylePath, WebPage.microphoneWorkletPath, "/"])
    func headIsAnsweredLikeGetWithoutABody(path: String) async throws {
        let tally = try await TallyHost.start()
        let get = try await Self.get(path, host: "127.0.0.1", port: tally.host.port)
        let head = try await Self.get(path, host: "127.0.0.1", port: tally.host.port, method: "HEAD")
        #expect(head.hasPrefix("HTTP/1.1 200") && get.hasPrefix("HTTP/1.1 200"), "\(head.prefix(200))")
        func contentType(_ answer: String) -> Substring? {
            answer.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-type:") }
        }
        #expect(contentType(head) != nil && contentType(head) == contentType(get))
        let body = head.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        #expect(body.isEmpty, "\(path): HEAD sent a body: \(body.prefix(100))")
        await tally.host.stop()
    }

    @Test(arguments: ["attacker.example", "attacker.example:PORT", "127.0.0.1.nip.io:PORT", nil])
    func aForeignHostIsRefusedBeforeAnySessionIsMade(_ host: String?) async throws {
        let tally = try await TallyHost.start()
        let port = tally.host.port
        let host = host?.replacingOccurrences(of: "PORT", with: "\(port)")
        for path in ["/", "/app.js", "/events", "/anything"] {
            let answer = try await Self.get(path, host: host, port: port)
            #expect(answer.hasPrefix("HTTP/1.1 421"), "\(path): \(answer.prefix(200))")
            #expect(!answer.lowercased().contains("set-cookie"))
        }
        let post = try await RawConnection.exchange(
            port: port,
            "POST /intent HTTP/1.1\r\n\(host.map { "Host: \($0)\r\n" } ?? "")Connection: close\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b")
        #expect(post.hasPrefix("HTTP/1.1 421"), "\(post.prefix(200))")
        #expect(await tally.host.sessionCount == 0)
        await tally.host.stop()
    }

    /// Two `Host` fields, the first allowed: refused (400), so that no part
    /// of the server can read the second name.
    @Test func aSecondHostIsRefused() async throws {
        let tally = try await TallyHost.start()
        let answer = try await RawConnection.exchange(
            port: tally.host.port,
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
        #expect(await tally.host.sessionCount == 0)
        await tally.host.stop()
    }

    /// A script that opens stream after stream with one cookie holds at
    /// most `maxOpenPagesPerSession` of the server's connections: each page
    /// beyond it replaces the session's oldest, which is told why and whose
    /// connection is closed (kept open, idle, the replaced pages of a script
    /// that never reads would hold every connection of the server until
    /// they time out).
    @Test func pagesBeyondASessionsLimitReplaceItsOldest() async throws {
        let tally = try await TallyHost.start(limits: SessionLimits(maxOpenPagesPerSession: 2))
        let port = tally.host.port
        let client = tally.client()
        _ = try await client.get("/")
        let session = try await tally.session(of: client)
        let cookie = try #require(client.cookie)
        let told = try await RawConnection.with(port: port) { oldest in
            try await oldest.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n")
            await session.waitForOpenPages(1)
            var others: [AsyncThrowingStream<String, any Error>.AsyncIterator] = []
            for _ in 2...4 {
                var page = client.events().makeAsyncIterator()
                _ = try await page.next()
                others.append(page)
            }
            #expect(session.openPages == 2)
            // Closed at once, not when the connection's idle time runs out
            // (30 seconds).
            let replaced = ContinuousClock.now
            let told = try await oldest.readUntilClosed(resetCloses: true)
            #expect(ContinuousClock.now - replaced < .seconds(10), "The replaced page's connection stayed open.")
            return told
        }
        #expect(told.contains("no longer follows"), "\(told)")
        #expect(told.contains("Reload it to follow again."))
        await tally.host.stop()
    }

    /// A cookie of the session cookie's name set by another site of the
    /// domain, or left from an ended session, and sent before the
    /// session's own ("cookie tossing") does not hide the session: the
    /// page is the session's, and no new session is opened (whose cookie
    /// the next request would again send second, a new session at every
    /// reload).
    @Test func aForeignSessionCookieSentFirstDoesNotHideTheSession() async throws {
        let tally = try await TallyHost.start()
        let port = tally.host.port
        let first = try await Self.get(host: "127.0.0.1:\(port)", port: port)
        let id = try #require(
            first.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: oak_session=") }?
                .dropFirst("set-cookie: oak_session=".count).prefix { $0 != ";" })
        for cookies in [
            "Cookie: oak_session=zzz; oak_session=\(id)", "Cookie: oak_session=zzz\r\nCookie: oak_session=\(id)",
        ] {
            let answer = try await RawConnection.exchange(
                port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookies)\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
            #expect(!answer.lowercased().contains("set-cookie"), "A new session was opened: \(answer.prefix(400))")
        }
        #expect(await tally.host.sessionCount == 1)
        await tally.host.stop()
    }

    /// An absolute-form request (`GET http://name/ HTTP/1.1`, what a client
    /// sends a proxy) is for the name in its target, whatever its `Host`
    /// says (RFC 9112, 3.2.2): another site's is refused, one that names no
    /// host too, and this server's own is served.
    @Test func anAbsoluteFormRequestIsForTheNameInItsTarget() async throws {
        let tally = try await TallyHost.start()
        let port = tally.host.port
        for (target, host) in [
            ("http://attacker.example/", "127.0.0.1:\(port)"), ("HTTP://attacker.example:\(port)/app.js", "localhost"),
            ("http:///", "127.0.0.1:\(port)"), ("https://user@127.0.0.1:\(port)/", "127.0.0.1:\(port)"),
        ] {
            let answer = try await RawConnection.exchange(
                port: port, "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 421"), "\(target): \(answer.prefix(200))")
        }
        #expect(await tally.host.sessionCount == 0)
        let own = try await RawConnection.exchange(
            port: port,
            "GET http://127.0.0.1:\(port)/ HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
        #expect(own.hasPrefix("HTTP/1.1 200"), "\(own.prefix(200))")
        #expect(await tally.host.sessionCount == 1)
        await tally.host.stop()
    }

    /// The parts of the request a WebSocket upgrade leaves behind in the
    /// HTTP parser (a frame sent with the upgrade's request, before its
    /// answer) reach the stream as a frame: nothing between the parser and
    /// the stream takes them for HTTP.
    @Test(.timeLimit(.minutes(1)))
    func aFrameSentWithTheUpgradeRequestReachesTheStream() async throws {
        let tally = try await TallyHost.start()
        let (client, token) = try await WebStreamTests.session(on: tally)
        let port = tally.host.port
        let request =
            "GET /streams/taps?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Origin: \(tally.host.baseURL)\r\nCookie: \(client.cookie ?? "")\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        // A masked binary frame of four bytes, 1 2 3 4.
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let frame: [UInt8] = [0x82, 0x84] + mask + [1, 2, 3, 4].enumerated().map { $1 ^ mask[$0 % 4] }
        let answer = try await RawConnection.with(port: port) { connection in
            try await connection.outbound.write(ByteBuffer(bytes: Array(request.utf8) + frame))
            var received = ""
            for try await buffer in connection.inbound {
                received += String(buffer: buffer)
                if received.contains("\r\n\r\n") { break }
            }
            await tally.taps.wait { $0.frames.count == 1 }
            return received
        }
        #expect(answer.hasPrefix("HTTP/1.1 101"), "\(answer.prefix(200))")
        #expect(tally.taps.frames == [[1, 2, 3, 4]])
        await tally.host.stop()
    }

    @Test(arguments: ["127.0.0.1:PORT", "localhost:PORT", "[::1]:PORT", "app.example:PORT"])
    func theServersOwnNamesAreServed(_ host: String) async throws {
        let tally = try await TallyHost.start(allowedHosts: AllowedHosts(["app.example"]))
        let answer = try await Self.get(
            host: host.replacingOccurrences(of: "PORT", with: "\(tally.host.port)"), port: tally.host.port)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(await tally.host.sessionCount == 1)
        await tally.host.stop()
    }

    /// A page of another site, its name rebound to 127.0.0.1, opens a stream
    /// with its own origin and name: refused, although they match.
    @Test func aStreamForAForeignHostIsNotUpgraded() async throws {
        let tally = try await TallyHost.start()
        let (client, token) = try await WebStreamTests.session(on: tally)
        let url = tally.host.baseURL.replacingOccurrences(of: "http:", with: "ws:") + "/streams/taps?token=\(token)"
        let foreign = "attacker.example:\(tally.host.port)"
        await #expect(throws: WebSocketTestError.refused(status: 400, body: "")) {
            _ = try await WebSocketTestClient.connect(
                to: url, headers: ["Host": foreign, "Origin": "http://\(foreign)", "Cookie": client.cookie ?? ""])
        }
        #expect(tally.taps.ends == 0)
        await tally.host.stop()
    }

    /// The head's deadline of a default server (10 seconds), against the
    /// clients that held connections for ever before: one that sends
    /// nothing, one that sends half a head and stops, one that trickles
    /// its head a byte every 200 ms (an idle timer never fires for it), and
    /// twenty silent ones at once. Each is closed without an answer, at the
    /// deadline, not before.
    @Test(.timeLimit(.minutes(1)))
    func silentHalfAndTrickledHeadsAreClosedAtTheDeadline() async throws {
        let tally = try await TallyHost.start()
        let port = tally.host.port
        let deadline = ConnectionLimits().headTimeout
        let started = ContinuousClock.now
        let closed = try await withThrowingTaskGroup(of: (String, Duration, String).self) { group in
            group.addTask {
                let answer = try await RawConnection.with(port: port) { try await $0.readUntilClosed() }
                return ("silent", ContinuousClock.now - started, answer)
            }
            group.addTask {
                let answer = try await RawConnection.with(port: port) { connection in
                    try await connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
                    return try await connection.readUntilClosed()
                }
                return ("half", ContinuousClock.now - started, answer)
            }
            group.addTask {
                let answer = try await RawConnection.with(port: port) { connection in
                    let reading = Task { try await connection.readUntilClosed(resetCloses: true) }
                    let head = Array(
                        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + String(repeating: "a", count: 500))
                    for character in head {
                        // A slow client, not a wait for the server: a byte
                        // every 200 ms, until the server closes.
                        do {
                            try await connection.send(String(character))
                        } catch {
                            break
                        }
                        try await Task.sleep(for: .milliseconds(200))
                        if ContinuousClock.now - started > deadline * 2 { break }
                    }
                    return try await reading.value
                }
                return ("trickle", ContinuousClock.now - started, answer)
            }
            for number in 0..<20 {
                group.addTask {
                    let answer = try await RawConnection.with(port: port) { try await $0.readUntilClosed() }
                    return ("silent \(number)", ContinuousClock.now - started, answer)
                }
            }
            var closed: [(String, Duration, String)] = []
            for try await result in group { closed.append(result) }
            return closed
        }
        for (client, after, answer) in closed {
            #expect(answer.isEmpty, "\(client): \(answer)")
            #expect(after >= deadline * 19 / 20 && after < deadline * 3 / 2, "\(client) closed after \(after)")
        }
        // A client that sends its head in time is served as before.
        #expect(try await Self.get(host: "127.0.0.1", port: port).hasPrefix("HTTP/1.1 200"))
        await tally.host.stop()
    }

    /// A body sent to a route that does not read it (a POST to `/`, 405)
    /// does not hold the connection either: it closes within the body's
    /// deadline, however slowly the body comes.
    @Test func aBodyNobodyReadsDoesNotHoldTheConnection() async throws {
        let tally = try await TallyHost.start()
        let started = ContinuousClock.now
        let answer = try await RawConnection.with(port: tally.host.port) { connection in
            try await connection.send(
                "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: 1000000\r\n\r\nab")
            let reading = Task { try await connection.readUntilClosed() }
            for _ in 0..<200 {
                // A slow client: a byte every 200 ms, until the server closes.
                do {
                    try await connection.send("x")
                } catch {
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
                if ContinuousClock.now - started > .seconds(40) { break }
            }
            return try await reading.value
        }
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer.prefix(100))")
        #expect(ContinuousClock.now - started < .seconds(35), "closed after \(ContinuousClock.now - started)")
        await tally.host.stop()
    }

    @Test(arguments: [
        ("BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "501"),
        ("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "414"),
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n", "431"),
        ("GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: many\r\n\r\n", "400"),
        ("\u{1}\u{2}\u{3}\r\n\r\n", "501"),
    ])
    func aRequestTheParserRefusesGetsItsStatus(_ request: String, _ status: String) async throws {
        let tally = try await TallyHost.start()
        let answer = try await RawConnection.exchange(port: tally.host.port, request)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(answer.prefix(300))")
        #expect(answer.lowercased().contains("connection: close"))
        #expect(await tally.host.sessionCount == 0)
        await tally.host.stop()
    }

    /// A script fetches `/` a thousand times without a cookie (1.5 s of
    /// that filled every session before, and new browsers got 503 for
    /// half an hour): its sessions stay provisional, at most the budget,
    /// and a browser that comes next is served and keeps its session.
    @Test func aFloodOfFirstVisitsLeavesRoomForABrowser() async throws {
        let limits = SessionLimits(maxSessions: 20)
        let tally = try await TallyHost.start(limits: limits)
        let port = tally.host.port
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in stride(from: worker, to: 1_000, by: 8) {
                        let answer = try await Self.get(host: "127.0.0.1", port: port)
                        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(100))")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await tally.host.store.provisionalCount <= limits.maxProvisionalSessionsPerClient)
        let browser = tally.client()
        let page = try await browser.get("/")
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie") != nil)
        #expect(try await browser.get("/app.js").status == 200)  // its cookie came back
        let token = try #require(WebClient.token(in: page.body))
        #expect(try await browser.intent("increment", token: token).status == 204)
        // More first visits do not end the browser's session.
        for _ in 0..<100 { _ = try await Self.get(host: "127.0.0.1", port: port) }
        #expect(try await browser.intent("increment", token: token).status == 204)
        await tally.host.stop()
    }

    @Test func aFirstVisitThatNeverComesBackEndsAfterTheProvisionalTimeout() async throws {
        let clock = TestClock()
        let tally = try await TallyHost.start(
            limits: SessionLimits(idleTimeout: .seconds(600), provisionalTimeout: .seconds(20)), clock: clock)
        let visitor = tally.client()
        _ = try await visitor.get("/")
        let browser = tally.client()
        _ = try await browser.get("/")
        _ = try await browser.get("/style.css")  // its cookie came back
        #expect(await tally.host.store.provisionalCount == 1)
        await clock.advance(by: .seconds(19))
        #expect(await tally.host.sweep().expired == 0)
        await clock.advance(by: .seconds(2))
        #expect(await tally.host.sweep().expired == 1)
        #expect(await tally.host.sessionCount == 1)
        await tally.host.stop()
    }

    @Test func aClientsOldestProvisionalSessionEndsBeyondItsBudget() async throws {
        let tally = try await TallyHost.start(limits: SessionLimits(maxProvisionalSessionsPerClient: 2))
        let visitors = (0..<3).map { _ in tally.client() }
        for visitor in visitors { _ = try await visitor.get("/") }
        #expect(await tally.host.store.provisionalCount == 2)
        #expect(await tally.host.sessionCount == 2)
        // The first visitor's session ended: its cookie gets a new one.
        #expect(try await visitors[0].get("/").header("Set-Cookie") != nil)
        // The last one's came back: its page is served, no new cookie.
        #expect(try await visitors[2].get("/").header("Set-Cookie") == nil)
        await tally.host.stop()
    }
}
