// Two `standups serve` processes against one PostgreSQL database, as a team
// runs them behind a load balancer: an edit made in a session of the first
// is pushed to a page of the second; a meeting runs in exactly one of them
// (the other sends its viewers there); and when the process running a
// meeting is killed, what was saved stays and the other process resumes the
// meeting from its last checkpoint (failover), where a viewer lands in it
// and ends it, saved once. Against the
// server OAK_TEST_POSTGRES names (a database of its own); skipped without
// one, saying what to set; on CI they must run.

import Foundation
import IdentifiedCollections
import Models
import PostgresStandups
import PostgresSupport
import PostgresTesting
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite(
    "Two servers, one database", .serialized, .timeLimit(.minutes(2)),
    .postgres)
struct TwoServersTests {
    static let daily = Standup(
        id: UUID(uuidString: "00000000-0000-0000-0000-00000000DA11") ?? UUID(), title: "Daily", durationSeconds: 60,
        attendees: [Attendee(id: UUID(), name: "Ann"), Attendee(id: UUID(), name: "Bo")],
        meetings: [Meeting(id: UUID(), date: Date(timeIntervalSince1970: 1_700_000_000), transcript: "saved before")])
    static let retro = Standup(
        id: UUID(uuidString: "00000000-0000-0000-0000-0000000AE720") ?? UUID(), title: "Retro", durationSeconds: 60,
        attendees: [Attendee(id: UUID(), name: "Cy")])

    @Test func aStandupEditedThroughOneServerIsPushedToAPageOfTheOther() async throws {
        try await withServers(speeds: [1, 1]) { first, second, _ in
            let reader = try await Browser.open(second)
            _ = try await reader.pages.first(where: { $0.contains(">Daily") }, "the list")
            let writer = try await Browser.open(first)
            try await writer.openStandup(Self.daily.id)
            #expect(try await writer.send("detail.edit") == 204)
            _ = try await writer.pages.first(where: { $0.contains("id=\"standup-form\"") }, "the form")
            #expect(try await writer.send("form.done", fields: [("title", "Daily sync")]) == 204)
            _ = try await reader.pages.first(where: { $0.contains(">Daily sync") }, "the edit, pushed")
        }
    }

