// Quitting the terminal app at once while its store cannot write (the
// stand-ups file made immutable, as a read-only file is for everyone but
// root): the app first says it is saving and offers to quit now; quitting
// now ends with 1 and lists every change the store did not take, its text
// escaped, so that nothing is lost without the user knowing what.

import Foundation
import StandupsStore
import StandupsTestSupport
import TerminalTesting
import Testing

@Suite(
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"),
    .enabled(if: mayMakeImmutable, "needs to make a file immutable (root with CAP_LINUX_IMMUTABLE)"),
    .timeLimit(.minutes(2)))
struct QuitUnsavedTests {
    @Test func quittingAtOnceSaysWhatWasNotSaved() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let command = try BuiltProgram.script(running: standups, ["--data-dir", data.path], scratch: scratch)
        var immutable: [URL] = []
        defer { try? chattr("-i", immutable) }

        try await TmuxSession.with(running: command, width: 100, height: 30, scratch: scratch.url) { tmux in
            try await tmux.waitFor("Oak Standups · stand-ups", "No stand-ups yet.")
            immutable = try sqliteFiles(named: StandupsStore.fileName, in: data)
            try #require(immutable.count == 2, "\(immutable)")
            try chattr("+i", immutable)

            try await tmux.send(keys: ["a", "Retro \"Q4\"", "Tab", "Tab", "Tab", "Ann", "Enter"])
            try await tmux.waitFor("▶  Retro \"Q4\"", "Not saved yet")
            try await tmux.send(keys: "q")
            try await tmux.waitFor("Saving before quitting…", "again: quit now")
            try await tmux.send(keys: "q")
            let screen = try await tmux.waitFor("EXITED 1")
            #expect(screen.contains("they are not saved"), "\(screen)")
            #expect(screen.contains(#"add the stand-up "Retro \"Q4\"""#), "\(screen)")
            #expect(screen.contains(#"attendees: "Ann""#), "\(screen)")
        }
        try chattr("-i", immutable)
        immutable = []
        #expect(try StandupsStore(directory: data).load().isEmpty)
    }
}
