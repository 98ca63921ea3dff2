// What every app's `--help` must show, checked once for all of them: the
// options of the default command (ArgumentParser's root help shows no
// subcommand's options; `optionsText(intro:outro:)` puts them there).

import Foundation
import Testing

/// Checks a program's help.
public enum CommandHelp {
    /// Checks that `program --help` lists every option of
    /// `program defaultCommand --help`, among them `including`.
    ///
    /// Failures are recorded at `sourceLocation`, the caller's.
    public static func checkTheRootListsTheOptions(
        of defaultCommand: String, in program: URL, including: Set<String>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let root = try await Subprocess.run(program, ["--help"], scratch: scratch.url)
        let command = try await Subprocess.run(program, [defaultCommand, "--help"], scratch: scratch.url)
        #expect(root.exited(with: 0) && command.exited(with: 0), "\(root) \(command)", sourceLocation: sourceLocation)
        let options = options(in: command.output)
        #expect(options.isSuperset(of: including), "\(command)", sourceLocation: sourceLocation)
        for option in options {
            #expect(
                root.output.contains(option), "\(option) is not in: \(root.output)", sourceLocation: sourceLocation)
        }
    }

    /// The options (`--name`) a command's help names, but `--help`.
    public static func options(in help: String) -> Set<String> {
        Set(
            help.split(whereSeparator: { " \n,[]".contains($0) })
                .filter { $0.hasPrefix("--") && $0 != "--help" }.map { String($0) })
    }
}
