// The favourites' store port (FavouritesStorage) and its rules, checked on
// every adapter: in memory, the SQLite file, and PostgreSQL (against the
// server OAK_TEST_POSTGRES names, a database of its own per test; skipped
// without one, saying what to set; on CI they must run). Then what only
// PostgreSQL promises: a change made by another process is pushed, a lost
// connection is opened again, and a database that is gone is a typed error
// within the deadline.

import Foundation
import Persistence
import PostgresNIO
import PostgresPersistence
import PostgresSupport
import PostgresTesting
import Testing

/// The rules, each a check on a new, empty store.
enum FavouritesRule: String, CaseIterable, CustomTestStringConvertible {
    case startsEmpty
    case listsTheNewestFirstThenTheHighestNumber
    case addingANumberAgainReplacesIt
    case removingWhatIsNotThereDoesNothing
    case keepsDatesToTheMillisecond
    case keepsAnyTitle
    case changesStartWithTheListNowThenFollowEachChange

    var testDescription: String { rawValue }

    func check(_ store: any FavouritesStorage) async throws {
        switch self {
        case .startsEmpty:
            #expect(try await store.all() == [])
            #expect(try await store.contains(1) == false)
        case .listsTheNewestFirstThenTheHighestNumber:
            try await store.add(favourite(1, addedAt: 0))
            try await store.add(favourite(3, addedAt: 10))
            try await store.add(favourite(2, addedAt: 10))
            #expect(try await store.all().map(\.number) == [3, 2, 1])
            #expect(try await store.contains(2))
        case .addingANumberAgainReplacesIt:
            try await store.add(favourite(1, addedAt: 0, title: "First"))
            try await store.add(favourite(2, addedAt: 5))
            try await store.add(favourite(1, addedAt: 10, title: "Again"))
            #expect(try await store.all() == [favourite(1, addedAt: 10, title: "Again"), favourite(2, addedAt: 5)])
        case .removingWhatIsNotThereDoesNothing:
            try await store.add(favourite(1))
            try await store.remove(99)
            try await store.remove(1)
            try await store.remove(1)
            #expect(try await store.all() == [])
        case .keepsDatesToTheMillisecond:
            // A favourite rounds its date to the millisecond when it is
            // made, so what is read back equals what was written.
            let written = StoredFavourite(
                number: 7, title: "Seven", addedAt: Date(timeIntervalSince1970: 1_700_000_000.123_456_7))
            #expect(abs(written.addedAt.timeIntervalSince1970 - 1_700_000_000.123) < 0.000_001)
            try await store.add(written)
            #expect(try await store.all() == [written])
        case .keepsAnyTitle:
            let title = "Ünïcödé 🐧 'quoted' \"twice\"; DROP TABLE favourite; -- \\ \u{1B}[31m"
            try await store.add(favourite(5, title: title))
            #expect(try await store.all().map(\.title) == [title])
        case .changesStartWithTheListNowThenFollowEachChange:
            try await store.add(favourite(1, addedAt: 0))
            var changes = store.changes { $0.map(\.number) }.makeAsyncIterator()
            #expect(await changes.next() == [1])
            try await store.add(favourite(2, addedAt: 1))
            #expect(await Self.next(&changes, until: [2, 1]))
            try await store.remove(1)
            #expect(await Self.next(&changes, until: [2]))
        }
    }

    /// Whether `changes` reaches `expected` (a store may send a list it
    /// passed through on the way, never a list out of order).
    private static func next(
        _ changes: inout AsyncStream<[Int]>.Iterator, until expected: [Int]
    ) async -> Bool {
        while let list = await changes.next() {
            if list == expected { return true }
        }
        return false
    }
}

@Suite("The favourites' store port, on every adapter", .timeLimit(.minutes(1)))
struct FavouritesContractTests {
    @Test(arguments: FavouritesRule.allCases)
    func inMemory(_ rule: FavouritesRule) async throws {
        try await rule.check(InMemoryFavourites())
    }

    @Test(arguments: FavouritesRule.allCases)
    func sqlite(_ rule: FavouritesRule) async throws {
        let directory = try TemporaryDirectory()
        try await rule.check(try FavouritesStore(directory: directory.url))
    }
}

@Suite(
    "The favourites in PostgreSQL", .serialized, .timeLimit(.minutes(1)),
    .postgres)
struct PostgresFavouritesTests {
    @Test(arguments: FavouritesRule.allCases)
    func postgres(_ rule: FavouritesRule) async throws {
        try await withStore { store, _ in try await rule.check(store) }
    }

    @Test func aChangeMadeByAnotherProcessIsPushedToEveryFollower() async throws {
        // Two pools and two stores: what two server processes hold.
        try await PostgresTestServer.withAdapter(PostgresFavourites.self, processes: 2) { _, opened in
            let (firstStore, secondStore) = (opened[0].store, opened[1].store)
            var followers = (0..<20).map { _ in secondStore.changes { $0.map(\.number) }.makeAsyncIterator() }
            for index in followers.indices { #expect(await followers[index].next() == []) }
            try await firstStore.add(favourite(42))
            for index in followers.indices { #expect(await followers[index].next() == [42]) }
            try await firstStore.remove(42)
            for index in followers.indices { #expect(await followers[index].next() == []) }
            followers.removeAll()
        }
    }

    @Test func afterALostConnectionChangesAreWrittenAndPushedAgain() async throws {
        try await PostgresTestServer.withAdapter(PostgresFavourites.self, processes: 2) { location, opened in
            let (firstStore, secondStore) = (opened[0].store, opened[1].store)
            var changes = secondStore.changes { $0.map(\.number) }.makeAsyncIterator()
            #expect(await changes.next() == [])
            try await firstStore.add(favourite(1))
            #expect(await changes.next() == [1])
            // Every connection to the database is killed: the pools' and
            // the listening one.
            try await PostgresTestServer.killConnections(to: location)
            try await firstStore.add(favourite(2, addedAt: 1))
            // Pushed, whether the listener heard it or read it again once
            // it listened anew.
            var seen: [Int]? = nil
            while seen != [2, 1], let next = await changes.next() { seen = next }
            #expect(seen == [2, 1])
            #expect(try await secondStore.all().map(\.number) == [2, 1])
        }
    }

    @Test func aDatabaseThatIsGoneIsATypedErrorWithinTheDeadline() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: PostgresTestServer.logger)
            let store = try await PostgresFavourites.open(
                database, deadline: .seconds(1), logger: PostgresTestServer.logger)
            try await store.add(favourite(1))
            try await PostgresTestServer.drop(location)
            let start = ContinuousClock.now
            await #expect {
                try await store.add(favourite(2))
            } throws: { error in
                guard case .unreachable(let place, _)? = error as? PersistenceError else { return false }
                return place == "\(location)" && "\(error)".contains("--database")
            }
            await #expect(throws: PersistenceError.self) { _ = try await store.all() }
            #expect(ContinuousClock.now - start < .seconds(4))
            await database.close()
        }
    }

    /// Runs `body` with a store on a database of its own.
    private func withStore(
        _ body: (PostgresFavourites, PostgresAppDatabase) async throws -> Void
    ) async throws {
        try await PostgresTestServer.withAdapter(PostgresFavourites.self) { _, opened in
            try await body(opened[0].store, opened[0].database)
        }
    }
}
