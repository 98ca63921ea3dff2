// The cache a server's sessions share: each comic and image fetched once,
// failures never kept, the latest comic kept for a while, images bounded in
// bytes, concurrent requests sharing one fetch.

import API
import Clocks
import ComicsFeature
import FixtureServer
import Foundation
import HTTPClient
import Persistence
import Testing

@testable import Services

@Suite("Comics cache")
struct ComicsCacheTests {
    /// A live port with `cache` on a fresh fixture server.
    private func withCachedEnv(
        _ cache: ComicsCache, _ body: (ComicsEnv, FixtureServer) async throws -> Void
    ) async throws {
        let server = try await FixtureServer.start()
        let base = try #require(URL(string: server.baseURL))
        let store = Result<any FavouritesStorage, PersistenceError>.failure(.writeFailed(reason: "not used here"))
        do {
            try await body(
                .live(source: ComicsSource(base: base), favourites: store, loadsImages: true, cache: cache), server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aComicAndItsImageAreFetchedOnceForEveryUserOfThePort() async throws {
        try await withCachedEnv(ComicsCache()) { env, server in
            let first = try await env.comic(3)
            let url = try #require(first.imageURL)
            let image = try #require(await env.image(url))
            let fetches = server.requestCount
            #expect(fetches == 2)

            let again = try await env.comic(3)
            let sameImage = await env.image(try #require(again.imageURL))
            #expect(again == first)
            #expect(sameImage == image)
            #expect(server.requestCount == fetches)
        }
    }

    @Test func aFailureIsNotKept() async throws {
        try await withCachedEnv(ComicsCache()) { env, server in
            server.inject(.status(500), path: "/4/info.0.json")
            await #expect(throws: ComicsError.server(status: 500)) { try await env.comic(4) }
            let comic = try await env.comic(4)
            #expect(comic.number == 4)
            #expect(server.requestCount == 2)
        }
    }

    @Test func theLatestComicIsFetchedAgainAfterItsLifetime() async throws {
        let clock = TestClock()
        try await withCachedEnv(ComicsCache(latestLifetime: .seconds(60), clock: clock)) { env, server in
            _ = try await env.latest()
            _ = try await env.latest()
            #expect(server.requestCount == 1)
            await clock.advance(by: .seconds(61))
            _ = try await env.latest()
            #expect(server.requestCount == 2)
        }
    }

    @Test func concurrentRequestsForOneKeyShareOneFetch() async throws {
        // Nothing is kept (limit 0): only sharing the fetch in flight can
        // make twenty requests cost one fetch.
        let cache = FetchCache<Int, String, Never>(
            limit: 0, clock: ContinuousClock(), cost: { _ in 1 }, lifetime: { _ in nil })
        let fetches = Counter()
        let gate = Gate()
        await withTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await cache.value(for: 1) {
                        await fetches.increment()
                        await gate.wait()
                        return "one"
                    }
                }
            }
            while await cache.waiting < 19 { await Task.yield() }
            await gate.open()
            for await value in group { #expect(value == "one") }
        }
        #expect(await fetches.value == 1)
        _ = await cache.value(for: 1) {
            await fetches.increment()
            return "again"
        }
        #expect(await fetches.value == 2)
    }

    @Test func imagesAreBoundedInBytesLeastRecentlyUsedOutFirst() async throws {
        let cache = FetchCache<String, Data, Never>(
            limit: 10, clock: ContinuousClock(), cost: \.count, lifetime: { _ in nil })
        let fetches = Counter()
        func get(_ key: String) async -> Data {
            await cache.value(for: key) {
                await fetches.increment()
                return Data(repeating: 0, count: 4)
            }
        }
        _ = await get("a")
        _ = await get("b")
        _ = await get("a")  // `b` is now the least recently used
        _ = await get("c")  // 12 bytes > 10: `b` goes
        #expect(await cache.totalCost == 8)
        #expect(await fetches.value == 3)
        _ = await get("a")
        #expect(await fetches.value == 3)
        _ = await get("b")
        #expect(await fetches.value == 4)

        // A value larger than the whole bound is returned, not kept.
        let large = await cache.value(for: "large") { Data(repeating: 1, count: 11) }
        #expect(large.count == 11)
        #expect(await cache.totalCost <= 10)
    }
}

private actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

/// Holds its waiters until opened.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
