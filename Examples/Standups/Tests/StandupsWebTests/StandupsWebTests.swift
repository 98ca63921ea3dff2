// The web front end over real HTTP on loopback: the generic web host
// serving `StandupsWeb` over a real store in a fresh directory, driven as
// the page's script drives it (intents posted, pages pushed on /events).
// Every wait reads the pushed pages; nothing sleeps.

import AppFeature
import Devices
import Foundation
import LiveProviders
import Logging
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupsProvider
import StandupsStore
import StandupsWeb
import Testing
import WebHost
import WebTesting

@Suite("The web front end", .timeLimit(.minutes(1)))
struct StandupsWebTests {
    /// The web host over a store in a fresh directory.
    struct Fixture {
        let host: WebHost<StandupsWeb>
        let directory: URL

        static func start() async throws -> Fixture {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("oak-standups-web-\(UUID().uuidString)")
            let store = StandupsStore(directory: directory)
            let speech = SpeechClient.unavailable(.restricted)
            let env = AppFeature.Env(
                standups: .live(store), detail: StandupDetail.Env(speech: speech),
                meeting: RecordMeeting.Env(
                    clock: ContinuousClock(), speech: speech, sound: .silent, now: { Date() }, uuid: { UUID() }))
            var logger = Logger(label: "standups.web.test")
            logger.logLevel = .critical  // stopping a server with open streams logs an error
            let host = try await WebHost.start(app: StandupsWeb(env: env), sweeps: false, logger: logger)
            return Fixture(host: host, directory: directory)
        }

        func stop() async {
            await host.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs `body` with a started fixture, stopped after it, also when
        /// it throws.
        static func with(_ body: (Fixture) async throws -> Void) async throws {
            let web = try await start()
            do {
                try await body(web)
            } catch {
                await web.stop()
                throw error
            }
            await web.stop()
        }
    }

    @Test("a stand-up added in the browser, opened, and a meeting ended early and saved")
    func addingOpeningAndAMeeting() async throws {
        try await Fixture.with { web in try await addingOpeningAndAMeeting(web) }
    }

    func addingOpeningAndAMeeting(_ web: Fixture) async throws {
        let browser = WebClient(base: web.host.baseURL)
        let first = try await browser.get("/")
        #expect(first.status == 200)
        #expect(first.body.contains("id=\"empty\""), "the first page shows the loaded, empty list:\n\(first.body)")
        let token = try #require(WebClient.token(in: first.body))
        let pages = browser.events()

        #expect(try await browser.intent("list.add", token: token).status == 204)
        let form = try await pages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")
        let attendee = try #require(Self.attendeeField(in: form))
        let hostile = "<script>alert('x')</script> Retro"
        #expect(
            try await browser.intent(
                "form.done", token: token,
                fields: [("title", hostile), ("minutes", "7"), ("theme", "teal"), (attendee, "Ann")]
            ).status == 204)
        let list = try await pages.first(where: { $0.contains("id=\"standups\"") && $0.contains("Retro") }, "the card")
        #expect(list.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Retro"))
        #expect(!list.contains("<script>"))
        #expect(list.contains("7 min · 1 attendee"))
        #expect(list.contains("theme-teal"))

        let id = try #require(Self.value(of: "data-standup", in: list))
        #expect(try await browser.intent("list.open", token: token, fields: [("standup", id)]).status == 204)
        _ = try await pages.first(
            where: { $0.contains("id=\"detail\"") && $0.contains("id=\"no-meetings\"") }, "detail")
        #expect(try await browser.intent("detail.start", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("Speech recognition is unavailable") }, "the question")
        #expect(try await browser.intent("detail.continue", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("id=\"meeting\"") && $0.contains("Ann") }, "the meeting")
        #expect(try await browser.intent("meeting.end", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("End meeting?") }, "the end question")
        #expect(try await browser.intent("meeting.save", token: token).status == 204)
        let detail = try await pages.first(
            where: { $0.contains("id=\"detail\"") && $0.contains("data-meeting=") }, "the saved meeting")
        #expect(detail.contains("detail.openMeeting:"))

        // On disk, for the terminal app and the next server.
        let stored = try StandupsStore(directory: web.directory).load()
        #expect(stored.map(\.title) == [hostile])
        #expect(stored.first?.meetings.count == 1)
    }

    @Test("a form posted without the session's token, or with another session's, is refused")
    func forgedTokensAreRefused() async throws {
        try await Fixture.with { web in try await forgedTokensAreRefused(web) }
    }

