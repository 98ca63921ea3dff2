// The program's options, as a person mistyping them meets them: each
// mistake is refused before the terminal is taken over, with what to do.

import Foundation
import TerminalTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CommandTests {
    @Test func mistakenOptionsAreRefusedSayingWhatToDo() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let notWAV = scratch.path("notes.txt")
        try Data("minutes of the meeting".utf8).write(to: notWAV)

        let speed = try await Subprocess.run(standups, ["--speed", "0"], scratch: scratch.url)
        #expect(speed.exited(with: 64), "\(speed)")
        #expect(speed.errors.contains("--speed takes a factor from 1 (real time) to 600"), "\(speed)")

        // A negative factor is a value refused with the range, not a
        // missing value.
        let negative = try await Subprocess.run(standups, ["--speed", "-1"], scratch: scratch.url)
        #expect(negative.exited(with: 64), "\(negative)")
        #expect(negative.errors.contains("--speed takes a factor from 1 (real time) to 600"), "\(negative)")

        // A directory, a file that is not there, one that may not be read:
        // each said as such.
        let directory = try await Subprocess.run(standups, ["--audio", scratch.url.path], scratch: scratch.url)
        #expect(directory.exited(with: 64), "\(directory)")
        #expect(directory.errors.contains("it is a directory; give a WAV file"), "\(directory)")
        #expect(!directory.errors.contains("NSCocoaErrorDomain"), "\(directory)")
        let missing = try await Subprocess.run(
            standups, ["--audio", scratch.path("none.wav").path], scratch: scratch.url)
        #expect(missing.errors.contains("there is no such file"), "\(missing)")

        let audio = try await Subprocess.run(standups, ["--audio", notWAV.path], scratch: scratch.url)
        #expect(audio.exited(with: 64), "\(audio)")
        #expect(audio.errors.contains("sox in.wav -r 16000 -c 1 -b 16 out.wav"), "\(audio)")

        let recordings = try await Subprocess.run(standups, ["serve", "--max-recordings", "0"], scratch: scratch.url)
        #expect(recordings.exited(with: 64), "\(recordings)")
        #expect(recordings.errors.contains("--max-recordings takes a number from 1."), "\(recordings)")

        // Not a terminal: said, not drawn.
        let piped = try await Subprocess.run(
            standups, ["--data-dir", scratch.path("data").path, "--no-speech"], scratch: scratch.url)
        #expect(piped.exited(with: 1), "\(piped)")
        #expect(piped.errors.contains("standups is a full-screen program: run it in a terminal"), "\(piped)")
    }

    @Test func theHelpShowsTheEverydayOptionsOfTheDefaultCommand() async throws {
        try await CommandHelp.checkTheRootListsTheOptions(
            of: "meet", in: try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups"),
            including: ["--data-dir", "--database", "--speed", "--audio", "--no-speech"])
    }
}
