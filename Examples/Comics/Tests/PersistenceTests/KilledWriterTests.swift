// A process killed in the middle of writing (SIGKILL: no clean-up of any
// kind) must leave a database that opens, passes SQLite's integrity check,
// and holds every favourite it had committed, each complete. The writer is
// this test binary itself, re-launched as a child that runs only
// `writeFavouritesUntilKilled()`, the way OakTests' memory tests do.

import Foundation
import Persistence
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("A writer killed in the middle of writing", .timeLimit(.minutes(2)))
struct KilledWriterTests {
    /// Set in the child's environment to the data directory it writes into.
    static let childVariable = "OAK_COMICS_PERSISTENCE_KILLED_WRITER_DIR"

    nonisolated static let childDirectory = ProcessInfo.processInfo.environment[childVariable]

    nonisolated static let isChild = childDirectory != nil

    /// How many favourites the child must have committed before it is killed.
    static let rowsBeforeKill = 300

    /// Runs ``writeFavouritesUntilKilled()`` in a child process, waits until
    /// the parent can read `rowsBeforeKill` of its favourites, kills it with
    /// SIGKILL, and reopens the file.
    @Test(
        .enabled(if: !isChild),
        .enabled(if: isLinux, "re-launches the test binary through /proc/self/exe, which only Linux has"))
    func aKilledWriterLeavesEveryCommittedFavouriteComplete() async throws {
        #if os(Linux)
        let directory = try TemporaryDirectory()
        let data = directory.appending("data")
        _ = try FavouritesStore(directory: data)  // The schema, so that the parent only ever reads below.

        let log = directory.appending("child.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        func printed() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["--testing-library", "swift-testing", "--filter", "writeFavouritesUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: data.path]) { $1 }
        child.standardOutput = output
        child.standardError = output
        // Its exit is awaited, never waited for on a thread of the cooperative pool.
        let (exits, exited) = AsyncStream.makeStream(of: Process.TerminationReason.self)
        child.terminationHandler = { process in
            exited.yield(process.terminationReason)
            exited.finish()
        }
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        // Polls the file by reading it, until the child has committed enough
        // favourites, it exits on its own, or the deadline passes.
        var seen: [StoredFavourite] = []
        do {
            let watcher = try FavouritesStore(directory: data)
            let deadline = ContinuousClock.now + .seconds(60)
            while seen.count < Self.rowsBeforeKill, child.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
                seen = try watcher.all()
            }
        }
        try #require(child.isRunning, "the child stopped writing:\n\(printed())")
        try #require(seen.count >= Self.rowsBeforeKill, "the child wrote \(seen.count) favourites:\n\(printed())")

        #expect(kill(child.processIdentifier, SIGKILL) == 0)
        var reason: Process.TerminationReason?
        for await terminated in exits { reason = terminated }
        #expect(reason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let reopened = try FavouritesStore(directory: data)
        try reopened.checkIntegrity()
        let favourites = try reopened.all()
        let incomplete = favourites.filter { $0.title != "Comic \($0.number)" }
        #expect(incomplete.isEmpty, "favourites not as the child wrote them")
        // Numbers ending in 5 are removed by the child; every other one it
        // committed, up to the highest, must be there.
        let numbers = Set(favourites.map(\.number))
        let highest = numbers.max() ?? 0
        let missing = (1...max(highest, 1)).filter { $0 % 10 != 5 && !numbers.contains($0) }
        #expect(missing.isEmpty, "committed favourites were lost: \(missing.prefix(20))")
        let lost = seen.filter { $0.number % 10 != 5 && !numbers.contains($0.number) }
        #expect(lost.isEmpty, "favourites the parent had read were lost: \(lost.prefix(20))")
        #endif
    }

    /// The child of ``aKilledWriterLeavesEveryCommittedFavouriteComplete()``:
    /// writes favourites into the directory its environment names, one
    /// transaction each, until it is killed; it never returns unless a
    /// write fails.
    ///
    /// Favourite N is titled "Comic N". Every tenth one also updates an
    /// earlier favourite and removes another, whose number ends in 5.
    @Test(.enabled(if: isChild, "the child process of aKilledWriterLeavesEveryCommittedFavouriteComplete"))
    func writeFavouritesUntilKilled() throws {
        let directory = try #require(Self.childDirectory)
        let store = try FavouritesStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
        var number = 0
        while true {
            number += 1
            try store.add(StoredFavourite(number: number, title: "Comic \(number)", addedAt: Date()))
            if number.isMultiple(of: 10) {
                try store.add(StoredFavourite(number: number - 3, title: "Comic \(number - 3)", addedAt: Date()))
                try store.remove(number - 5)
            }
        }
    }
}
