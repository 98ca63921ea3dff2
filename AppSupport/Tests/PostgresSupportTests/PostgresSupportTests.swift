// An app's PostgreSQL database: URLs as people write them, and against a
// real server (OAK_TEST_POSTGRES, a postgres:// URL; .ci/run starts a
// throw-away cluster and sets it) opening, an unreachable server, migrations
// applied once each even by processes starting at once, and notifications
// that come back, saying so, after their connection is killed. Without
// OAK_TEST_POSTGRES the server's tests are skipped, saying why; on CI they
// must run.

import Foundation
import Logging
import PostgresNIO
import PostgresTesting
import Synchronization
import Testing

@testable import PostgresSupport

@Suite("A deadline", .timeLimit(.minutes(1)))
struct DeadlineTests {
    @Test func aStatementThatIgnoresCancellationDoesNotHoldItsDeadline() async throws {
        // A body that goes on for 30 s whatever its cancellation (awaiting
        // a detached task is not cancelled with the awaiting one), as a
        // statement on a killed connection did. The bound is far from both
        // the deadline and the body: a loaded machine once took a second to
        // wake a 50 ms timer.
        let start = ContinuousClock.now
        await #expect(throws: PostgresAppDatabaseError.self) {
            try await PostgresAppDatabase.within(.milliseconds(50)) {
                await Task.detached { try? await Task.sleep(for: .seconds(30)) }.value
            }
        }
        #expect(ContinuousClock.now - start < .seconds(15))
        // And a body that ends in time gives its value.
        #expect(try await PostgresAppDatabase.within(.seconds(5)) { 42 } == 42)
    }
}

@Suite("PostgreSQL locations")
struct PostgresLocationTests {
    @Test func aURLGivesItsPartsAndNeverPrintsThePassword() throws {
        let location = try PostgresLocation("postgres://app:s3cret@db.example:6543/standups")
        #expect(location.host == "db.example")
        #expect(location.port == 6543)
        #expect(location.username == "app")
        #expect(location.password == "s3cret")
        #expect(location.database == "standups")
        #expect(location.description == "postgres://app@db.example:6543/standups")
        #expect(try PostgresLocation("postgresql://app@127.0.0.1/comics").port == 5432)
    }

    @Test(arguments: [
        ("mysql://app@host/db", "mysql://app@host/db is not a PostgreSQL URL"),
        ("postgres://host/db", "has no a user"),
        ("postgres://app@host", "has no a database name"),
        ("postgres://app:pw@/db", "has no a host"),
        ("postgres://app:pw@host:70000/db", "has no a port from 1 to 65535"),
    ])
    func aWrongURLSaysWhatIsMissing(_ url: String, _ message: String) {
        #expect {
            _ = try PostgresLocation(url)
        } throws: { error in
            let text = "\(error)"
            return text.contains(message) && !text.contains(":pw@") && text.contains("postgres://user")
        }
    }
}

/// The server the tests use, if any.
enum TestServer {
    static let shouldRun = PostgresTestServer.shouldRun
    static var logger: Logger { PostgresTestServer.logger }

    /// The server's database, opened.
    static func open() async throws -> PostgresAppDatabase {
        try await PostgresAppDatabase.open(try PostgresTestServer.location(), logger: logger)
    }
}

@Suite(
    "A PostgreSQL database", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: TestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipMessage)))
