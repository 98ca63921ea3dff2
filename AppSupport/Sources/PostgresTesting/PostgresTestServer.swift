// The PostgreSQL server tests run against: the one OAK_TEST_POSTGRES names
// (a postgres:// URL; `.ci/run` starts a throw-away cluster and sets it).
// Without it a suite is skipped, saying what to set; on CI it must run.
// Each test may have an empty database of its own, dropped afterwards, so
// that tests running at once — and the packages' suites — never meet.

import Foundation
import Logging
import PostgresNIO
import PostgresSupport
import Testing

/// The server the tests use, if any.
public enum PostgresTestServer {
    /// The URL in `OAK_TEST_POSTGRES`, if set.
    public static let url = ProcessInfo.processInfo.environment["OAK_TEST_POSTGRES"]

    /// Whether the server's tests run: with a server, and always on CI
    /// (where a missing server fails them).
    public static let shouldRun = url != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Why they are skipped otherwise.
    public static let skipMessage = "set OAK_TEST_POSTGRES=postgres://user@127.0.0.1:PORT/db to run them"

    /// How long a store a test opens tries each statement again: longer
    /// than an app's five seconds, because a test process running a
    /// suite's tests in parallel on two cores can leave a task waiting a
    /// few seconds for a thread, and a statement that waited is then taken
    /// for a server that does not answer. A test of the deadline itself
    /// gives its own.
    public static let deadline: Duration = .seconds(20)

    /// A logger that says only what is critical.
    public static var logger: Logger {
        var logger = Logger(label: "oak.test.postgres")
        logger.logLevel = .critical
        return logger
    }

    /// The server's database.
    ///
    /// - Throws: ``PostgresTestServerError`` when `OAK_TEST_POSTGRES` is
    ///   not set, or not a PostgreSQL URL.
    public static func location() throws -> PostgresLocation {
        guard let url else { throw PostgresTestServerError.notSet }
        return try PostgresLocation(url)
    }

    /// Runs `body` with a new, empty database of the server's (its user
    /// must be allowed to create databases), dropped afterwards with every
    /// connection to it.
    public static func withScratchDatabase<Result>(
        _ body: (PostgresLocation) async throws -> Result
    ) async throws -> Result {
        let server = try location()
        let admin = try await PostgresAppDatabase.open(server, logger: logger)
        let name = "oak_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        do {
            try await admin.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        } catch {
            await admin.close()
            throw error
        }
        var scratch = server
        scratch.database = name
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(scratch))
        } catch {
            result = .failure(error)
        }
        _ = try? await admin.client.query(
            PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        await admin.close()
        return try result.get()
    }
}

extension PostgresTestServer {
    /// Drops the database at `location` now, closing every connection to
    /// it (what a database that is gone looks like to its users).
    public static func drop(_ location: PostgresLocation) async throws {
        let admin = try await PostgresAppDatabase.open(try self.location(), logger: logger)
        do {
            try await admin.client.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: logger)
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }

    /// Closes every connection to the database at `location` (what a
    /// restarted server or a network failure does to them).
    public static func killConnections(to location: PostgresLocation) async throws {
        let admin = try await PostgresAppDatabase.open(try self.location(), logger: logger)
        do {
            try await admin.client.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(location.database)",
                logger: logger)
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }
}

/// Why the test server cannot be used.
public enum PostgresTestServerError: Error, CustomStringConvertible {
    /// `OAK_TEST_POSTGRES` is not set.
    case notSet

    /// What to do.
    public var description: String {
        "OAK_TEST_POSTGRES is not set: set it to a postgres:// URL (.ci/run starts a cluster and sets it)."
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite or test only with a PostgreSQL server to run against
    /// (``PostgresTestServer/shouldRun``), saying what to set otherwise:
    /// `@Suite("…", .postgres)`.
    public static var postgres: Self {
        .enabled(if: PostgresTestServer.shouldRun, Comment(rawValue: PostgresTestServer.skipMessage))
    }
}
