// Finds an executable that this build made: SwiftPM puts it beside the
// test bundle (`.build/debug/comics` next to
// `.build/debug/ComicsPackageTests.xctest`), also with another
// --scratch-path, so no path is assumed. And the shell script that runs it
// in a terminal as a person would, reporting how it ended.

import Foundation
import Testing

/// An executable of the package under test.
public enum BuiltProgram {
    /// The executable `name` of this build; fails the test, saying to build
    /// the package at `packagePath` with its tests, when it is missing.
    public static func url(
        named name: String, packagePath: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URL {
        let directories = candidateDirectories()
        let found = directories.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(
            found,
            """
            No `\(name)` executable beside the test bundle (looked in: \(directories.map(\.path))). \
            Build it with the tests: swift build --package-path \(packagePath) --build-tests
            """,
            sourceLocation: sourceLocation)
    }

    /// Where the test bundle is: on Linux the test runner is the bundle
    /// itself (/proc/self/exe); on macOS a helper loads the .xctest bundle.
    private static func candidateDirectories() -> [URL] {
        var directories: [URL] = []
        #if os(Linux)
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        #endif
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var seen: Set<String> = []
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// A shell command line that runs `program` with `arguments` in a
    /// UTF-8 locale (or `locale`), as `TERM` says (or `terminal`), then
    /// prints "EXITED <status>" and the terminal's modes ("TTY icanon
    /// echo" once the program gave the terminal back) and waits for a line,
    /// so that the pane keeps what the program printed last. With
    /// `pipeOutput`, the program's output goes through a pipe (not a
    /// terminal).
    public static func script(
        running program: URL, _ arguments: [String], pipeOutput: Bool = false, locale: String? = nil,
        terminal: String? = nil, scratch: ScratchDirectory
    ) throws -> String {
        #if os(Linux)
        let locale = locale ?? "C.UTF-8"
        #else
        let locale = locale ?? "en_US.UTF-8"
        #endif
        let terminalType = terminal.map { "TERM=\($0)\nexport TERM\n" } ?? ""
        let id = UUID().uuidString
        let script = scratch.path("run-\(id).sh")
        let statusFile = shellQuoted(scratch.path("status-\(id)").path)
        let run = ([program.path] + arguments).map(shellQuoted).joined(separator: " ")
        let text = """
            LC_ALL=\(locale)
            export LC_ALL
            \(terminalType)            \(pipeOutput ? "{ \(run); echo $? > \(statusFile); } | cat" : "\(run); echo $? > \(statusFile)")
            status=$(cat \(statusFile))
            echo "EXITED $status"
            echo "TTY $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')"
            read -r line

            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        return "/bin/sh \(shellQuoted(script.path))"
    }
}
