// End to end in a real pseudo-terminal: `standups` in tmux, driven by keys
// as a person would, with a spoken WAV file as the meeting's audio and a
// fresh data directory: a stand-up added (its keys typed in one go, as
// fast as a paste), a meeting with Next and the time running out, its
// transcript, and everything still there after a restart. Every wait polls
// the screen with a deadline; no sleep stands in for a synchronisation.

import Foundation
import StandupsTestSupport
import TerminalTesting
import Testing

@Suite(
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"),
    .enabled(if: SpeechTools.shouldRun, "the real-audio test needs festival, sox and pocketsphinx"),
    .timeLimit(.minutes(2)))
struct TerminalTests {
    @Test func aMeetingWithItsTranscriptIsKeptAcrossRestarts() async throws {
        guard SpeechTools.check() else { return }
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let audio = try await SpeechTools.speak(
            "the meeting starts now. we fixed the bug in the timer.", into: scratch.url)
        // Five minutes pass in thirty seconds: a speaker's turn is ten
        // seconds, long enough that a screen read late on a loaded machine
        // still sees it before Next is pressed (at fifteen seconds, five a
        // turn, a late read once let Next skip Bo's turn entirely).
        let command = try BuiltProgram.script(
            running: standups,
            ["--data-dir", scratch.path("data").path, "--audio", audio.path, "--speed", "10"], scratch: scratch)

        try await TmuxSession.with(running: command, width: 100, height: 30, scratch: scratch.url) { tmux in
            try await tmux.waitFor("Oak Standups · stand-ups", "No stand-ups yet.")
            // Typed in one go: each key is read in the state the one before
            // led to (the form opens before "Retro" is typed into it).
            try await tmux.send(keys: ["a", "Retro", "Tab", "Tab", "Tab", "Ann", "C-n", "Bo", "C-n", "Cy", "Enter"])
            try await tmux.waitFor("▶  Retro", "5 min · 3 attendees")

            try await tmux.send(keys: "Enter")
            try await tmux.waitFor("Oak Standups · Retro", "Start meeting", "Ann, Bo, Cy", "None yet.")
            try await tmux.send(keys: "s")
            try await tmux.waitFor("Speaker 1 of 3: Ann")
            try await tmux.send(keys: "n")
            try await tmux.waitFor("Speaker 2 of 3: Bo")
            // The time runs out: the meeting is saved and its screen closes.
            let detail = try await tmux.waitFor("Oak Standups · Retro", "Past meetings", " at ", timeout: .seconds(40))
            #expect(!detail.contains("None yet."), "\(detail)")

            try await tmux.send(keys: "Enter")
            try await tmux.waitFor("past meeting", "Transcript", "meeting starts now", "timer")
            try await tmux.send(keys: ["Escape", "q"])
            try await tmux.waitFor("EXITED 0")
        }

        // The data directory is the user's alone.
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path("data").path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)

        // Started again: the stand-up and its meeting are there.
        try await TmuxSession.with(running: command, width: 100, height: 30, scratch: scratch.url) { tmux in
            try await tmux.waitFor("▶  Retro", "5 min · 3 attendees")
            try await tmux.send(keys: "Enter")
            let kept = try await tmux.waitFor("Past meetings", " at ")
            #expect(kept.contains("Ann, Bo, Cy"), "the attendees were not kept:\n\(kept)")
            try await tmux.send(keys: "Enter")
            try await tmux.waitFor("meeting starts now", "timer")
            try await tmux.send(keys: "q")
            try await tmux.waitFor("EXITED 0")
        }
    }
}