struct PostgresAppDatabaseTests {
    @Test func anUnreachableServerIsATypedError() async throws {
        let nowhere = try PostgresLocation("postgres://app@127.0.0.1:1/none")
        await #expect {
            _ = try await PostgresAppDatabase.open(nowhere, timeout: .seconds(2), logger: TestServer.logger)
        } throws: { error in
            guard case .unreachable(let location, _)? = error as? PostgresAppDatabaseError else { return false }
            return location == nowhere && "\(error)".contains("cannot be reached")
        }
    }

    @Test func migrationsApplyOnceEachEvenFromSeveralAtOnce() async throws {
        let component = "test-\(UUID().uuidString)"
        let table = "t_\(UUID().uuidString.prefix(8).lowercased())"
        let steps = [
            "CREATE TABLE \(table) (n integer PRIMARY KEY)",
            "INSERT INTO \(table) (n) VALUES (1)",
        ]
        let databases = [try await TestServer.open(), try await TestServer.open(), try await TestServer.open()]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in databases {
                group.addTask { try await database.migrate(steps, as: component) }
            }
            try await group.waitForAll()
        }
        // One more step later: only it is applied.
        try await databases[0].migrate(steps + ["INSERT INTO \(table) (n) VALUES (2)"], as: component)
        let rows = try await databases[0].client.query(
            PostgresQuery(unsafeSQL: "SELECT n FROM \(table) ORDER BY n"), logger: TestServer.logger)
        var values: [Int] = []
        for try await value in rows.decode(Int.self) { values.append(value) }
        #expect(values == [1, 2])
        // A failing step applies nothing.
        await #expect(throws: PostgresAppDatabaseError.self) {
            try await databases[0].migrate(
                steps + ["INSERT INTO \(table) (n) VALUES (2)", "INSERT INTO \(table) (n) VALUES (3)", "NOT SQL"],
                as: component)
        }
        try await databases[0].client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"), logger: TestServer.logger)
        for database in databases { await database.close() }
    }

    @Test func notificationsComeBackAfterALostConnectionSayingSo() async throws {
        let database = try await TestServer.open()
        let channel = "oak_test_\(UUID().uuidString.prefix(8).lowercased())"
        var signals = database.notifications(on: channel).makeAsyncIterator()
        #expect(await signals.next() == .listening)
        try await database.notify(channel, payload: "one")
        #expect(await signals.next() == .notification("one"))
        // The listening connection is killed: it listens again, and says so.
        try await database.client.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE query = \("LISTEN \"" + channel + "\";") AND pid <> pg_backend_pid()
            """, logger: TestServer.logger)
        #expect(await signals.next() == .listening)
        try await database.notify(channel, payload: "two")
        #expect(await signals.next() == .notification("two"))
        await database.close()
    }

    @Test func aStatementTheServerRefusesFailsAtOnce() async throws {
        let database = try await TestServer.open()
        let start = ContinuousClock.now
        await #expect {
            try await database.perform { client in try await client.query("SELECT * FROM no_such_table") }
        } throws: { error in
            guard case .failed(let reason)? = error as? PostgresAppDatabaseError else { return false }
            return reason.contains("no_such_table")
        }
        // Not tried again until the deadline (5 s).
        #expect(ContinuousClock.now - start < .seconds(4))
        await database.close()
    }

    @Test func killedConnectionsAreOpenedAgain() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            for _ in 0..<3 { _ = try await database.perform { try await Self.one($0) } }
            try await PostgresTestServer.killConnections(to: location)
            // The pool's connections are dead; the next statement is run
            // on a new one.
            #expect(try await database.perform { try await Self.one($0) } == 1)
            await database.close()
        }
    }

    @Test func aTryWithNoAnswerIsGivenUpAndTriedAgainWithinTheDeadline() async throws {
        let database = try await TestServer.open()
        let tries = Atomic(0)
        let start = ContinuousClock.now
        // The first try never answers (a statement sent on a connection the
        // server has just killed); the second does.
        let answer = try await database.perform(within: .seconds(4)) { client in
            if tries.add(1, ordering: .relaxed).newValue == 1 {
                try await Task.sleep(for: .seconds(60))
            }
            return try await Self.one(client)
        }
        #expect(answer == 1)
        #expect(tries.load(ordering: .relaxed) == 2)
        #expect(ContinuousClock.now - start < .seconds(4))
        await database.close()
    }

    @Test func aDatabaseThatIsGoneIsATypedErrorWithinTheDeadline() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let database = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            try await PostgresTestServer.drop(location)
            let start = ContinuousClock.now
            await #expect {
                try await database.perform(within: .seconds(1)) { try await Self.one($0) }
            } throws: { error in
                guard case .unreachable(let place, _)? = error as? PostgresAppDatabaseError else { return false }
                return place == location && "\(error)".contains("cannot be reached")
            }
            #expect(ContinuousClock.now - start < .seconds(3))
            await database.close()
        }
    }

    @Test func aFeedReadThatFailsIsTriedAgainWithoutWaitingForTheNextChange() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let writer = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            let reader = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            try await writer.migrate(["CREATE TABLE note (n integer PRIMARY KEY)"], as: "test")
            // The read after the first change fails twice (a pool that
            // timed out, a server restarting); nothing else is announced.
            let failing = Atomic(0)
            let feed = PostgresChangeFeed(reader, channel: "oak_test_retry") {
                if failing.load(ordering: .relaxed) > 0 {
                    failing.subtract(1, ordering: .relaxed)
                    throw CancellationError()
                }
                return try await reader.client.query("SELECT n FROM note ORDER BY n", logger: TestServer.logger)
                    .decode(Int.self).reduce(into: [Int]()) { $0.append($1) }
            }
            var follower = feed.follow().makeAsyncIterator()
            #expect(await follower.next() == [])
            failing.store(2, ordering: .relaxed)
            try await writer.client.withTransaction(logger: TestServer.logger) { connection in
                try await connection.query("INSERT INTO note (n) VALUES (7)", logger: TestServer.logger)
                try await connection.query("SELECT pg_notify('oak_test_retry', '')", logger: TestServer.logger)
            }
            #expect(await follower.next() == [7])
            #expect(failing.load(ordering: .relaxed) == 0)
            await writer.close()
            await reader.close()
        }
    }

    @Test func closingADatabaseWhoseFeedIsMidReadReturns() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            let reader = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            let (reading, started) = AsyncStream<Void>.makeStream()
            let feed = PostgresChangeFeed(reader, channel: "oak_test_close") {
                started.yield()
                // A read the server takes half a minute over.
                return try await reader.client.query("SELECT 1 FROM pg_sleep(30)", logger: TestServer.logger)
                    .decode(Int.self).reduce(0, +)
            }
            let follower = Task {
                var values = feed.follow().makeAsyncIterator()
                return await values.next()
            }
            var reads = reading.makeAsyncIterator()
            await reads.next()
            let start = ContinuousClock.now
            await reader.close()
            #expect(ContinuousClock.now - start < .seconds(10), "closing did not wait for the read")
            follower.cancel()
            _ = await follower.value
        }
    }

    @Test func aFeedPushesWhatAnotherProcessChangedToEveryFollowerOverOneConnection() async throws {
        try await PostgresTestServer.withScratchDatabase { location in
            // Two pools: what two server processes hold.
            let writer = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            let reader = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            try await writer.migrate(["CREATE TABLE note (n integer PRIMARY KEY)"], as: "test")
            let reads = Atomic(0)
            let feed = PostgresChangeFeed(reader, channel: "oak_test_notes") {
                reads.add(1, ordering: .relaxed)
                return try await reader.client.query("SELECT n FROM note ORDER BY n", logger: TestServer.logger)
                    .decode(Int.self).reduce(into: [Int]()) { $0.append($1) }
            }
            var followers = (0..<50).map { _ in feed.follow().makeAsyncIterator() }
            for index in followers.indices { #expect(await followers[index].next() == []) }
            // A value read before a follower came is not its first: it may
            // be older than what it read itself.
            try await writer.client.query("INSERT INTO note (n) VALUES (0)", logger: TestServer.logger)  // no NOTIFY
            var late = feed.follow().makeAsyncIterator()
            #expect(await late.next() == [0])
            for index in followers.indices { #expect(await followers[index].next() == [0]) }  // changed for all
            try await writer.client.query("DELETE FROM note", logger: TestServer.logger)
            try await writer.client.withTransaction(logger: TestServer.logger) { connection in
                try await connection.query("INSERT INTO note (n) VALUES (1), (2)", logger: TestServer.logger)
                try await connection.query("SELECT pg_notify('oak_test_notes', '')", logger: TestServer.logger)
            }
            // The feed also reads once its LISTEN connection is up (a change
            // made before would be missed otherwise); on a busy machine that
            // read may come after the DELETE: a follower may see [] first.
            func reachesOneTwo(_ follower: inout AsyncStream<[Int]>.Iterator) async -> Bool {
                while let value = await follower.next() {
                    if value == [1, 2] { return true }
                    guard value == [] else { return false }
                }
                return false
            }
            for index in followers.indices { #expect(await reachesOneTwo(&followers[index])) }
            #expect(await reachesOneTwo(&late))
            // Now listening for sure (the notification came through): one
            // read per change, for every follower.
            let readsBefore = reads.load(ordering: .relaxed)
            try await writer.client.withTransaction(logger: TestServer.logger) { connection in
                try await connection.query("INSERT INTO note (n) VALUES (3)", logger: TestServer.logger)
                try await connection.query("SELECT pg_notify('oak_test_notes', '')", logger: TestServer.logger)
            }
            for index in followers.indices { #expect(await followers[index].next() == [1, 2, 3]) }
            #expect(await late.next() == [1, 2, 3])
            // Fifty-one followers, one LISTEN connection, one read per change.
            let listening = try await writer.client.query(
                "SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN \"oak_test_notes\";'",
                logger: TestServer.logger
            ).decode(Int.self).reduce(0, +)
            #expect(listening == 1)
            #expect(reads.load(ordering: .relaxed) == readsBefore + 1)
            #expect(feed.followers == 51)
            followers.removeAll()
            await writer.close()
            await reader.close()
        }
    }

    /// An app's store on the skeleton: migrated once, a write announced
    /// in its transaction and seen by another process's follower, a
    /// snapshot equal to the followers' returned as their copy, and the
    /// database's errors told in the app's own type.
    @Test func aStoreIsItsSQLOnly() async throws {
        struct AppError: Error, Equatable { let text: String }
        try await PostgresTestServer.withScratchDatabase { location in
            func open(_ database: PostgresAppDatabase) async throws(AppError) -> PostgresStore<[Int], AppError> {
                try await PostgresStore.open(
                    database, component: "notes", migrations: ["CREATE TABLE note (n integer PRIMARY KEY)"],
                    channel: "oak_test_store", logger: TestServer.logger,
                    failure: { error, location in AppError(text: "\(location): \(error)") },
                    snapshot: { client, logger in
                        try await client.query("SELECT n FROM note ORDER BY n", logger: logger)
                            .decode(Int.self).reduce(into: [Int]()) { $0.append($1) }
                    })
            }
            let writing = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            let reading = try await PostgresAppDatabase.open(location, logger: TestServer.logger)
            let writer = try await open(writing)
            let reader = try await open(reading)  // the migration is not applied twice
            var follower = reader.follow().makeAsyncIterator()
            #expect(await follower.next() == [])
            let written = try await writer.write(announcing: "1") { connection, logger in
                try await connection.query("INSERT INTO note (n) VALUES (1), (2)", logger: logger)
                return "done"
            }
            #expect(written == "done")
            #expect(await follower.next() == [1, 2])
            #expect(try await reader.snapshot() == [1, 2])
            // A write that fails writes nothing and announces nothing.
            await #expect {
                try await writer.write { connection, logger in
                    try await connection.query("INSERT INTO note (n) VALUES (3)", logger: logger)
                    try await connection.query("INSERT INTO note (n) VALUES (1)", logger: logger)
                }
            } throws: { error in
                (error as? AppError)?.text.contains("\(location)") == true
            }
            #expect(try await writer.snapshot() == [1, 2])
            await writing.close()
            await reading.close()
        }
    }

    static func one(_ client: PostgresClient) async throws -> Int {
        try await client.query("SELECT 1", logger: TestServer.logger).decode(Int.self).reduce(0, +)
    }
}
