// Processes that share a data directory (the terminal app and servers on
// one SQLite file) run each stand-up's meeting in one of them: the first
// to claim it holds it until it gives it up, the others are told its
// address. Two `FileMeetingHomes` on one directory stand for two
// processes: a file lock is held by an open file, not by a process.

import Devices
import Foundation
import Models
import StandupsStore
import Testing

@Suite("Meeting claims in a data directory")
struct FileMeetingHomesTests {
    @Test func aStandupsMeetingIsClaimedByOneProcessAtATime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oak-claims-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = FileMeetingHomes(directory: directory, address: { "http://127.0.0.1:8080" })
        let terminal = FileMeetingHomes(directory: directory, address: { "the terminal app on here" })
        let standup = UUID()
        let other = UUID()

        #expect(server.claim(standup) == .here)
        #expect(server.claim(standup) == .here, "Claimed again by its holder: still here.")
        #expect(terminal.claim(standup) == .elsewhere("http://127.0.0.1:8080"))
        #expect(terminal.claimIfKnown(standup) == .elsewhere("http://127.0.0.1:8080"))
        #expect(terminal.claim(other) == .here, "Each stand-up is claimed on its own.")
        #expect(server.claim(other) == .elsewhere("the terminal app on here"))

        server.release(standup)
        #expect(terminal.claim(standup) == .here, "Given up, it is anyone's.")
        #expect(server.claim(standup) == .elsewhere("the terminal app on here"))

        terminal.close()
        #expect(server.claim(standup) == .here, "A process that stops gives up every claim.")
        #expect(server.claim(other) == .here)
    }

    @Test func aDirectoryThatCannotHoldClaimsTellsNothing() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oak-claims-file-\(UUID())")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // The data directory is a file: where a meeting runs cannot be told.
        let homes = FileMeetingHomes(directory: file, address: { "here" })
        #expect(homes.claimIfKnown(UUID()) == nil)
        #expect(homes.claim(UUID()) == .here, "Not refused: it runs here, as with one process.")
    }
}
