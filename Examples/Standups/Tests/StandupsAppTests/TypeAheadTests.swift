// Keys typed ahead, in a real pseudo-terminal: `a NAME Enter Enter` typed in
// one go adds a stand-up and opens it — the second Enter is read once the
// list has the new stand-up, which becomes the selection.

import Foundation
import StandupsTestSupport
import TerminalTesting
import Testing

@Suite(
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"),
    .timeLimit(.minutes(1)))
struct TypeAheadTests {
    @Test func keysTypedAheadMeetTheScreenTheyWereTypedFor() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let command = try BuiltProgram.script(
            running: standups, ["--data-dir", scratch.path("data").path], scratch: scratch)
        try await TmuxSession.with(running: command, width: 90, height: 26, scratch: scratch.url) { tmux in
            try await tmux.waitFor("Oak Standups · stand-ups", "No stand-ups yet.")
            for name in ["Alpha", "Bravo", "Charlie"] {
                try await tmux.send(keys: ["a", name, "Enter", "Enter"])
                try await tmux.waitFor("Oak Standups · \(name)", "Start meeting")
                try await tmux.send(keys: "Escape")
                try await tmux.waitFor("Oak Standups · stand-ups", "▶  \(name)")
            }
            try await tmux.send(keys: "q")
            try await tmux.waitFor("EXITED 0")
        }
    }
}