    func forgedTokensAreRefused(_ web: Fixture) async throws {
        let browser = WebClient(base: web.host.baseURL)
        let first = try await browser.get("/")
        let token = try #require(WebClient.token(in: first.body))
        let other = WebClient(base: web.host.baseURL)
        let otherToken = try #require(WebClient.token(in: try await other.get("/").body))

        #expect(try await browser.intent("list.add", token: otherToken).status == 403)
        #expect(try await browser.intent("list.add", token: "forged").status == 403)
        #expect(try await browser.intent("list.add", token: token).status == 204)
    }

    @Test("two browsers in one meeting: one run, a Next from one reaches the other, the question is shared")
    func twoBrowsersShareOneMeeting() async throws {
        try await Fixture.with { web in try await twoBrowsersShareOneMeeting(web) }
    }

    func twoBrowsersShareOneMeeting(_ web: Fixture) async throws {
        // The first browser adds a stand-up and starts its meeting.
        let first = WebClient(base: web.host.baseURL)
        let firstToken = try #require(WebClient.token(in: try await first.get("/").body))
        let firstPages = first.events()
        #expect(try await first.intent("list.add", token: firstToken).status == 204)
        let form = try await firstPages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")
        let attendee = try #require(Self.attendeeField(in: form))
        #expect(
            try await first.intent("form.addAttendee", token: firstToken, fields: [(attendee, "Ann")]).status == 204)
        let twoFields = try await firstPages.first(
            where: { $0.components(separatedBy: "name=\"attendee.").count == 3 }, "two attendee fields")
        let second = try #require(Self.fields(named: "attendee.", in: twoFields).last)
        #expect(
            try await first.intent(
                "form.done", token: firstToken, fields: [("title", "Daily"), (attendee, "Ann"), (second, "Bo")]
            ).status == 204)
        let list = try await firstPages.first(where: { $0.contains("data-standup=") }, "the card")
        let id = try #require(Self.value(of: "data-standup", in: list))
        try await Self.startMeeting(of: id, client: first, token: firstToken, pages: firstPages)

        // The second browser opens the same stand-up's meeting: it joins it.
        let other = WebClient(base: web.host.baseURL)
        let otherToken = try #require(WebClient.token(in: try await other.get("/").body))
        let otherPages = other.events()
        try await Self.startMeeting(of: id, client: other, token: otherToken, pages: otherPages)

        // Next from the first reaches the second.
        #expect(try await first.intent("meeting.next", token: firstToken).status == 204)
        let moved = try await otherPages.first(where: { $0.contains("data-speaker=\"1\"") }, "the next speaker")
        #expect(moved.contains("<strong>Bo</strong>"))

        // The question is the room's: asked by one, answered by the other.
        #expect(try await other.intent("meeting.end", token: otherToken).status == 204)
        _ = try await firstPages.first(where: { $0.contains("End meeting?") }, "the question in the first browser")
        #expect(try await first.intent("meeting.discard", token: firstToken).status == 204)
        _ = try await otherPages.first(where: { $0.contains("id=\"detail\"") }, "the second back on the stand-up")
        _ = try await firstPages.first(where: { $0.contains("id=\"detail\"") }, "the first back on the stand-up")
        #expect(try StandupsStore(directory: web.directory).load().first?.meetings.isEmpty == true)
    }

    /// Opens stand-up `id` and starts its meeting, continuing without
    /// recording; returns once the meeting's page is pushed.
    static func startMeeting(
        of id: String, client: WebClient, token: String, pages: AsyncThrowingStream<String, any Error>
    ) async throws {
        #expect(try await client.intent("list.open", token: token, fields: [("standup", id)]).status == 204)
        _ = try await pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
        #expect(try await client.intent("detail.start", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("Speech recognition is unavailable") }, "the question")
        #expect(try await client.intent("detail.continue", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("id=\"meeting\"") }, "the meeting")
    }

    /// The names of the fields starting with `prefix` in `page`, in order.
    static func fields(named prefix: String, in page: String) -> [String] {
        page.components(separatedBy: "name=\"").dropFirst().compactMap { rest in
            guard rest.hasPrefix(prefix), let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }
    }

    /// The name of the first attendee's text field in `page`.
    static func attendeeField(in page: String) -> String? {
        guard let range = page.range(of: "name=\"attendee.") else { return nil }
        let rest = page[range.lowerBound...].dropFirst("name=\"".count)
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The value of the first attribute `name` in `page`.
    static func value(of name: String, in page: String) -> String? {
        guard let range = page.range(of: "\(name)=\"") else { return nil }
        let rest = page[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
