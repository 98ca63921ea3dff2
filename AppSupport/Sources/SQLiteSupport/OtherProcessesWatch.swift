// What other processes commit to an SQLite file, told to a pool's
// observations: GRDB's `ValueObservation` sees the commits of its own pool
// only. `PRAGMA data_version` changes when another connection commits; a
// watch reads it on a read-only connection of its own every interval and,
// when it changed, tells the pool's observations to fetch again.

import Foundation
import GRDB

/// A watch of one SQLite file for the commits of other processes.
///
/// Open it before the observation it serves reads its first value: a
/// commit made by another process in between is then seen as a change
/// (opened after, its first version would already include that commit, and
/// the observation would never fetch it).
///
/// ```swift
/// let watch = OtherProcessesWatch(path: path)
/// let cancellable = observation.start(in: pool, onError: { _ in }, onChange: show)
/// let watching = Task { await watch?.run(notifying: pool, every: .milliseconds(500)) }
/// ```
public final class OtherProcessesWatch: Sendable {
    private let connection: DatabaseQueue
    private let version: Int

    /// A watch of the file at `path`, from its version now; `nil` when it
    /// cannot be read.
    public init?(path: String) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "oak.other-processes-watch"
        guard let connection = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        guard let version = Self.version(of: connection) else {
            try? connection.close()
            return nil
        }
        self.connection = connection
        self.version = version
    }

    private static func version(of connection: DatabaseQueue) -> Int? {
        try? connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
    }

    /// Reads the file's version every `interval` and, when it differs from
    /// the one seen last (another connection has committed), tells `pool`'s
    /// observations to fetch again — in order with the commits they saw
    /// themselves: an observer never gets an older value after a newer one.
    /// This process's own commits change the version too; observations
    /// that drop duplicates send nothing for them. Returns when cancelled
    /// or when the file cannot be read any more; closes its connection.
    public func run(notifying pool: DatabasePool, every interval: Duration) async {
        defer { try? connection.close() }
        var seen = version
        while (try? await Task.sleep(for: interval)) != nil {
            guard let now = Self.version(of: connection) else { return }
            guard now != seen else { continue }
            seen = now
            do {
                try await pool.write { db in try db.notifyChanges(in: .fullDatabase) }
            } catch {
                return
            }
        }
    }
}
