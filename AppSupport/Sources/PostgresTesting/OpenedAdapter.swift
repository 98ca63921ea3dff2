// An app's PostgreSQL adapter as the server processes of a test hold it:
// each process its own pool on one scratch database, closed after the test
// however it ends — what every adapter's contract tests set up.

import PostgresSupport

/// An adapter open on a pool of its own: what one server process holds.
public struct OpenedAdapter<Adapter: PostgresAdapter>: Sendable {
    /// The process's pool.
    public let database: PostgresAppDatabase
    /// The adapter over it.
    public let store: Adapter
}

extension PostgresTestServer {
    /// Runs `body` with `Adapter` opened by `processes` processes on one new
    /// scratch database, each on a pool of its own, and closes them all
    /// afterwards, however `body` ends.
    ///
    /// ```swift
    /// try await PostgresTestServer.withAdapter(PostgresNotes.self, processes: 2) { _, opened in
    ///     try await opened[0].store.add(note)
    ///     #expect(try await opened[1].store.all() == [note])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: The adapter to open.
    ///   - processes: How many pools open it, as that many server
    ///     processes would.
    ///   - deadline: How long each statement is tried again after a lost
    ///     connection (``PostgresTestServer/deadline`` unless given).
    ///   - body: The test: the scratch database's location and the opened
    ///     adapters, one per process.
    public static func withAdapter<Adapter: PostgresAdapter, Result>(
        _ adapter: Adapter.Type, processes: Int = 1, deadline: Duration = PostgresTestServer.deadline,
        _ body: (_ location: PostgresLocation, _ opened: [OpenedAdapter<Adapter>]) async throws -> Result
    ) async throws -> Result {
        try await withScratchDatabase { location in
            var opened: [OpenedAdapter<Adapter>] = []
            let result: Swift.Result<Result, any Error>
            do {
                for _ in 0..<processes {
                    let database = try await PostgresAppDatabase.open(location, logger: logger)
                    do {
                        let store = try await Adapter.open(database, deadline: deadline, logger: logger)
                        opened.append(OpenedAdapter(database: database, store: store))
                    } catch {
                        await database.close()
                        throw error
                    }
                }
                result = .success(try await body(location, opened))
            } catch {
                result = .failure(error)
            }
            for process in opened { await process.database.close() }
            return try result.get()
        }
    }
}