    @Test func aMeetingRunsInOneProcessAndGoesOnInTheOtherWhenItsProcessIsKilled() async throws {
        try await withServers(speeds: [1, 1]) { first, second, location in
            // A meeting started through the first runs there…
            let host = try await Browser.open(first)
            try await host.startMeeting(of: Self.daily.id)
            let before = try await host.pages.first(
                where: { (elapsedSeconds(in: $0) ?? 0) >= 2 }, "two seconds of the meeting")
            let elapsedBefore = try #require(elapsedSeconds(in: before))
            // …and a viewer of the second is sent there, not given a second run.
            let guest = try await Browser.open(second)
            try await guest.openStandup(Self.daily.id)
            let sent = try await guest.client.intent("detail.start", token: guest.token)
            #expect(sent.status == 204)
            // Straight into the meeting there (its address).
            let meetingPath = "/standups/\(Self.daily.id.uuidString.lowercased())/meeting"
            #expect(sent.header("X-Oak-Location") == first.baseURL + meetingPath)

            // Two sessions starting one meeting at once, one per process:
            // one runs it, the other is sent to it.
            let one = try await Browser.open(first)
            let other = try await Browser.open(second)
            try await one.openStandup(Self.retro.id)
            try await other.openStandup(Self.retro.id)
            async let a = one.client.intent("detail.start", token: one.token)
            async let b = other.client.intent("detail.start", token: other.token)
            let places = [try await a.header("X-Oak-Location"), try await b.header("X-Oak-Location")]
            #expect(places.filter { $0 == nil }.count == 1, "\(places)")
            #expect(
                places.contains { $0?.hasSuffix("/standups/\(Self.retro.id.uuidString.lowercased())/meeting") == true })

            // The first process is killed in the middle of Daily's meeting.
            await first.kill()
            // The second resumes it once the database has seen the first go
            // (its connection, and its claims, are gone): the guest is no
            // longer sent away, and lands in the meeting where it was.
            var redirected = true
            for _ in 0..<200 where redirected {
                redirected =
                    try await guest.client.intent("detail.start", token: guest.token)
                    .header("X-Oak-Location") != nil
                if redirected { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(!redirected)
            _ = try await guest.pages.first(where: { $0.contains("detail.continue") }, "the question")
            #expect(try await guest.send("detail.continue") == 204)
            let resumed = try await guest.pages.first(where: { elapsedSeconds(in: $0) != nil }, "the resumed meeting")
            #expect(try #require(elapsedSeconds(in: resumed)) >= elapsedBefore, "\(resumed)")
            // A page of the killed process reloads at its address on a
            // live one (behind a load balancer: the same address): it
            // lands in the running meeting, with no click.
            let reloaded = try await WebClient(base: second.baseURL).get(meetingPath)
            #expect(reloaded.status == 200)
            #expect(reloaded.body.contains("id=\"meeting\""), "\(reloaded.body)")
            #expect((elapsedSeconds(in: reloaded.body) ?? 0) >= elapsedBefore)
            // Ended there and saved, once.
            #expect(try await guest.send("meeting.end") == 204)
            _ = try await guest.pages.first(where: { $0.contains("meeting.save") }, "the question before ending")
            #expect(try await guest.send("meeting.save") == 204)
            _ = try await guest.pages.first(
                where: { $0.contains("id=\"detail\"") && $0.components(separatedBy: "data-meeting=").count == 3 },
                "the stand-up with the meeting just saved")

            // What the database holds once the second has stopped: the
            // meeting saved before and the one the first process started and
            // the second ended; no checkpoint of Daily's is left.
            #expect(await second.signal(SIGINT, within: .seconds(15)) == 0)
            let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let store = try await PostgresStandups.open(
                database, deadline: PostgresTestServer.deadline, logger: PostgresTestServer.logger)
            let saved = try #require(try await store.load().first { $0.id == Self.daily.id })
            #expect(saved.meetings.count == 2)
            #expect(saved.meetings.last?.transcript == "saved before")
            #expect(try await store.checkpoints().allSatisfy { $0.standup != Self.daily.id })
            await database.close()
        }
    }

    /// Runs `body` with two `standups serve` processes (meetings at
    /// `speeds`, not recorded) on a database of its own holding Daily and
    /// Retro; stops them after.
    private func withServers(
        speeds: [Int], _ body: (ServerProcess, ServerProcess, PostgresLocation) async throws -> Void
    ) async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let store = try await PostgresStandups.open(
                database, deadline: PostgresTestServer.deadline, logger: PostgresTestServer.logger)
            try await store.save([.add(Self.daily), .add(Self.retro)])
            await database.close()
            var servers: [ServerProcess] = []
            do {
                for speed in speeds {
                    servers.append(
                        try await ServerProcess.start(
                            standups,
                            arguments: [
                                "serve", "--port", "0", "--no-speech", "--speed", "\(speed)", "--database",
                                "\(location)",
                            ]))
                }
                try await body(servers[0], servers[1], location)
            } catch {
                for server in servers { _ = await server.signal(SIGINT, within: .seconds(15)) }
                throw error
            }
            // Bounded: a server that does not stop within 15 s is killed.
            for server in servers { _ = await server.signal(SIGINT, within: .seconds(15)) }
        }
    }
}

/// A browser's session on one server: its token and pushed pages.
struct Browser {
    let client: WebClient
    let token: String
    let pages: AsyncThrowingStream<String, any Error>

    static func open(_ server: ServerProcess) async throws -> Browser {
        let client = WebClient(base: server.baseURL)
        let first = try await client.get("/")
        #expect(first.status == 200)
        return Browser(client: client, token: try #require(WebClient.token(in: first.body)), pages: client.events())
    }

    /// Sends intent `name`; the response's status.
    func send(_ name: String, fields: [(String, String)] = []) async throws -> Int {
        try await client.intent(name, token: token, fields: fields).status
    }

    /// Opens stand-up `id`; returns once its page is pushed.
    func openStandup(_ id: UUID) async throws {
        #expect(try await send("list.open:\(id.uuidString)") == 204)
        _ = try await pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
    }

    /// Opens stand-up `id` and starts its meeting, not recorded; returns
    /// once the meeting's page is pushed.
    func startMeeting(of id: UUID) async throws {
        try await openStandup(id)
        #expect(try await send("detail.start") == 204)
        _ = try await pages.first(where: { $0.contains("detail.continue") }, "the question")
        #expect(try await send("detail.continue") == 204)
        _ = try await pages.first(where: { $0.contains("id=\"meeting\"") }, "the meeting")
    }
}
