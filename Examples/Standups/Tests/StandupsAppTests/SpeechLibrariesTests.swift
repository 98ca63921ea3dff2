// Speech is loaded when it is used, never linked: a program built where
// pocketsphinx is installed starts on a machine without it (speech is then
// said to be unavailable). And the function types the recogniser declares
// for it match pocketsphinx's own header, where that header is installed.

import Foundation
import TerminalTesting
import Testing

@Suite("Speech libraries", .timeLimit(.minutes(1)))
struct SpeechLibrariesTests {
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theProgramNeedsNoSpeechOrSoundLibraryToStart() async throws {
        let standups = try BuiltProgram.url(named: "standups", packagePath: "Examples/Standups")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let dynamic = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/readelf"), ["--dynamic", standups.path], scratch: scratch.url)
        #expect(dynamic.exited(with: 0), "\(dynamic)")
        let needed = dynamic.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "readelf listed no library: \(dynamic)")
        for library in ["libpocketsphinx", "libsphinxbase", "libsphinxad", "libasound"] {
            #expect(!needed.contains { $0.contains(library) }, "the program is linked with \(library): \(needed)")
        }
    }

    @Test func theDeclaredFunctionTypesMatchPocketsphinxsHeader() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let flags = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["pkg-config", "--cflags", "pocketsphinx"], scratch: scratch.url)
        guard flags.exited(with: 0) else {
            // Nothing to check against on this machine (CI installs
            // libpocketsphinx-dev).
            withKnownIssue("pocketsphinx's header is not installed: \(flags.errors)") {
                Issue.record("skipped")
            }
            return
        }
        let shim = Self.package.appendingPathComponent("Services/CPocketsphinx/shim.h").path
        let arguments = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let check = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["cc", "-fsyntax-only"] + arguments + ["-x", "c", shim],
            scratch: scratch.url)
        #expect(check.exited(with: 0), "\(check)")
        // The check is in force: the real header was included.
        let included = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["cc", "-E"] + arguments + ["-x", "c", shim], scratch: scratch.url)
        #expect(included.output.contains("ps_decoder_t"), "pocketsphinx.h was not included")
    }
}
