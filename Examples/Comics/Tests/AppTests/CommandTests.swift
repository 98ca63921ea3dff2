// The non-interactive commands, run as programs: standard input from
// /dev/null, standard output to a file (or a pipe), each test with its own
// data directory.

import Foundation
import TerminalTesting
import Testing

struct CommandTests {
    /// Runs `comics` with `arguments` and a fresh data directory.
    static func comics(_ arguments: String..., pipeOutput: Bool = false) async throws -> Finished {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        return try await Subprocess.run(
            comics, arguments + ["--data-dir", scratch.path("data").path], scratch: scratch.url,
            pipeOutput: pipeOutput)
    }

    @Test func showPrintsTheComicsNumberAndTitle() async throws {
        let shown = try await Self.comics("show", "7")
        #expect(shown.exited(with: 0), "\(shown)")
        #expect(shown.output.hasPrefix("#7: Café Crème: 木の実と🌰\n"), "\(shown)")
    }

    @Test func showPrintsAHostileTitleAsPlainText() async throws {
        let shown = try await Self.comics("show", "13")
        #expect(shown.exited(with: 0), "\(shown)")
        #expect(shown.output.hasPrefix("#13: Red Alert\n"), "\(shown)")
        let controls = shown.output.unicodeScalars.filter {
            $0 != "\n" && ($0.properties.generalCategory == .control)
        }
        #expect(controls.isEmpty, "control characters in the output: \(controls.map { $0.escaped(asASCII: true) })")
    }

    @Test func showOfAMissingComicFails() async throws {
        let shown = try await Self.comics("show", "404")
        #expect(shown.exited(with: 1), "\(shown)")
        #expect((shown.output + shown.errors).contains("There is no comic #404."), "\(shown)")
    }

    @Test func showPrintsJSON() async throws {
        let shown = try await Self.comics("show", "13", "--json")
        #expect(shown.exited(with: 0), "\(shown)")
        let object = try JSONSerialization.jsonObject(with: Data(shown.output.utf8))
        let comic = try #require(object as? [String: Any], "not a JSON object: \(shown.output)")
        #expect(comic["number"] as? Int == 13)
        // The title as the catalog has it: JSON carries it escaped.
        #expect((comic["title"] as? String)?.contains("Red") == true, "\(comic)")
        #expect(!shown.output.contains("\u{1B}") && !shown.output.contains("\u{07}"), "raw C0 controls in the JSON")
    }

    /// Not a terminal: the latest comic as text, and the program ends.
    @Test func pipedOutputPrintsTheLatestComic() async throws {
        let shown = try await Self.comics(pipeOutput: true)
        #expect(shown.exited(with: 0), "\(shown)")
        #expect(shown.output.hasPrefix("#420: The Careful Lichen\n"), "\(shown)")
        #expect(!shown.output.contains("\u{1B}"), "escape sequences in piped output:\n\(shown)")
    }
}
