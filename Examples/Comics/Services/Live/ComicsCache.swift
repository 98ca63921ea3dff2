// What the live Comics port fetched, kept for its next users: a server that
// hosts a thousand sessions fetches each comic and image once, not once per
// session, and sessions that show the same comic share its bytes.

import API
import ComicsFeature
import Common
import Foundation

/// Comics and images a live ``ComicsEnv`` fetched, bounded, shared by every
/// session the port serves.
///
/// - A comic by number is kept until `maxComics` newer ones push it out (an
///   xkcd comic does not change once published).
/// - The latest comic is kept for `latestLifetime`, then fetched again.
/// - Images are kept until they add up to more than `maxImageBytes`; the
///   least recently used go first.
/// - Failures are never kept: the next request fetches again.
/// - Requests for what is already being fetched wait for that fetch instead
///   of starting their own. A waiter that is cancelled still waits for it
///   (at most the client's timeout), so that the others get the value.
public final class ComicsCache: Sendable {
    let comics: FetchCache<Endpoint, Comic, ComicsError>
    let images: FetchCache<URL, Data, ImageUnavailable>

    /// A cache; `clock` measures the latest comic's lifetime.
    public init(
        maxComics: Int = 1_000, maxImageBytes: Int = 32 << 20, latestLifetime: Duration = .seconds(60),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        comics = FetchCache(
            limit: maxComics, clock: clock, cost: { _ in 1 },
            lifetime: { $0 == .latest ? latestLifetime : nil })
        images = FetchCache(limit: maxImageBytes, clock: clock, cost: \.count, lifetime: { _ in nil })
    }
}

/// An image that could not be had (not fetched, or not a PNG): not kept.
struct ImageUnavailable: Error {}

/// Values by key, each fetched once while it is kept; bounded by the sum of
/// the values' costs, least recently used out first.
actor FetchCache<Key: Hashable & Sendable, Value: Sendable, Failure: Error> {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUsed: UInt64
        var expires: Duration?
    }

    private let limit: Int
    private let cost: @Sendable (Value) -> Int
    private let lifetime: @Sendable (Key) -> Duration?
    private let elapsed: Elapsed
    private var entries: [Key: Entry] = [:]
    private var inFlight: [Key: Task<Result<Value, Failure>, Never>] = [:]
    private var uses: UInt64 = 0
    /// The sum of the kept values' costs.
    private(set) var totalCost = 0
    /// How many requests wait for a fetch another one started.
    private(set) var waiting = 0

    init(
        limit: Int, clock: some Clock<Duration>, cost: @escaping @Sendable (Value) -> Int,
        lifetime: @escaping @Sendable (Key) -> Duration?
    ) {
        self.limit = limit
        self.cost = cost
        self.lifetime = lifetime
        self.elapsed = Elapsed(on: clock)
    }

    /// The value kept for `key`, or the one `fetch` returns (kept when it
    /// fits); concurrent requests for the same key share one fetch.
    func value(
        for key: Key, fetch: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        uses += 1
        if let entry = entries[key] {
            if let expires = entry.expires, expires <= elapsed.duration {
                remove(key)
            } else {
                entries[key]?.lastUsed = uses
                return entry.value
            }
        }
        if let running = inFlight[key] {
            waiting += 1
            defer { waiting -= 1 }
            return try await running.value.get()
        }
        let running = Task { () -> Result<Value, Failure> in
            do throws(Failure) {
                return .success(try await fetch())
            } catch {
                return .failure(error)
            }
        }
        inFlight[key] = running
        let result = await running.value
        inFlight[key] = nil
        if case .success(let value) = result {
            keep(value, for: key)
        }
        return try result.get()
    }

    private func keep(_ value: Value, for key: Key) {
        let cost = cost(value)
        guard cost <= limit else { return }
        remove(key)
        while totalCost + cost > limit, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            remove(oldest.key)
        }
        uses += 1
        entries[key] = Entry(
            value: value, cost: cost, lastUsed: uses, expires: lifetime(key).map { elapsed.duration + $0 })
        totalCost += cost
    }

    private func remove(_ key: Key) {
        if let entry = entries.removeValue(forKey: key) {
            totalCost -= entry.cost
        }
    }
}
