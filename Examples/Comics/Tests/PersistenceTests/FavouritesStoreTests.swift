import Foundation
import Persistence
import Testing

@Suite("Favourites store", .timeLimit(.minutes(1)))
struct FavouritesStoreTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aNewStoreIsEmptyAndMakesItsFile() throws {
        let store = try FavouritesStore(directory: directory.url)
        #expect(try store.all() == [])
        #expect(try store.contains(1) == false)
        #expect(store.path == directory.appending("favourites.sqlite").path)
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test func allListsTheNewestFirstThenTheHighestNumber() throws {
        let store = try FavouritesStore(directory: directory.url)
        try store.add(favourite(10, addedAt: 100))
        try store.add(favourite(20, addedAt: 300))
        try store.add(favourite(30, addedAt: 200))
        try store.add(favourite(5, addedAt: 300))
        try store.add(favourite(7, addedAt: 300))

        #expect(try store.all().map(\.number) == [20, 7, 5, 30, 10])
        #expect(try store.all().first == favourite(20, addedAt: 300))
    }

    @Test func containsAndRemove() throws {
        let store = try FavouritesStore(directory: directory.url)
        try store.add(favourite(1))
        try store.add(favourite(2, addedAt: 1))

        #expect(try store.contains(1))
        #expect(try store.contains(2))
        #expect(try store.contains(3) == false)

        try store.remove(1)
        #expect(try store.contains(1) == false)
        #expect(try store.all() == [favourite(2, addedAt: 1)])

        try store.remove(1)
        try store.remove(99)
        #expect(try store.all() == [favourite(2, addedAt: 1)])
    }

    @Test func addingANumberAgainReplacesItsTitleAndDate() throws {
        let store = try FavouritesStore(directory: directory.url)
        try store.add(favourite(1, addedAt: 0, title: "Old"))
        try store.add(favourite(2, addedAt: 10))
        try store.add(favourite(1, addedAt: 20, title: "New"))

        #expect(try store.all() == [favourite(1, addedAt: 20, title: "New"), favourite(2, addedAt: 10)])
    }

    @Test func datesAreKeptToTheMillisecond() throws {
        let store = try FavouritesStore(directory: directory.url)
        let addedAt = Date(timeIntervalSince1970: 1_700_000_000.123_456)
        try store.add(StoredFavourite(number: 1, title: "Comic 1", addedAt: addedAt))

        let stored = try #require(try store.all().first)
        #expect(abs(stored.addedAt.timeIntervalSince(addedAt)) < 0.001)
    }

    @Test func titlesAreKeptAsTheyWere() throws {
        let store = try FavouritesStore(directory: directory.url)
        let title = "Bobby Tables'); DROP TABLE favourite;-- \u{1F600} \"é\""
        try store.add(favourite(327, title: title))

        #expect(try store.all() == [favourite(327, title: title)])
    }

    @Test func favouritesOutliveTheStore() throws {
        do {
            let store = try FavouritesStore(directory: directory.url)
            try store.add(favourite(1, addedAt: 1))
            try store.add(favourite(2, addedAt: 2))
            try store.remove(1)
        }
        #expect(try directory.entries() == ["favourites.sqlite"], "the last connection removes -wal and -shm")

        let reopened = try FavouritesStore(directory: directory.url)
        #expect(try reopened.all() == [favourite(2, addedAt: 2)])
        try reopened.checkIntegrity()
    }

    @Test func twoStoresOnOneFileSeeEachOthersWrites() throws {
        let first = try FavouritesStore(directory: directory.url)
        let second = try FavouritesStore(directory: directory.url)

        try first.add(favourite(1, addedAt: 1))
        #expect(try second.contains(1))
        #expect(try second.all() == [favourite(1, addedAt: 1)])

        try second.add(favourite(2, addedAt: 2))
        try second.remove(1)
        #expect(try first.all() == [favourite(2, addedAt: 2)])
    }

    @Test func twoStoresWritingAtOnceLoseNothing() async throws {
        let first = try FavouritesStore(directory: directory.url)
        let second = try FavouritesStore(directory: directory.url)
        let count = 200

        async let written: Void = onThread {
            for number in 1...count { try first.add(favourite(number, addedAt: number)) }
        }
        try await onThread {
            for number in (count + 1)...(2 * count) { try second.add(favourite(number, addedAt: number)) }
        }
        try await written

        #expect(try first.all().map(\.number) == Array((1...(2 * count)).reversed()))
        #expect(try second.all().count == 2 * count)
    }

