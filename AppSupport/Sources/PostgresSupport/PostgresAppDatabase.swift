// An app's PostgreSQL database, for the adapters that keep their data there
// when several server processes share it: a pool of connections (postgres-
// nio's PostgresClient) that runs while the database is open, a check that
// the server answers before the app starts, migrations applied once each
// even when several processes start at once, and notifications (LISTEN) on
// a connection of their own that comes back after a lost connection, saying
// so, because what was sent meanwhile is lost and must be read again.

import Common
import Logging
import PostgresNIO

/// An open PostgreSQL database.
///
/// ```swift
/// let database = try await PostgresAppDatabase.open(try PostgresLocation(url), logger: logger)
/// try await database.migrate(["CREATE TABLE favourites (number integer PRIMARY KEY)"], as: "comics")
/// for await signal in database.notifications(on: "favourites") { … }
/// await database.close()
/// ```
public final class PostgresAppDatabase: Sendable {
    /// Where it is.
    public let location: PostgresLocation
    /// The pool the adapters query through (it runs until ``close()``).
    public let client: PostgresClient
    private let logger: Logger
    private let runTask: Task<Void, Never>

    private init(location: PostgresLocation, client: PostgresClient, logger: Logger, runTask: Task<Void, Never>) {
        self.location = location
        self.client = client
        self.logger = logger
        self.runTask = runTask
    }

    /// Opens the database at `location` and checks, within `timeout`, that
    /// it answers.
    ///
    /// - Throws: ``PostgresAppDatabaseError/unreachable(_:reason:)`` when it
    ///   does not (the pool is closed again).
    public static func open(
        _ location: PostgresLocation, timeout: Duration = .seconds(10), logger: Logger
    ) async throws(PostgresAppDatabaseError) -> PostgresAppDatabase {
        // One connection first: it fails at once, with the server's
        // reason (refused, no such database or user), where the pool would
        // keep trying until the timeout. It is closed inside the timed
        // body, so that one made after the limit (the body runs on) is
        // closed too rather than dropped open: postgres-nio stops a debug
        // build at that, and a release build would keep its socket open.
        do {
            try await Self.within(timeout) {
                let connection = try await PostgresConnection.connect(
                    configuration: connectionConfiguration(location), id: 0, logger: logger)
                try? await connection.close()
            }
        } catch {
            throw .unreachable(location, reason: Self.reason(error))
        }
        let client = PostgresClient(configuration: configuration(location), backgroundLogger: logger)
        let runTask = Task { await client.run() }
        let database = PostgresAppDatabase(location: location, client: client, logger: logger, runTask: runTask)
        do {
            _ = try await Self.within(timeout) {
                try await client.query("SELECT 1", logger: logger).decode(Int.self).reduce(0, +)
            }
        } catch {
            await database.close()
            throw .unreachable(location, reason: Self.reason(error))
        }
        return database
    }

    /// Closes the pool and waits until its connections are closed, at most
    /// 5 seconds.
    public func close() async {
        runTask.cancel()
        // The pool ends once its connections have closed; one that does not
        // within 5 s (a connection the server killed, seen in CI) is left to
        // end on its own rather than hold the caller.
        let runTask = self.runTask
        do {
            try await Self.within(.seconds(5)) { await runTask.value }
        } catch {
            logger.warning("The database's pool did not close within 5 s; it is left to close on its own.")
        }
    }

