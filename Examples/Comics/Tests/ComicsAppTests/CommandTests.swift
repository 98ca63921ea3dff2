// The non-interactive commands, run as programs: standard input from
// /dev/null, standard output to a file (or a pipe), each test with its own
// data directory.

import Foundation
import TerminalTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

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

    /// Each favourites action says what it did, or what to type instead.
    @Test func theFavouritesCommandSaysWhatItDid() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        func run(_ arguments: String...) async throws -> Finished {
            try await Subprocess.run(
                comics, ["favourites"] + arguments + ["--data-dir", scratch.path("data").path], scratch: scratch.url)
        }
        let empty = try await run("list")
        #expect(empty.exited(with: 0) && empty.output.hasPrefix("No favourites yet"), "\(empty)")
        #expect(try await run("list", "--json").output.hasPrefix("[]"))
        let added = try await run("add", "5")
        #expect(added.exited(with: 0) && added.output.hasPrefix("#5  ") && added.output.contains("is a favourite"))
        let removed = try await run("remove", "5")
        #expect(removed.exited(with: 0) && removed.output.hasPrefix("#5 is no longer a favourite"), "\(removed)")
        let again = try await run("remove", "5")
        #expect(again.exited(with: 0) && again.output.hasPrefix("#5 was not a favourite"), "\(again)")
        for (arguments, message) in [
            (["add", "0"], "0 is not a comic number"), (["add"], "add needs a comic's number"),
            (["list", "3"], "list takes no number"), (["keep", "3"], "\"keep\" is not an action"),
        ] {
            let refused = try await Subprocess.run(
                comics, ["favourites"] + arguments + ["--data-dir", scratch.path("data").path], scratch: scratch.url)
            #expect(refused.exited(with: 64), "\(refused)")
            #expect(refused.errors.contains(message), "\(refused)")
        }
    }

    @Test func theHelpShowsTheOptionsOfTheDefaultCommand() async throws {
        try await CommandHelp.checkTheRootListsTheOptions(
            of: "browse", in: try ComicsProgram.url(), including: ["--live", "--data-dir", "--database"])
    }

    @Test func aDataDirectoryThatCannotBeMadeLeavesTheComicsReadable() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // The default data directory's parent is under a file: it cannot be
        // made. The comic is shown all the same; only favourites are out.
        let file = scratch.path("a-file")
        try Data().write(to: file)
        let shown = try await Subprocess.run(
            comics, ["show", "7"], environment: ["XDG_DATA_HOME": file.appendingPathComponent("share").path],
            scratch: scratch.url)
        #expect(shown.exited(with: 0), "\(shown)")
        #expect(shown.output.hasPrefix("#7: "), "\(shown)")
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

    /// Listing only reads: it works on a data directory its user may not
    /// write to (another user's, or a read-only disk), where SQLite cannot
    /// make the side files it reads a WAL database with.
    @Test func favouritesAreListedFromAReadOnlyDataDirectory() async throws {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = scratch.path("data")
        let added = try await Subprocess.run(
            comics, ["favourites", "add", "5", "--data-dir", data.path], scratch: scratch.url)
        try #require(added.exited(with: 0), "\(added)")
        // As root, permissions do not hold: read as another user instead.
        let isRoot = getuid() == 0
        let runuser = Subprocess.find("runuser")
        if isRoot, runuser == nil { return }  // nobody to read as
        let entries = try FileManager.default.contentsOfDirectory(atPath: data.path)
        for entry in entries {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o444], ofItemAtPath: data.appendingPathComponent(entry).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: data.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path) }
        let arguments = ["favourites", "list", "--data-dir", data.path]
        let listed =
            if isRoot, let runuser {
                try await Subprocess.run(
                    runuser, ["-u", "nobody", "--", comics.path] + arguments, scratch: scratch.url)
            } else {
                try await Subprocess.run(comics, arguments, scratch: scratch.url)
            }
        #expect(listed.exited(with: 0), "\(listed)")
        #expect(listed.output.hasPrefix("#5  "), "\(listed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() == entries.sorted())
    }
}
