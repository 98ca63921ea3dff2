// The web front end over real HTTP on loopback: the generic web host
// serving `StandupsWeb` over a real store in a fresh directory, driven as
// the page's script drives it (intents posted, pages pushed on /events).
// Every wait reads the pushed pages; nothing sleeps.

import Clocks
import Devices
import Foundation
import LiveProviders
import Logging
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupsMain
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
        let env: Main.Env
        let directory: URL

        /// A host whose meetings are not recorded; or, with `microphones`,
        /// recorded by pocketsphinx from what the browsers send (with
        /// `counting`, a recogniser that only counts the samples it hears,
        /// "1600 samples"); over a store holding `standups`; sessions idle
        /// on `clock`, swept by the test.
        static func start(
            microphones: RemoteMicrophones? = nil, counting: Bool = false, standups: [Standup] = [],
            clock: any Clock<Duration> = ContinuousClock(), in parent: URL? = nil
        ) async throws -> Fixture {
            let directory = (parent ?? FileManager.default.temporaryDirectory)
                .appendingPathComponent("oak-standups-web-\(UUID().uuidString)")
            let store = StandupsStore(directory: directory)
            if !standups.isEmpty { try store.save(standups.map { .add($0) }) }
            let speech: @Sendable (Standup.ID) -> SpeechClient = { standupID in
                guard let microphones else { return .unavailable(.restricted) }
                return counting
                    ? .counting { microphones.audio(of: standupID) }
                    : .live(microphones: microphones, meeting: standupID)
            }
            let env = Main.Env(
                standups: .live(store), detail: StandupDetail.Env(speech: speech(UUID())),
                meetings: { standupID in
                    RecordMeeting.Env(
                        clock: ContinuousClock(), speech: speech(standupID), sound: .silent, now: { Date() },
                        uuid: { UUID() })
                })
            var logger = Logger(label: "standups.web.test")
            logger.logLevel = .critical  // stopping a server with open streams logs an error
            let app = StandupsWeb(env: env, microphones: microphones ?? RemoteMicrophones())
            let host = try await WebHost.start(app: app, clock: clock, sweeps: false, logger: logger)
            return Fixture(host: host, env: env, directory: directory)
        }

        func stop() async {
            await host.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs `body` with a started fixture, stopped after it, also when
        /// it throws.
        static func with(
            microphones: RemoteMicrophones? = nil, counting: Bool = false, standups: [Standup] = [],
            clock: any Clock<Duration> = ContinuousClock(), in parent: URL? = nil,
            _ body: (Fixture) async throws -> Void
        ) async throws {
            let web = try await start(
                microphones: microphones, counting: counting, standups: standups, clock: clock, in: parent)
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
        let token = try #require(WebClient.token(in: first.body))
        let pages = browser.events()
        // The first page waits at most the first paint's 2 seconds for the
        // store: on a loaded machine it may show "Loading…", and the page
        // pushed next the loaded, empty list.
        if !first.body.contains("id=\"empty\"") {
            #expect(
                first.body.contains("id=\"loading\""), "the first page is neither loading nor loaded:\n\(first.body)")
            _ = try await pages.first(where: { $0.contains("id=\"empty\"") }, "the loaded, empty list")
        }

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
        #expect(try await browser.intent("list.open:\(id)", token: token).status == 204)
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
            where: {
                $0.contains("id=\"detail\"") && $0.contains("data-meeting=") && !$0.contains("id=\"saving-changes\"")
            }, "the saved meeting")
        #expect(detail.contains("detail.openMeeting:"))

        // On disk, for the terminal app and the next server.
        let stored = try StandupsStore(directory: web.directory).load()
        #expect(stored.map(\.title) == [hostile])
        #expect(stored.first?.meetings.count == 1)
    }

    @Test("a stand-up of thirty attendees with long names beyond ASCII is one form, taken whole")
    func aLargeFormIsTakenWhole() async throws {
        try await Fixture.with { web in
            let browser = WebClient(base: web.host.baseURL)
            let token = try #require(WebClient.token(in: try await browser.get("/").body))
            let pages = browser.events()
            #expect(try await browser.intent("list.add", token: token).status == 204)
            var form = try await pages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")
            for count in 2...30 {
                #expect(try await browser.intent("form.addAttendee", token: token).status == 204)
                form = try await pages.first(
                    where: { $0.components(separatedBy: "name=\"attendee.").count == count + 1 }, "\(count) fields")
            }
            let fields = form.components(separatedBy: "name=\"attendee.").dropFirst().compactMap { rest in
                rest.firstIndex(of: "\"").map { "attendee." + rest[..<$0] }
            }
            // Sixty letters each (the longest name kept), two bytes each in
            // UTF-8 and six as the browser sends them: 14 kB of names.
            let name = String(repeating: "Ж", count: Attendee.maxNameLength)
            let answer = try await browser.intent(
                "form.done", token: token,
                fields: [("title", "Планёрка"), ("minutes", "15"), ("theme", "teal")] + fields.map { ($0, name) })
            #expect(answer.status == 204, "\(answer.status): \(answer.body)")
            // Shown at once, durable once the page stops saying "Saving…".
            _ = try await pages.first(
                where: { $0.contains("30 attendees") && !$0.contains("id=\"saving-changes\"") }, "the card, saved")
            let stored = try StandupsStore(directory: web.directory).load()
            #expect(stored.first?.attendees.map(\.name) == Array(repeating: name, count: 30))
        }
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

    @Test("a page opened at a screen's address opens that screen; a meeting's address joins it only when it runs")
    func aPageOpensAtItsAddress() async throws {
        try await Fixture.with(standups: [.mock, .engineeringMock]) { web in
            let standupPath = "/standups/\(Standup.mock.id.uuidString.lowercased())"
            // A stand-up's address: its screen, and the pushes keep the
            // address.
            let reader = WebClient(base: web.host.baseURL)
            let opened = try await reader.get(standupPath)
            #expect(opened.status == 200)
            #expect(opened.body.contains("id=\"detail\"") && opened.body.contains("Design"), "\(opened.body)")
            let pushed = try await reader.events().first(where: { _ in true }, "the first push")
            #expect(pushed.contains("data-page-path=\"\(standupPath)\""))
            // A meeting's address while no meeting runs: the stand-up's
            // screen; nothing is started by opening an address.
            let early = try await WebClient(base: web.host.baseURL).get(standupPath + "/meeting")
            #expect(early.body.contains("id=\"detail\"") && !early.body.contains("id=\"meeting\""))
            #expect(web.env.meetings.count == 0)
            // Once it runs, the same address joins it.
            let host = WebClient(base: web.host.baseURL)
            let token = try #require(WebClient.token(in: try await host.get("/").body))
            let pages = host.events()
            try await Self.startMeeting(of: Standup.mock.id.uuidString, client: host, token: token, pages: pages)
            // Its stand-up's screen says so, and Start joins it.
            let inProgress = try await WebClient(base: web.host.baseURL).get(standupPath)
            #expect(inProgress.body.contains("id=\"meeting-in-progress\"") && inProgress.body.contains("Join meeting"))
            let joined = try await WebClient(base: web.host.baseURL).get(standupPath + "/meeting")
            #expect(joined.body.contains("id=\"meeting\""), "\(joined.body)")
            #expect(web.env.meetings.count == 1)
            // Addresses of nothing: a stand-up that is not there opens the
            // list; anything else is not found.
            let gone = try await WebClient(base: web.host.baseURL).get("/standups/\(UUID().uuidString)")
            #expect(gone.status == 200 && gone.body.contains("id=\"standups\""))
            #expect(try await WebClient(base: web.host.baseURL).get("/standups/nope").status == 404)
            #expect(try await WebClient(base: web.host.baseURL).get(standupPath + "/elsewhere").status == 404)
        }
    }

    @Test("two browsers edit one stand-up at once: both edits kept, the second told whose title it replaced")
    func twoBrowsersEditOneStandupAtOnce() async throws {
        try await Fixture.with(standups: [.mock]) { web in
            var browsers: [(client: WebClient, token: String, pages: AsyncThrowingStream<String, any Error>)] = []
            for _ in 0..<2 {
                let client = WebClient(base: web.host.baseURL)
                let token = try #require(WebClient.token(in: try await client.get("/").body))
                let pages = client.events()
                #expect(try await client.intent("list.open:\(Standup.mock.id)", token: token).status == 204)
                _ = try await pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
                #expect(try await client.intent("detail.edit", token: token).status == 204)
                _ = try await pages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")
                browsers.append((client, token, pages))
            }
            let (first, second) = (browsers[0], browsers[1])
            #expect(
                try await first.client.intent("form.done", token: first.token, fields: [("title", "Theirs")])
                    .status == 204)
            _ = try await first.pages.first(where: { $0.contains(">Theirs<") }, "the first's edit")
            #expect(
                try await second.client.intent(
                    "form.done", token: second.token, fields: [("title", "Mine"), ("minutes", "20")]
                ).status == 204)
            let told = try await second.pages.first(where: { $0.contains("id=\"conflicts\"") }, "the conflict")
            #expect(told.contains("Its title was also changed elsewhere, to “Theirs”; yours is kept."))
            #expect(try StandupsStore(directory: web.directory).load().first?.title == "Mine")
            // "Use theirs": their title back, the second's length kept.
            #expect(try await second.client.intent("app.takeTheirs", token: second.token).status == 204)
            _ = try await second.pages.first(
                where: { !$0.contains("id=\"conflicts\"") && $0.contains(">Theirs<") }, "their title back")
            _ = try await first.pages.first(where: { $0.contains("20 min") }, "the second's length, in the first")
            // Once written:
            for await state in web.env.standups.run.states
            where state.isSaved && state.standups.first?.title == "Theirs" {
                break
            }
            let saved = try StandupsStore(directory: web.directory).load().first
            #expect(saved?.title == "Theirs" && saved?.minutes == 20)
        }
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

    @Test("a recorded meeting's microphone: one viewer holds the floor, its audio reaches the room, others wait")
    func theMicrophoneOfARecordedMeeting() async throws {
        let standup = Standup(
            id: UUID(), title: "Ops", attendees: [Attendee(id: UUID(), name: "Ann"), Attendee(id: UUID(), name: "Bo")])
        try await Fixture.with(microphones: RemoteMicrophones(), counting: true, standups: [standup]) { web in
            try await theMicrophoneOfARecordedMeeting(web, standup: standup.id.uuidString)
        }
    }

    func theMicrophoneOfARecordedMeeting(_ web: Fixture, standup id: String) async throws {
        var viewers: [(client: WebClient, token: String, pages: AsyncThrowingStream<String, any Error>)] = []
        for _ in 0..<2 {
            let client = WebClient(base: web.host.baseURL)
            let token = try #require(WebClient.token(in: try await client.get("/").body))
            let pages = client.events()
            // Before the meeting, the page offers no microphone.
            let early = try await Self.openMicrophone(web, client.cookie, token)
            #expect(try await early.closeReason().code == 4004)
            #expect(try await client.intent("list.open:\(id)", token: token).status == 204)
            _ = try await pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
            #expect(try await client.intent("detail.start", token: token).status == 204)
            let meeting = try await pages.first(where: { $0.contains("data-microphone=") }, "the recorded meeting")
            // Pushed content names no session: the page's script puts in
            // the token of the page it loaded.
            #expect(meeting.contains("data-microphone=\"microphone\" data-token=\"\u{1}oak-token\u{1}\""))
            viewers.append((client, token, pages))
        }
        let (first, second) = (viewers[0], viewers[1])
        let speaking = try await Self.openMicrophone(web, first.client.cookie, first.token)
        try await speaking.sendBinary(Array(repeating: 0, count: 3_200))
        for viewer in viewers {
            _ = try await viewer.pages.first(where: { $0.contains("1600 samples") }, "the room heard 100 ms")
        }
        // The floor is held: the second viewer waits.
        let waiting = try await Self.openMicrophone(web, second.client.cookie, second.token)
        let refused = try await waiting.closeReason()
        #expect(refused.code == 4009)
        #expect(refused.reason == "Someone else's microphone is on. Speak once they stop theirs.")
        // Given up (a second of silence ends the utterance), it is free.
        await speaking.close()
        _ = try await second.pages.first(where: { $0.contains("17600 samples") }, "the silence after the floor")
        let next = try await Self.openMicrophone(web, second.client.cookie, second.token)
        try await next.sendBinary(Array(repeating: 0, count: 320))
        _ = try await first.pages.first(where: { $0.contains("17760 samples") }, "the second speaker")
        // Malformed audio closes the stream with the reason.
        try await next.sendBinary([1, 2, 3])
        #expect(try await next.closeReason().code == 4000)
    }

    @Test("a session that expires on the host's clock leaves its meeting's room; the room and its viewers go on")
    func anExpiredSessionLeavesTheRoom() async throws {
        let standup = Standup(
            id: UUID(), title: "Ops", attendees: [Attendee(id: UUID(), name: "Ann"), Attendee(id: UUID(), name: "Bo")])
        let clock = TestClock()
        try await Fixture.with(standups: [standup], clock: clock) { web in
            let id = standup.id.uuidString
            // One viewer with its page open, one that only posts.
            let staying = WebClient(base: web.host.baseURL)
            let stayingToken = try #require(WebClient.token(in: try await staying.get("/").body))
            let pages = staying.events()
            try await Self.startMeeting(of: id, client: staying, token: stayingToken, pages: pages)
            let leaving = WebClient(base: web.host.baseURL)
            let leavingToken = try #require(WebClient.token(in: try await leaving.get("/").body))
            // The second has no open page: it looks at its page until it
            // shows what it posts next (a post performs only what the
            // current page offers); between looks, it waits for the room's
            // next tick on the first page.
            func leavingPage(shows marker: String) async throws -> Bool {
                for _ in 0..<5 {
                    if try await leaving.get("/").body.contains(marker) { return true }
                    _ = try await pages.first(where: { $0.contains("data-elapsed=") }, "a tick")
                }
                return false
            }
            #expect(try await leaving.intent("list.open:\(id)", token: leavingToken).status == 204)
            #expect(try await leavingPage(shows: "id=\"detail\""))
            #expect(try await leaving.intent("detail.start", token: leavingToken).status == 204)
            #expect(try await leavingPage(shows: "id=\"question\""))
            #expect(try await leaving.intent("detail.continue", token: leavingToken).status == 204)
            // The second joins the room once its run has handled the answer.
            let joined = try await leavingPage(shows: "id=\"meeting\"")
            #expect(joined)
            #expect(web.env.meetings.viewers(of: standup.id) == 2)

            await clock.advance(by: .seconds(31 * 60))
            let report = await web.host.sweep()
            #expect(report.expired == 1)
            #expect(report.kept == 1)
            #expect(web.env.meetings.viewers(of: standup.id) == 1, "the expired session left the room")
            #expect(web.env.meetings.count == 1, "the room goes on")
            // Its meeting still ticks for the viewer that stayed.
            let now = try #require(
                Self.value(of: "data-elapsed", in: try await staying.get("/").body).flatMap(Int.init))
            _ = try await pages.first(where: { $0.contains("data-elapsed=\"\(now + 1)\"") }, "the next tick")
            // The expired session's browser starts anew, on the list.
            let again = try await leaving.get("/")
            #expect(again.body.contains("id=\"standups\""))
            #expect(again.header("Set-Cookie") != nil)
        }
    }

    /// A WebSocket to the meeting's microphone, as the page opens it.
    static func openMicrophone(
        _ web: Fixture, _ cookie: String?, _ token: String
    ) async throws
        -> WebSocketTestClient
    {
        let url = web.host.baseURL.replacingOccurrences(of: "http:", with: "ws:") + "/streams/microphone?token=\(token)"
        return try await WebSocketTestClient.connect(
            to: url, headers: ["Cookie": cookie ?? "", "Origin": web.host.baseURL])
    }

    /// Opens stand-up `id` and starts its meeting, continuing without
    /// recording; returns once the meeting's page is pushed.
    static func startMeeting(
        of id: String, client: WebClient, token: String, pages: AsyncThrowingStream<String, any Error>
    ) async throws {
        #expect(try await client.intent("list.open:\(id)", token: token).status == 204)
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

extension SpeechClient {
    /// A recogniser that counts the samples of `audio` ("1600 samples").
    static func counting(_ audio: @escaping @Sendable () -> AsyncStream<[Int16]>) -> SpeechClient {
        SpeechClient(
            authorization: { .authorized }, requestAuthorization: { .authorized },
            transcripts: {
                AsyncThrowingStream { continuation in
                    let task = Task {
                        var count = 0
                        for await chunk in audio() {
                            count += chunk.count
                            continuation.yield("\(count) samples")
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            })
    }
}