    /// Applies `steps` (SQL statements) in order, each once for `component`
    /// (the steps done are kept in the table `oak_migrations`), in one
    /// transaction: all the missing ones or none. Processes migrating at
    /// once take turns (a transaction-scoped advisory lock).
    ///
    /// - Throws: ``PostgresAppDatabaseError/failed(_:)`` with the server's
    ///   reason; nothing was applied.
    public func migrate(_ steps: [String], as component: String) async throws(PostgresAppDatabaseError) {
        let logger = self.logger
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS oak_migrations (
                        component text NOT NULL, step integer NOT NULL, PRIMARY KEY (component, step))
                    """, logger: logger)
                let rows = try await connection.query(
                    "SELECT coalesce(max(step), 0) FROM oak_migrations WHERE component = \(component)",
                    logger: logger)
                var done = 0
                for try await step in rows.decode(Int.self) { done = step }
                for (index, step) in steps.enumerated() where index + 1 > done {
                    try await connection.query(PostgresQuery(unsafeSQL: step), logger: logger)
                    try await connection.query(
                        "INSERT INTO oak_migrations (component, step) VALUES (\(component), \(index + 1))",
                        logger: logger)
                }
            }
        } catch {
            throw .failed(Self.reason(error))
        }
    }

    /// Runs `body` with the pool, again after a lost connection or a
    /// server that does not answer (after 50 ms, doubling up to 1 s), until
    /// `deadline` has passed since the first try. A try that has no answer
    /// within half the deadline (at least a second) is given up and tried
    /// again: a statement sent on a connection the server has just killed
    /// can wait in the pool for as long as it is let, while a new
    /// connection answers at once. Run only what may be run twice: a
    /// connection lost while the server committed is told like one lost
    /// before.
    ///
    /// - Throws: ``PostgresAppDatabaseError/unreachable(_:reason:)`` when
    ///   the server did not answer within `deadline` (it is down, the
    ///   database was dropped), or ``PostgresAppDatabaseError/failed(_:)``
    ///   at once when the server refused a statement (not tried again).
    public func perform<Value: Sendable>(
        within deadline: Duration = .seconds(5), _ body: @escaping @Sendable (PostgresClient) async throws -> Value
    ) async throws(PostgresAppDatabaseError) -> Value {
        let client = client
        let start = ContinuousClock.now
        var delay = Duration.milliseconds(50)
        var reason = "no answer within \(deadline)"
        while true {
            let remaining = deadline - (ContinuousClock.now - start)
            guard remaining > .zero, !Task.isCancelled else { throw .unreachable(location, reason: reason) }
            do {
                let attempt = min(remaining, max(deadline / 2, .seconds(1)))
                return try await Self.within(attempt) { try await body(client) }
            } catch {
                if Self.isRefusal(error) { throw .failed(Self.reason(error)) }
                if case .timedOut = error as? PostgresAppDatabaseError {
                    reason = "no answer within \(deadline)"
                    logger.debug("A statement had no answer; trying again.")
                    continue
                }
                reason = Self.reason(error)
                logger.debug("A statement failed; trying again.", metadata: ["error": "\(reason)"])
            }
            try? await Task.sleep(for: min(delay, max(deadline - (ContinuousClock.now - start), .zero)))
            delay = min(delay * 2, .seconds(1))
        }
    }

    /// Sends `payload` to the listeners of `channel` (when the transaction
    /// it is part of commits; at once outside one).
    public func notify(_ channel: String, payload: String) async throws(PostgresAppDatabaseError) {
        do {
            try await client.query("SELECT pg_notify(\(channel), \(payload))", logger: logger)
        } catch {
            throw .failed(Self.reason(error))
        }
    }

    /// The notifications on `channel`, on a connection of their own, until
    /// the stream is dropped. ``PostgresSignal/listening`` comes first,
    /// once the server listens, and again each time it listens anew after
    /// a lost connection (retried after 0.1 s, doubling up to 5 s): read
    /// what the notifications are about again then, since what was sent
    /// while nobody listened is lost.
    public func notifications(on channel: String) -> AsyncStream<PostgresSignal> {
        let (stream, continuation) = AsyncStream<PostgresSignal>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let location = location
        let logger = logger
        let task = Task {
            var delay = Duration.milliseconds(100)
            var attempt = 0
            while !Task.isCancelled {
                attempt += 1
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: Self.connectionConfiguration(location), id: attempt, logger: logger)
                    do {
                        try await connection.listen(on: channel) { notifications in
                            continuation.yield(.listening)
                            delay = .milliseconds(100)
                            for try await notification in notifications {
                                continuation.yield(.notification(notification.payload))
                            }
                        }
                    } catch {
                        logger.notice(
                            "Listening stopped; listening again.",
                            metadata: ["channel": "\(channel)", "error": "\(Self.reason(error))"])
                    }
                    try? await connection.close()
                } catch {
                    logger.notice(
                        "The database is unreachable; trying again.",
                        metadata: ["channel": "\(channel)", "error": "\(Self.reason(error))"])
                }
                guard !Task.isCancelled else { break }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    // MARK: - Helpers

    /// The advisory lock migrations take turns with.
    static let migrationLock = 0x6F61_6B6D_6967  // "oakmig"

    static func configuration(_ location: PostgresLocation) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The configuration of a connection of its own to `location` (one
    /// that holds session-level locks, say), outside the pool.
    public static func connectionConfiguration(_ location: PostgresLocation) -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
    }

    /// The value of `body`, or ``PostgresAppDatabaseError/timedOut(_:)`` after
    /// `timeout` (the pool keeps waiting for a server that does not answer).
    ///
    /// Returns at `timeout` even when `body` does not end when it is
    /// cancelled (a statement on a connection the server killed can wait on
    /// in postgres-nio): Common's `within(_:_:)`.
    public static func within<Value: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let value = try await Common.within(timeout, body) else {
            throw PostgresAppDatabaseError.timedOut(timeout)
        }
        return value
    }

    /// Whether the server answered `error` to a statement (a constraint, a
    /// syntax error): trying again would not help. A lost connection, a
    /// server shutting down or refusing connections, and a database that
    /// does not exist (any more) are not refusals.
    static func isRefusal(_ error: any Error) -> Bool {
        if let transaction = error as? PostgresTransactionError {
            guard let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError else {
                return false
            }
            return isRefusal(inner)
        }
        guard let error = error as? PSQLError, error.code == .server else { return false }
        let state = error.serverInfo?[.sqlState] ?? ""
        // 08: connection exception; 57P0x: shutting down, cannot connect
        // now; 3D000: no such database; 53: insufficient resources.
        return !(state.hasPrefix("08") || state.hasPrefix("57P") || state == "3D000" || state.hasPrefix("53"))
    }

    /// The server's message, or the error's description: for a person.
    public static func reason(_ error: any Error) -> String {
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError {
                return reason(inner)
            }
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message
            }
            if let underlying = error.underlying {
                return "\(underlying)"
            }
            return "\(error.code)"
        }
        if case .timedOut(let timeout) = error as? PostgresAppDatabaseError {
            return "no answer within \(timeout)"
        }
        return "\(error)"
    }
}

/// What a stream of ``PostgresAppDatabase/notifications(on:)`` tells.
public enum PostgresSignal: Sendable, Hashable {
    /// The server listens (again): read the data the channel is about.
    case listening
    /// A notification's payload.
    case notification(String)
}

/// Why the database could not be used.
public enum PostgresAppDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server did not answer (it is down, or refused the user).
    case unreachable(PostgresLocation, reason: String)
    /// It did not answer in time.
    case timedOut(Duration)
    /// A statement failed, with the server's reason.
    case failed(String)

    /// What happened and what to do, for the user.
    public var description: String {
        switch self {
        case .unreachable(let location, let reason):
            "The database \(location) cannot be reached (\(reason)). Check that PostgreSQL runs there and "
                + "that the user may connect."
        case .timedOut(let timeout): "The database did not answer within \(timeout)."
        case .failed(let reason): "The database refused a statement: \(reason)."
        }
    }
}
