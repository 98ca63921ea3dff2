// A meeting in progress survives its server: `standups serve` stopped with
// SIGTERM mid-meeting exits 0 and leaves the meeting's last checkpoint in
// the data directory, and one killed with SIGKILL leaves the last it wrote;
// the next server resumes it (the time away counted), a new page lands in
// it, and ending it saves it once, with the room's id.

import Foundation
import Models
import StandupsStore
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("A meeting survives its server", .timeLimit(.minutes(2)))
struct MeetingSurvivesRestartTests {
    static let standup = Standup(
        id: UUID(uuidString: "5A7E0000-0000-0000-0000-000000000001") ?? UUID(), title: "Survivors",
        durationSeconds: 600, theme: .teal,
        attendees: [Attendee(id: UUID(), name: "Ada"), Attendee(id: UUID(), name: "Linus")])

    /// Opens the stand-up in a new session and starts (or joins) its
    /// meeting, unrecorded; returns the session and its pages.
    static func joinMeeting(
        _ server: ServerProcess
    ) async throws -> (
        client: WebClient, token: String, pages: AsyncThrowingStream<String, any Error>
    ) {
        let client = WebClient(base: server.baseURL)
        let token = try #require(WebClient.token(in: try await client.get("/").body))
        let pages = client.events()
        #expect(try await client.intent("list.open:\(standup.id.uuidString)", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up")
        #expect(try await client.intent("detail.start", token: token).status == 204)
        _ = try await pages.first(where: { $0.contains("detail.continue") }, "the question about recording")
        #expect(try await client.intent("detail.continue", token: token).status == 204)
        return (client, token, pages)
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aMeetingGoesOnInTheNextServerAndIsSavedOnce(signal: Int32) async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        try StandupsStore(directory: data).save([.add(Self.standup)])
        let arguments = ["serve", "--port", "0", "--no-speech", "--data-dir", data.path]

        let first = try await ServerProcess.start(standups, arguments: arguments)
        let viewer = try await Self.joinMeeting(first)
        let before = try await viewer.pages.first(
            where: { (elapsedSeconds(in: $0) ?? 0) >= 2 }, "two seconds of the meeting")
        let elapsedBefore = try #require(elapsedSeconds(in: before))
        if signal == SIGKILL {
            await first.kill()
        } else {
            #expect(await first.signal(signal, within: .seconds(10)) == 0)
        }
        // Its last checkpoint is in the store; nothing was saved as a meeting.
        let kept = try StandupsStore(directory: data).checkpoints()
        #expect(kept.count == 1 && kept.first?.standup == Self.standup.id)
        #expect(try StandupsStore(directory: data).load().first?.meetings.isEmpty == true)

        // The next server resumes it: a new page lands in the running
        // meeting, at least where it was.
        let next = try await ServerProcess.start(standups, arguments: arguments)
        let again = try await Self.joinMeeting(next)
        let resumed = try await again.pages.first(where: { elapsedSeconds(in: $0) != nil }, "the resumed meeting")
        #expect(try #require(elapsedSeconds(in: resumed)) >= elapsedBefore, "\(resumed)")
        // Ended and saved there: one meeting, under the room's id, and no
        // checkpoint left.
        #expect(try await again.client.intent("meeting.end", token: again.token).status == 204)
        _ = try await again.pages.first(where: { $0.contains("meeting.save") }, "the question before ending")
        #expect(try await again.client.intent("meeting.save", token: again.token).status == 204)
        _ = try await again.pages.first(where: { $0.contains("id=\"detail\"") }, "the stand-up again")
        #expect(await next.signal(SIGTERM, within: .seconds(10)) == 0)
        let meetings = try StandupsStore(directory: data).load().first?.meetings
        #expect(meetings?.count == 1)
        #expect(meetings?.first?.id == kept.first?.room)
        #expect(try StandupsStore(directory: data).checkpoints().isEmpty)
    }
}
