// The live Comics port against the fixture server over real HTTP on
// loopback: each answer and each injected fault becomes the right domain
// value or typed error.

import API
import ComicsFeature
import FavouritesFeature
import FixtureServer
import Foundation
import HTTPClient
import Persistence
import Services
import Testing

/// Runs `body` with a live port on a fresh fixture server.
func withLiveEnv(
    timeout: TimeInterval = 10, maxBodySize: Int = 1 << 20,
    _ body: (ComicsEnv, FixtureServer) async throws -> Void
) async throws {
    let server = try await FixtureServer.start()
    let base = try #require(URL(string: server.baseURL))
    let source = ComicsSource(base: base, client: HTTPClient(timeout: timeout, maxBodySize: maxBodySize))
    let store = Result<any FavouritesStorage, PersistenceError>.failure(.writeFailed(reason: "not used here"))
    do {
        try await body(.live(source: source, favourites: store), server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

func load(_ env: ComicsEnv, _ number: Int) async -> Result<Comic, ComicsError> {
    await ComicsPlainView.load(.number(number), env: env)
}

@Suite("Comics service over HTTP")
struct ComicsServiceTests {
    @Test func theLatestAndANumberedComicAreMappedToDomainComics() async throws {
        try await withLiveEnv { env, server in
            let latest = try await env.latest()
            #expect(latest.number == FixtureCatalog.latestNumber)
            let seven = try await env.comic(7)
            #expect(seven.number == 7)
            #expect(seven.date.count == 10)
            #expect(seven.imageURL?.absoluteString == "\(server.baseURL)/comics/7.png")
        }
    }

    @Test func comic404IsNotFound() async throws {
        try await withLiveEnv { env, _ in
            #expect(await load(env, 404) == .failure(.notFound(404)))
        }
    }

    @Test func serverErrorsAreRetryableAndTheNextRequestWorks() async throws {
        try await withLiveEnv { env, server in
            server.inject(.status(503))
            let result = await load(env, 3)
            #expect(result == .failure(.server(status: 503)))
            if case .failure(let error) = result { #expect(error.isRetryable) }
            let three = try await env.comic(3)
            #expect(three.number == 3)
        }
    }

    @Test func malformedJSONNamesTheProblem() async throws {
        try await withLiveEnv { env, server in
            server.inject(.malformedJSON)
            guard case .failure(.badResponse(let reason)) = await load(env, 3) else {
                Issue.record("expected a bad response")
                return
            }
            #expect(reason.contains("JSON") || reason.contains("num"))
        }
    }

    @Test func anOversizedBodyIsRefused() async throws {
        try await withLiveEnv(maxBodySize: 64 * 1024) { env, server in
            server.inject(.oversizedBody(bytes: 200_000))
            guard case .failure(.badResponse(let reason)) = await load(env, 3) else {
                Issue.record("expected a refused body")
                return
            }
            #expect(reason.contains("larger"))
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        try await withLiveEnv(timeout: 0.3) { env, server in
            server.inject(.delay(.seconds(2)))
            let result = await load(env, 3)
            #expect(result == .failure(.timedOut) || result.isUnreachable)
        }
    }

    @Test func aRedirectIsNotFollowed() async throws {
        try await withLiveEnv { env, server in
            server.inject(.status(302))
            let result = await load(env, 3)
            #expect(result == .failure(.server(status: 302)), "\(result)")
        }
    }

    @Test func aDroppedConnectionIsUnreachable() async throws {
        try await withLiveEnv { env, server in
            server.inject(.dropConnection, times: 2)
            #expect(await load(env, 3).isUnreachable)
        }
    }

    @Test func imagesFromAnotherHostAreNotKept() throws {
        let base = try #require(URL(string: "https://xkcd.com"))
        let dto = ComicDTO(
            num: 1, title: "t", alt: "a", img: "http://evil.example/x.png", year: "2006", month: "1", day: "1")
        #expect(ComicsSource.comic(from: dto, base: base).imageURL == nil)
        let https = ComicDTO(
            num: 1, title: "t", alt: "a", img: "https://xkcd.com/x.png", year: "2006", month: "1", day: "1")
        #expect(ComicsSource.comic(from: https, base: base).imageURL != nil)
        #expect(ComicsSource.comic(from: https, base: base).date == "2006-01-01")
        let hostile = ComicDTO(
            num: 1, title: "t", alt: "a", img: "", year: "\u{1B}]0;x\u{07}2006", month: "1", day: "1")
        #expect(ComicsSource.comic(from: hostile, base: base).date == "02006-01-01")
        let otherPort = ComicDTO(
            num: 1, title: "t", alt: "a", img: "https://xkcd.com:8443/x.png", year: "2006", month: "1", day: "1")
        #expect(ComicsSource.comic(from: otherPort, base: base).imageURL == nil)
    }
}

extension Result where Failure == ComicsError {
    var isUnreachable: Bool {
        if case .failure(.unreachable) = self { true } else { false }
    }
}
