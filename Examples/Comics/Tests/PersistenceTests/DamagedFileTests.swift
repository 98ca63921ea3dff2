import Foundation
import Persistence
import Testing

@Suite("Damaged files and directories", .timeLimit(.minutes(1)))
struct DamagedFileTests {
    let directory: TemporaryDirectory
    let file: URL

    init() throws {
        directory = try TemporaryDirectory()
        file = directory.appending("favourites.sqlite")
    }

    /// Opens a store in `directory`, expecting `.corrupt` for `file`.
    func expectCorrupt(sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: PersistenceError.self, sourceLocation: sourceLocation) {
            try FavouritesStore(directory: directory.url)
        }
        guard case .corrupt(let path, _) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(path == file.path, sourceLocation: sourceLocation)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: file)

        expectCorrupt()

        #expect(try Data(contentsOf: file) == garbage)
        #expect(try directory.entries() == ["favourites.sqlite"], "no -wal, -shm or -journal is left behind")
    }

    @Test func aShortTextFileIsRefusedAndLeftUntouched() throws {
        let text = Data("my favourites: 327, 353\n".utf8)
        try text.write(to: file)

        expectCorrupt()

        #expect(try Data(contentsOf: file) == text)
        #expect(try directory.entries() == ["favourites.sqlite"])
    }

    @Test func aFileWithOnlyTheHeaderIsRefusedAndLeftUntouched() throws {
        let header = Data("SQLite format 3\0".utf8) + Data(repeating: 0xFF, count: 84)
        try header.write(to: file)

        expectCorrupt()

        #expect(try Data(contentsOf: file) == header)
        #expect(try directory.entries() == ["favourites.sqlite"])
    }

    @Test func aMalformedDatabaseIsRefusedAndLeftUntouched() throws {
        do {
            let store = try FavouritesStore(directory: directory.url)
            let long = String(repeating: "x", count: 200)
            for number in 1...200 { try store.add(favourite(number, addedAt: number, title: "\(long) \(number)")) }
        }
        var damaged = try Data(contentsOf: file)
        let pageSize = 4096
        try #require(damaged.count >= 4 * pageSize)
        // Pages 2 and 3 (after the schema's page 1) become garbage.
        damaged.replaceSubrange(pageSize..<(3 * pageSize), with: Data(repeating: 0xA5, count: 2 * pageSize))
        try damaged.write(to: file)

        expectCorrupt()

        #expect(try Data(contentsOf: file) == damaged)
        #expect(try directory.entries() == ["favourites.sqlite"])
    }

    @Test func anEmptyFileBecomesAnEmptyStore() throws {
        try Data().write(to: file)

        let store = try FavouritesStore(directory: directory.url)
        try store.add(favourite(1))
        #expect(try store.all() == [favourite(1)])
    }

    @Test func aDirectoryInPlaceOfTheFileIsUnreadable() throws {
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

        let error = #expect(throws: PersistenceError.self) { try FavouritesStore(directory: directory.url) }
        guard case .unreadable(let path, _) = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == file.path)
    }

    @Test func onlyTheDataDirectoryItselfIsCreated() throws {
        let data = directory.appending("data")
        _ = try FavouritesStore(directory: data)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("favourites.sqlite").path))

        let deeper = directory.appending("missing/data")
        let noParent = PersistenceError.cannotCreateDirectory(path: deeper.path, reason: "No such file or directory")
        #expect(throws: noParent) { try FavouritesStore(directory: deeper) }
        #expect(FileManager.default.fileExists(atPath: directory.appending("missing").path) == false)
    }

    @Test func aFileInPlaceOfTheDirectoryIsReported() throws {
        let data = directory.appending("data")
        try Data("not a directory".utf8).write(to: data)

        #expect(
            throws: PersistenceError.cannotCreateDirectory(
                path: data.path, reason: "a file that is not a directory is in its place")
        ) {
            try FavouritesStore(directory: data)
        }
    }

    @Test func descriptionsSayWhatHappenedAndWhatToDo() {
        let corrupt = PersistenceError.corrupt(path: "/data/favourites.sqlite", reason: "file is not a database")
        #expect(corrupt.description.contains("/data/favourites.sqlite"))
        #expect(corrupt.description.contains("file is not a database"))
        #expect(
            corrupt.description.contains(
                "it was left untouched. Move it away to start with no favourites, or pass --data-dir"))

        let directory = PersistenceError.cannotCreateDirectory(path: "/data", reason: "Permission denied")
        #expect(directory.description.contains("/data: Permission denied"))
        #expect(directory.description.contains("--data-dir"))

        let unreadable = PersistenceError.unreadable(path: "/data/favourites.sqlite", reason: "Permission denied")
        #expect(unreadable.description.contains("/data/favourites.sqlite: Permission denied"))
        #expect(unreadable.description.contains("--data-dir"))

        let write = PersistenceError.writeFailed(reason: "database or disk is full")
        #expect(write.description.contains("database or disk is full"))
        #expect(write.description.contains("Nothing was changed"))
    }
}
