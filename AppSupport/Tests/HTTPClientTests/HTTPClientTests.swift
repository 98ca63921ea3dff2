// The HTTP client against a real server on loopback: bodies, statuses, the
// size limit while the body arrives, redirects not followed, timeouts, and
// addresses it refuses.

import Foundation
import HTTPClient
import ServerSupport
import Testing

@Suite("HTTP client", .timeLimit(.minutes(1)))
struct HTTPClientTests {
    @Test func aBodyIsReturned() async throws {
        let server = try await startServer()
        let body = try await HTTPClient().get(try #require(URL(string: server.baseURL + "/ok")))
        #expect(String(decoding: body, as: UTF8.self) == "hello")
        await server.stop()
    }

    @Test func aStatusOutside2xxIsAnError() async throws {
        let server = try await startServer()
        await #expect(throws: HTTPError.status(404)) {
            _ = try await HTTPClient().get(try #require(URL(string: server.baseURL + "/missing")))
        }
        await server.stop()
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let server = try await startServer()
        await #expect(throws: HTTPError.status(302)) {
            _ = try await HTTPClient().get(try #require(URL(string: server.baseURL + "/redirect")))
        }
        await server.stop()
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        let server = try await startServer()
        await #expect(throws: HTTPError.tooLarge(limit: 1_000)) {
            _ = try await HTTPClient(maxBodySize: 1_000).get(try #require(URL(string: server.baseURL + "/big")))
        }
        await server.stop()
    }

    @Test func aSlowServerTimesOut() async throws {
        let server = try await startServer()
        await #expect(throws: HTTPError.timedOut) {
            _ = try await HTTPClient(timeout: 0.5).get(try #require(URL(string: server.baseURL + "/slow")))
        }
        await server.stop()
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)"])
    func onlyHTTPAddressesAreFetched(_ address: String) async throws {
        let url = try #require(URL(string: address))
        do {
            _ = try await HTTPClient().get(url)
            Issue.record("\(address) was fetched")
        } catch {
            guard case .refused = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
        }
    }

    @Test func aCancelledRequestReturnsAtOnce() async throws {
        let server = try await startServer()
        let url = try #require(URL(string: server.baseURL + "/slow"))
        let request = Task { () async throws(HTTPError) -> Data in try await HTTPClient(timeout: 30).get(url) }
        request.cancel()
        let result = await request.result
        #expect(throws: HTTPError.self) { try result.get() }
        await server.stop()
    }
}
