// Finds the `comics` program that this build made: SwiftPM puts it beside
// the test bundle (`.build/debug/comics` next to
// `.build/debug/ComicsPackageTests.xctest`), also with another
// --scratch-path, so no path is assumed.

import Foundation
import TerminalTesting
import Testing

enum ComicsProgram {
    /// The `comics` executable of this build; fails the test, saying what
    /// to build, when it is missing.
    static func url(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let directories = candidateDirectories()
        let found = directories.map { $0.appendingPathComponent("comics") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(
            found,
            """
            No `comics` executable beside the test bundle (looked in: \(directories.map(\.path))). \
            Build it with the tests: swift build --package-path Examples/Comics --build-tests
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
}
