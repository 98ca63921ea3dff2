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
import Testing

@testable import PostgresSupport

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
    static let url = ProcessInfo.processInfo.environment["OAK_TEST_POSTGRES"]
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let shouldRun = url != nil || isCI
    static var logger: Logger {
        var logger = Logger(label: "oak.test.postgres")
        logger.logLevel = .critical
        return logger
    }

    /// The database, opened; on CI without a server, a failure that says
    /// what to set.
    static func open() async throws -> PostgresAppDatabase {
        let url = try #require(url, "CI must set OAK_TEST_POSTGRES to a postgres:// URL (.ci/run starts a cluster)")
        return try await PostgresAppDatabase.open(try PostgresLocation(url), logger: logger)
    }
}

@Suite(
    "A PostgreSQL database", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: TestServer.shouldRun, "set OAK_TEST_POSTGRES=postgres://user@127.0.0.1:PORT/db to run them"))
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
}
