// A full disk and a read-only data file under a running meeting (SQLite).
// The meeting goes on, its save waits (the page says so), and once the
// file can be written again the meeting is written by itself, once.
//
// The full disk is a small file system of its own (tmpfs) filled up by
// another file: it needs to mount one (root with CAP_SYS_ADMIN, as on CI).
// The read-only file is made immutable (`chattr +i`, CAP_LINUX_IMMUTABLE):
// permission bits do not stop root, nor a process whose file is already
// open, while an immutable file refuses every write at once. Its shared
// memory index (`-shm`) is left alone, as SQLite maps it. Each is skipped
// without its capability, saying why.

import Foundation
import Models
import StandupsStore
import StandupsTestSupport
import TerminalTesting
import Testing
import WebTesting

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
        let filler = disk.appendingPathComponent("filler")
        try await Self.meetingGoesOnWhileTheStoreCannotWrite(
            in: disk, blocking: { _ in try Self.fill(filler) },
            unblocking: { _ in try FileManager.default.removeItem(at: filler) })
    }

    /// Starts a meeting, blocks the store's writes with `blocking` while it
    /// runs, ends and saves it, checks that it goes on and that the page
    /// says the save waits; then unblocks them and checks that the meeting
    /// is written by itself, once.
    static func meetingGoesOnWhileTheStoreCannotWrite(
        in parent: URL, blocking: (URL) async throws -> Void, unblocking: (URL) async throws -> Void
    ) async throws {
        let daily = Standup(
            id: UUID(number: 0xD15C), title: "Daily", durationSeconds: 600,
            attendees: [Attendee(id: UUID(number: 0xD15D), name: "Ann")])
        try await StandupsWebTests.Fixture.with(standups: [daily], in: parent) { web in
            let client = WebClient(base: web.host.baseURL)
            let token = try #require(WebClient.token(in: try await client.get("/").body))
            let pages = client.events()
            try await StandupsWebTests.startMeeting(
                of: daily.id.uuidString, client: client, token: token, pages: pages)

            // The store cannot write.
            try await blocking(web.directory)
            do {
                // The meeting goes on, and is ended and saved: the save
                // waits, and the page says so.
                let now = try await pages.first(where: { elapsedSeconds(in: $0) != nil }, "the meeting")
                let elapsed = try #require(elapsedSeconds(in: now))
                _ = try await pages.first(
                    where: { (elapsedSeconds(in: $0) ?? 0) >= elapsed + 2 }, "the meeting going on")
                #expect(try await client.intent("meeting.end", token: token).status == 204)
                _ = try await pages.first(where: { $0.contains("meeting.save") }, "the question")
                #expect(try await client.intent("meeting.save", token: token).status == 204)
                _ = try await pages.first(
                    where: { $0.contains("id=\"save-failure\"") && $0.contains("id=\"saving\"") },
                    "the save waiting, said")
            } catch {
                try? await unblocking(web.directory)
                throw error
            }

            // It can again: written by itself, once.
            try await unblocking(web.directory)
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

}

@Suite(
    "A read-only data file", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: mayMakeImmutable, "needs to make a file immutable (root with CAP_LINUX_IMMUTABLE)"))
struct ReadOnlyFileTests {

    @Test func aMeetingGoesOnWhileTheDataFileIsReadOnlyAndIsSavedOnceItIsWritable() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // The files are made writable again whatever happens, or the
        // scratch directory could not be removed.
        var immutable: [URL] = []
        defer { _ = try? chattr("-i", immutable) }
        try await FullDiskTests.meetingGoesOnWhileTheStoreCannotWrite(
            in: scratch.url,
            blocking: { directory in
                immutable = try sqliteFiles(named: StandupsStore.fileName, in: directory)
                try #require(!immutable.isEmpty, "no stand-ups file in \(directory.path)")
                try chattr("+i", immutable)
            },
            unblocking: { _ in
                try chattr("-i", immutable)
                immutable = []
            })
    }
}
