// `standups serve --inspect`, a meeting running, watched in the inspector's
// page in Chromium: the meeting's run is listed and its state ticks; the
// server killed mid-meeting and started again, the resumed meeting's run
// is marked restored from its checkpoint.

import Foundation
import InspectorServer
import Logging
import StandupsStore
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

#if canImport(Glibc)
import Glibc
#endif

@Suite("Standups, inspected", .timeLimit(.minutes(2)), .needsChromium)
struct InspectorTests {
    /// Clicks the newest run of `type` in the page's tree.
    static func choose(_ type: String, in browser: WebDriver) async throws {
        _ = try await browser.run(
            """
            const runs = [...document.querySelectorAll('#runs button')]
              .filter(b => b.querySelector(".type")?.textContent === args[0]);
            runs[runs.length - 1].click();
            """, [type])
    }

    /// The JavaScript condition: a run of `type` is listed (`restored`: and
    /// marked restored).
    static func listed(_ type: String, restored: Bool = false) -> String {
        "[...document.querySelectorAll('#runs button')].some(b => b.querySelector('.type')?.textContent === '\(type)'"
            + (restored ? " && b.querySelector('.restored') !== null)" : ")")
    }

    @Test func aMeetingIsWatchedLiveAndOnceResumedIsMarkedRestored() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        try StandupsStore(directory: data).save([.add(MeetingSurvivesRestartTests.standup)])
        let inspector = try await InspectorServer.start(logger: Logger(label: "test.inspector"))
        let arguments = [
            "serve", "--port", "0", "--no-speech", "--data-dir", data.path, "--inspect", inspector.endpoint,
        ]
        let browser = try await WebDriver.start(width: 1280, height: 900)
        try await withCleanup {
            let first = try await ServerProcess.start(standups, arguments: arguments)
            let viewer = try await MeetingSurvivesRestartTests.joinMeeting(first)
            _ = try await viewer.pages.first(where: { (elapsedSeconds(in: $0) ?? 0) >= 1 }, "a second of the meeting")

            try await browser.open(inspector.pageURL)
            try await browser.waitUntil(Self.listed("RecordMeeting"))
            #expect(try await browser.text("#runs .app").hasPrefix("standups · pid "))
            try await Self.choose("RecordMeeting", in: browser)
            try await browser.waitUntil(
                "document.getElementById('state')?.textContent.includes('title: \"Survivors\"')")
            // Live: each second of the meeting is a step.
            let seen = try #require(try await browser.text("#where").split(separator: " ").dropFirst(3).first)
            try await browser.waitUntil(
                "document.getElementById('where').textContent.split(' ')[3] !== '\(seen)'")
            #expect(try await browser.text("#where").hasSuffix("(live)"))
            try WebDriver.saveArtifact(try await browser.screenshot(), as: "inspector-standups.png")

            // Killed mid-meeting, then started again: the meeting resumes
            // from its checkpoint, and its run says so.
            await first.kill()
            let next = try await ServerProcess.start(standups, arguments: arguments)
            try await browser.waitUntil(Self.listed("RecordMeeting", restored: true))
            try await Self.choose("RecordMeeting", in: browser)
            try await browser.waitUntil(
                "document.querySelector('#run h2 .restored')?.textContent "
                    + "=== \"restored from the meeting's last checkpoint\"")
            #expect(await next.signal(SIGTERM, within: .seconds(10)) == 0)
        } cleanup: {
            await browser.quit()
            await inspector.stop()
        }
    }
}
