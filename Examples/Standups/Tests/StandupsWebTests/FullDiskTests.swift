// A full disk under a running meeting (SQLite): the stand-ups' file on a
// small file system of its own (tmpfs), filled up by another file while a
// meeting runs. The meeting goes on, its save waits (the page says so),
// and once there is room again it is written by itself, once. Needs to
// mount a file system (root with CAP_SYS_ADMIN, as on CI); skipped
// otherwise, saying why.

import Foundation
import Models
import StandupsStore
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

/// Whether this process may mount a file system: CAP_SYS_ADMIN (bit 21)
/// among its effective capabilities.
let mayMount: Bool = {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
        let capabilities = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return capabilities & (1 << 21) != 0
}()

@Suite(
    "A full disk", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: mayMount, "needs to mount a small file system (root with CAP_SYS_ADMIN)"))
struct FullDiskTests {

    @Test func aMeetingGoesOnWhileTheDiskIsFullAndIsSavedOnceThereIsRoom() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let disk = scratch.path("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk.path],
            scratch: scratch.url)
        try #require(mounted.exited(with: 0), "mount -t tmpfs failed: \(mounted)")
        do {
            try await run(on: disk)
        } catch {
            _ = try? await Subprocess.run(URL(fileURLWithPath: "/bin/umount"), ["-l", disk.path], scratch: scratch.url)
            throw error
        }
        _ = try await Subprocess.run(URL(fileURLWithPath: "/bin/umount"), ["-l", disk.path], scratch: scratch.url)
    }

    private func run(on disk: URL) async throws {
        let daily = Standup(
            id: UUID(number: 0xD15C), title: "Daily", durationSeconds: 600,
            attendees: [Attendee(id: UUID(number: 0xD15D), name: "Ann")])
        try await StandupsWebTests.Fixture.with(standups: [daily], in: disk) { web in
            let client = WebClient(base: web.host.baseURL)
            let token = try #require(WebClient.token(in: try await client.get("/").body))
            let pages = client.events()
            try await StandupsWebTests.startMeeting(
                of: daily.id.uuidString, client: client, token: token, pages: pages)

            // The disk fills up.
            let filler = disk.appendingPathComponent("filler")
            try Self.fill(filler)
            // The meeting goes on, and is ended and saved: the save waits,
            // and the page says so.
            let full = try await pages.first(where: { Self.elapsed(in: $0) != nil }, "the meeting")
            let elapsed = try #require(Self.elapsed(in: full))
            _ = try await pages.first(where: { (Self.elapsed(in: $0) ?? 0) >= elapsed + 2 }, "the meeting going on")
            #expect(try await client.intent("meeting.end", token: token).status == 204)
            _ = try await pages.first(where: { $0.contains("meeting.save") }, "the question")
            #expect(try await client.intent("meeting.save", token: token).status == 204)
            _ = try await pages.first(
                where: { $0.contains("id=\"save-failure\"") && $0.contains("id=\"saving\"") },
                "the save waiting, said")

            // Room again: written by itself, once.
            try FileManager.default.removeItem(at: filler)
            _ = try await pages.first(
                where: { !$0.contains("id=\"save-failure\"") && $0.contains("id=\"detail\"") },
                "the stand-up, its meeting saved")
            let saved = try StandupsStore(directory: web.directory).load().first { $0.id == daily.id }
            #expect(saved?.meetings.count == 1)
        }
    }

    /// Fills the file system of `file` (until it has no room left).
    static func fill(_ file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let chunk = Data(count: 64 * 1024)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        // The last bytes that fit.
        let byte = Data(count: 1)
        while (try? handle.write(contentsOf: byte)) != nil {}
    }

    static func elapsed(in page: String) -> Int? { elapsedSeconds(in: page) }
}
