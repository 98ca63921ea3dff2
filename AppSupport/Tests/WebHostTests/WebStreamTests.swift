// The streams a page sends to its session (WebSockets at /streams/<name>),
// over real connections on loopback with a raw WebSocket client: opened
// only with the session's cookie, its token and the server's own origin;
// only where the state offers them; frames checked against the limits
// before the app sees them, each refusal closing the stream with its code
// and reason; the app's own refusal (one sender at a time).

import Clocks
import Foundation
import Testing
import WebTesting
import WebUI

@testable import WebHost

@Suite("Web host streams", .serialized, .timeLimit(.minutes(1)))
struct WebStreamTests {
    /// A browser's session on `tally`: its client (with the cookie) and its
    /// page's token.
    static func session(on tally: TallyHost) async throws -> (client: WebClient, token: String) {
        let client = tally.client()
        let page = try await client.get("/")
        return (client, try #require(WebClient.token(in: page.body)))
    }

    /// Opens the taps stream as the session's page would.
    static func openTaps(
        on tally: TallyHost, cookie: String?, token: String, origin: String? = nil
    ) async throws -> WebSocketTestClient {
        var headers = ["Origin": origin ?? tally.host.baseURL]
        if let cookie { headers["Cookie"] = cookie }
        let url = tally.host.baseURL.replacingOccurrences(of: "http:", with: "ws:") + "/streams/taps?token=\(token)"
        return try await WebSocketTestClient.connect(to: url, headers: headers)
    }

    @Test func framesReachTheAppAndTheEndIsTold() async throws {
        let tally = try await TallyHost.start()
        let (client, token) = try await Self.session(on: tally)
        let socket = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        try await socket.sendBinary([1, 2, 3, 4])
        try await socket.sendBinary(Array(repeating: 7, count: 100))
        await tally.taps.wait { $0.frames.count == 2 }
        #expect(tally.taps.frames == [[1, 2, 3, 4], Array(repeating: 7, count: 100)])
        await socket.close()
        await tally.taps.wait { $0.ends == 1 }
        #expect(tally.taps.ends == 1)
        await tally.host.stop()
    }

    @Test(arguments: ["no cookie", "forged token", "foreign token", "foreign origin", "no origin"])
    func aStreamOpensOnlyWithTheSessionsCookieTokenAndOrigin(_ kind: String) async throws {
        let tally = try await TallyHost.start()
        let (client, token) = try await Self.session(on: tally)
        let (_, foreignToken) = try await Self.session(on: tally)
        let url = tally.host.baseURL.replacingOccurrences(of: "http:", with: "ws:") + "/streams/taps?token="
        var headers = ["Origin": tally.host.baseURL, "Cookie": client.cookie ?? ""]
        var usedToken = token
        switch kind {
        case "no cookie": headers["Cookie"] = nil
        case "forged token": usedToken = String(repeating: "0", count: 64)
        case "foreign token": usedToken = foreignToken
        case "foreign origin": headers["Origin"] = "http://evil.example"
        default: headers["Origin"] = nil
        }
        // hummingbird-websocket answers a refused upgrade with 400.
        await #expect(throws: WebSocketTestError.refused(status: 400, body: "")) {
            _ = try await WebSocketTestClient.connect(to: url + usedToken, headers: headers)
        }
        #expect(tally.taps.ends == 0)
        // A plain request for a stream is refused too.
        #expect(try await client.get("/streams/taps?token=\(token)").status == 403)
        await tally.host.stop()
    }

    /// A page that stops sending but answers pings (an idle microphone)
    /// does not hold the stream: after the silence timeout, on the host's
    /// clock, it is closed with 4008 and a reason the page shows, and ended
    /// at once, so another page can open it (a meeting's floor).
    @Test func aSilentStreamIsClosedAndEndedAfterItsSilenceTimeout() async throws {
        let clock = TestClock()
        let tally = try await TallyHost.start(clock: clock)
        let (client, token) = try await Self.session(on: tally)
        let socket = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        try await socket.sendBinary([1, 2])
        await tally.taps.wait { $0.frames.count == 1 }
        await clock.advance(by: .seconds(4))
        #expect(tally.taps.ends == 0)
        await clock.advance(by: .seconds(2))
        await tally.taps.wait { $0.ends == 1 }
        let closed = try await socket.closeReason()
        #expect(closed.code == 4008)
        #expect(closed.reason.contains("5 seconds"), "\(closed.reason)")
        // Released: another page of the session opens the stream.
        let next = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        try await next.sendBinary([3, 4])
        await tally.taps.wait { $0.frames.count == 2 }
        await next.close()
        await tally.host.stop()
    }

