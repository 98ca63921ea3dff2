// What several processes change, pushed to each of them: every follower of
// a feed gets the value now, then the value after each change any process
// announced on the feed's channel (NOTIFY), read again once per burst of
// notifications. A process's followers share one LISTEN connection and one
// reader, started by the first follower and stopped after the last — a
// server's thousand sessions hold one connection, not a thousand.

import Logging
import Synchronization

/// The latest value of something kept in PostgreSQL, for every follower.
///
/// ```swift
/// let feed = PostgresChangeFeed(database, channel: "favourites") { try await readAll() }
/// for await favourites in feed.follow() { show(favourites) }
/// ```
///
/// Writers announce a change with `pg_notify(channel, …)` in the
/// transaction that makes it (the notification is sent when it commits).
/// After a lost connection the feed listens again and reads the value
/// again, since what was announced meanwhile is lost; a read that fails is
/// tried again at the next notification.
public final class PostgresChangeFeed<Value: Sendable & Equatable>: Sendable {
    private let database: PostgresAppDatabase
    private let channel: String
    private let read: @Sendable () async throws -> Value
    private let logger: Logger
    private let state = Mutex(Followers())

    private struct Followers {
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
        var latest: Value?
        var task: Task<Void, Never>?
    }

    /// A feed of `read`'s value, read again after each notification on
    /// `channel` (a name of letters, digits and underscores, as the
    /// writers spell it: channels are case-sensitive).
    public init(
        _ database: PostgresAppDatabase, channel: String, logger: Logger = Logger(label: "oak.postgres.feed"),
        read: @escaping @Sendable () async throws -> Value
    ) {
        self.database = database
        self.channel = channel
        self.read = read
        self.logger = logger
    }

    /// The value the followers last received, if any follows now.
    public var latest: Value? { state.withLock { $0.latest } }

    /// How many follow now.
    public var followers: Int { state.withLock { $0.continuations.count } }

    /// The value now (once read), then after each change, until the stream
    /// is dropped; a value is not sent twice in a row.
    public func follow() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { followers in
            let id = followers.nextID
            followers.nextID += 1
            followers.continuations[id] = continuation
            if let latest = followers.latest { continuation.yield(latest) }
            if followers.task == nil { followers.task = Task { [weak self] in await self?.run() } }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.unfollow(id) }
        return stream
    }

    private func unfollow(_ id: Int) {
        let task = state.withLock { followers -> Task<Void, Never>? in
            followers.continuations[id] = nil
            guard followers.continuations.isEmpty else { return nil }
            defer {
                followers.task = nil
                followers.latest = nil
            }
            return followers.task
        }
        task?.cancel()
    }

    /// Listens, and reads once per burst of signals: a reader waits for a
    /// wake-up that holds at most one, however many signals came.
    private func run() async {
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let signals = database.notifications(on: channel)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in signals { wake.yield() }
                wake.finish()
            }
            group.addTask { [read, logger, channel] in
                for await _ in wakeUps {
                    do {
                        self.publish(try await read())
                    } catch {
                        logger.notice(
                            "A change could not be read; reading at the next one.",
                            metadata: ["channel": "\(channel)", "error": "\(error)"])
                    }
                }
            }
        }
    }

    private func publish(_ value: Value) {
        state.withLock { followers in
            guard followers.task != nil, followers.latest != value else { return }
            followers.latest = value
            for continuation in followers.continuations.values { continuation.yield(value) }
        }
    }
}
