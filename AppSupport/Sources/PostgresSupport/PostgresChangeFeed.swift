// What several processes change, pushed to each of them: every follower of
// a feed gets the value now (read once it follows), then the value after
// each change any process announced on the feed's channel (NOTIFY), read
// again once per burst of notifications. A process's followers share one LISTEN connection and one
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
/// tried again by itself, after 0.1 s doubling up to 5 s (or at the next
/// notification, if one comes first): a change is never left unread until
/// the next one.
public final class PostgresChangeFeed<Value: Sendable & Equatable>: Sendable {
    private let database: PostgresAppDatabase
    private let channel: String
    private let read: @Sendable () async throws -> Value
    private let logger: Logger
    private let state = Mutex(Followers())

    private struct Followers {
        /// Each follower's way to take a value (made into what it follows).
        var continuations: [Int: @Sendable (Value) -> Void] = [:]
        /// Followers that have not had a value yet, with the number of reads
        /// started before they came: they get the first value read after,
        /// even when it is the latest.
        var waiting: [Int: Int] = [:]
        /// Reads started so far.
        var reads = 0
        var nextID = 0
        var latest: Value?
        var task: Task<Void, Never>?
        /// Wakes the reader; set while it runs.
        var wake: AsyncStream<Void>.Continuation?
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

    /// The value now (read for this follower: a value read for others
    /// before may be older than what the follower read itself), then after
    /// each change, until the stream is dropped; a value is not sent twice
    /// in a row.
    public func follow() -> AsyncStream<Value> {
        follow { $0 }
    }

    /// ``follow()``, each value made into what the follower needs by
    /// `transform` (on the reader's task, as it is sent: no task of its own
    /// per follower).
    public func follow<Element: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { followers in
            let id = followers.nextID
            followers.nextID += 1
            followers.continuations[id] = { value in continuation.yield(transform(value)) }
            followers.waiting[id] = followers.reads
            if followers.task == nil {
                followers.task = Task { [weak self] in await self?.run() }
            } else {
                followers.wake?.yield()
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.unfollow(id) }
        return stream
    }

    private func unfollow(_ id: Int) {
        let task = state.withLock { followers -> Task<Void, Never>? in
            followers.continuations[id] = nil
            followers.waiting[id] = nil
            guard followers.continuations.isEmpty else { return nil }
            defer {
                followers.task = nil
                followers.latest = nil
                followers.wake = nil
            }
            return followers.task
        }
        task?.cancel()
    }

    /// Listens, and reads once per burst of signals: a reader waits for a
    /// wake-up that holds at most one, however many signals came.
    private func run() async {
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wake = wake }
        let signals = database.notifications(on: channel)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in signals { wake.yield() }
                wake.finish()
            }
            group.addTask { [read, logger, channel] in
                var delay = Duration.milliseconds(100)
                var retry: Task<Void, Never>?
                for await _ in wakeUps {
                    retry?.cancel()
                    let number = self.startRead()
                    do {
                        self.publish(try await read(), read: number)
                        delay = .milliseconds(100)
                    } catch {
                        logger.notice(
                            "A change could not be read; reading again.",
                            metadata: ["channel": "\(channel)", "error": "\(error)", "after": "\(delay)"])
                        // Read again after a while, unless a notification
                        // wakes the reader first.
                        retry = Task { [delay] in
                            guard (try? await Task.sleep(for: delay)) != nil else { return }
                            wake.yield()
                        }
                        delay = min(delay * 2, .seconds(5))
                    }
                }
                retry?.cancel()
            }
        }
    }

    /// Counts a read that starts now; its number.
    private func startRead() -> Int {
        state.withLock { followers in
            followers.reads += 1
            return followers.reads
        }
    }

    /// Sends `value`, the result of read `number`, to the followers that
    /// came before the read started: to each when it changed, else to
    /// those that have had none yet.
    /// The followers are told after the lock is released (their transforms
    /// run then); one reader publishes, so values keep their order.
    private func publish(_ value: Value, read number: Int) {
        let told = state.withLock { followers -> [@Sendable (Value) -> Void] in
            guard followers.task != nil else { return [] }
            // A follower that came after the read started may have read a
            // newer value itself: it waits for the read its coming woke.
            let tooLate = Set(followers.waiting.filter { $0.value >= number }.map(\.key))
            let changed = followers.latest != value
            if changed { followers.latest = value }
            let told = followers.continuations.filter { id, _ in
                !tooLate.contains(id) && (changed || followers.waiting[id] != nil)
            }
            followers.waiting = followers.waiting.filter { tooLate.contains($0.key) }
            return Array(told.values)
        }
        for take in told { take(value) }
    }
}