    /// Several connections turning a new file to WAL mode at once, or
    /// migrating it at once, get "busy" or "table already exists" from
    /// SQLite unless the store tries again; repeated to make the race likely.
    @Test(arguments: 1...5)
    func storesOpenedAtOnceOnANewFileAllWork(round: Int) async throws {
        let url = directory.appending("data")
        let stores = try await withThrowingTaskGroup(of: FavouritesStore.self) { group in
            for _ in 0..<4 {
                group.addTask { try await onThread { try FavouritesStore(directory: url) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        for (index, store) in stores.enumerated() { try store.add(favourite(index, addedAt: index)) }
        for store in stores { #expect(try store.all().map(\.number) == [3, 2, 1, 0]) }
    }
}

@Suite("Favourites store changes", .timeLimit(.minutes(1)))
struct FavouritesStoreChangesTests {
    @Test func everyWriteIsObserved() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-changes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FavouritesStore(directory: directory)
        var changes = store.changes { $0 }.makeAsyncIterator()
        #expect(await changes.next()?.isEmpty == true)
        try store.add(StoredFavourite(number: 9, title: "Nine", addedAt: Date(timeIntervalSince1970: 9)))
        var seen = await changes.next()
        if seen?.isEmpty == true { seen = await changes.next() }
        #expect(seen?.map(\.number) == [9])
    }

    /// Two stores on one file stand for two processes (the terminal app
    /// and a server, or the `favourites` command): what one writes, the
    /// other's followers see within the interval, as they see their own.
    @Test func aChangeMadeByAnotherProcessIsSeen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-changes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try FavouritesStore(directory: directory)
        let command = try FavouritesStore(directory: directory)
        var changes = terminal.changes(otherProcessesEvery: .milliseconds(20)) { $0.map(\.number) }
            .makeAsyncIterator()
        #expect(await changes.next() == [])
        try command.add(StoredFavourite(number: 5, title: "Five", addedAt: Date(timeIntervalSince1970: 5)))
        #expect(await changes.next() == [5])
        try command.remove(5)
        #expect(await changes.next() == [])
    }

    @Test func subscribersShareOneObservationAndOneEndingLeavesTheOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oak-changes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FavouritesStore(directory: directory)
        var first: AsyncStream<[Int]>.Iterator? = store.changes { $0.map(\.number) }.makeAsyncIterator()
        var second = store.changes { $0.map(\.number) }.makeAsyncIterator()
        #expect(await first?.next() == [])
        #expect(await second.next() == [])

        try store.add(StoredFavourite(number: 1, title: "One", addedAt: Date(timeIntervalSince1970: 1)))
        #expect(await first?.next() == [1])
        #expect(await second.next() == [1])

        first = nil  // the first subscriber stops listening
        try store.add(StoredFavourite(number: 2, title: "Two", addedAt: Date(timeIntervalSince1970: 2)))
        #expect(await second.next() == [2, 1])

        // A late subscriber starts with the list as it is now.
        var late = store.changes { $0.map(\.number) }.makeAsyncIterator()
        #expect(await late.next() == [2, 1])
    }
}

@Suite("Favourites store, read-only")
struct ReadOnlyFavouritesStoreTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func favouritesAreReadWithoutWritingAnything() throws {
        do {
            let store = try FavouritesStore(directory: directory.url)
            try store.add(favourite(7, addedAt: 1))
        }
        let file = directory.url.appendingPathComponent("favourites.sqlite")
        let before = try Data(contentsOf: file)
        let reader = try FavouritesStore(readingFrom: directory.url)
        #expect(try reader.all() == [favourite(7, addedAt: 1)])
        #expect(try reader.contains(7))
        #expect(throws: PersistenceError.self) { try reader.add(favourite(8)) }
        // The database is as it was; SQLite may add its side files where it
        // may write (a reader of a WAL database needs them).
        #expect(try Data(contentsOf: file) == before)
        #expect(
            Set(try directory.entries()).isSubset(of: [
                "favourites.sqlite", "favourites.sqlite-wal", "favourites.sqlite-shm",
            ]))
    }

    @Test func noDirectoryIsNoFavourites() throws {
        let missing = directory.url.appendingPathComponent("never-made")
        let reader = try FavouritesStore(readingFrom: missing)
        #expect(try reader.all().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