    @Test func aStreamTheStateDoesNotOfferIsClosedWithTheReason() async throws {
        let tally = try await TallyHost.start(opened: false)  // still loading
        let (client, token) = try await Self.session(on: tally)
        let socket = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        let closed = try await socket.closeReason()
        #expect(closed.code == 4004)
        #expect(closed.reason == "No taps while loading.")
        tally.loaded.open()  // the run ends only once its load returns
        await tally.host.stop()
    }

    @Test func theAppMayRefuseASecondSender() async throws {
        let tally = try await TallyHost.start()
        let (client, token) = try await Self.session(on: tally)
        let (other, otherToken) = try await Self.session(on: tally)
        let first = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        let second = try await Self.openTaps(on: tally, cookie: other.cookie, token: otherToken)
        let closed = try await second.closeReason()
        #expect(closed.code == 4009)
        #expect(closed.reason == "Someone else is tapping.")
        try await first.sendBinary([1, 2])
        await tally.taps.wait { $0.frames.count == 1 }
        await first.close()
        await tally.taps.wait { $0.ends == 1 }
        // Once the first has stopped, the second may send.
        let again = try await Self.openTaps(on: tally, cookie: other.cookie, token: otherToken)
        try await again.sendBinary([3, 4])
        await tally.taps.wait { $0.frames.count == 2 }
        await again.close()
        await tally.host.stop()
    }

    enum BadFrame: String, CaseIterable, Sendable {
        case text, oddLength, tooLarge, fragmented, tooFast, beyondTheServersLargest
    }

    @Test(arguments: BadFrame.allCases)
    func aFrameBeyondTheLimitsClosesTheStreamWithItsReason(_ bad: BadFrame) async throws {
        // A clock that stands still: only the burst may be sent.
        let tally = try await TallyHost.start(clock: TestClock())
        let (client, token) = try await Self.session(on: tally)
        let socket = try await Self.openTaps(on: tally, cookie: client.cookie, token: token)
        switch bad {
        case .text: try await socket.sendText("tap")
        case .oddLength: try await socket.sendBinary([1, 2, 3])
        case .tooLarge: try await socket.sendBinary(Array(repeating: 0, count: 102))
        case .fragmented: try await socket.sendFrame(opcode: 2, payload: [1, 2], fin: false)
        case .tooFast:
            for _ in 0..<5 { try await socket.sendBinary(Array(repeating: 0, count: 100)) }
        case .beyondTheServersLargest: try await socket.sendBinary(Array(repeating: 0, count: 70_000))
        }
        let closed = try await socket.closeReason()
        let expected: (UInt16, String) =
            switch bad {
            case .text: (4000, "This stream takes binary frames only.")
            case .oddLength: (4000, "A frame carries whole units of 2 bytes; this one had 3 bytes.")
            case .tooLarge: (4013, "A frame carries at most 100 bytes; this one had 102.")
            case .fragmented: (4000, "Send each chunk as one unfragmented binary frame.")
            case .tooFast: (4029, "Frames came faster than 1000 bytes a second.")
            case .beyondTheServersLargest: (1009, "")
            }
        #expect(closed.code == expected.0)
        #expect(closed.reason == expected.1)
        await tally.taps.wait { $0.ends == 1 }
        #expect(tally.taps.frames.count == (bad == .tooFast ? 4 : 0), "nothing beyond the limits reached the app")
        await tally.host.stop()
    }

    @Test func theWorkletIsServedAndThePlaceOfTheMicrophoneCarriesTheToken() async throws {
        let tally = try await TallyHost.start()
        let client = tally.client()
        let worklet = try await client.get(WebPage.microphoneWorkletPath)
        #expect(worklet.status == 200)
        #expect(worklet.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(worklet.body.contains("registerProcessor(\"oak-microphone\""))
        let place = WebContext(token: "t\"<").microphone("mic\"<")
        #expect(
            place.rendered
                == "<div class=\"microphone\" data-microphone=\"mic&quot;&lt;\" data-token=\"t&quot;&lt;\"></div>")
        await tally.host.stop()
    }
}
