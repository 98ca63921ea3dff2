import API
import FixtureServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real HTTP over loopback: each test starts its own server on a free port.
@Suite struct FixtureServerTests {
    @Test func baseURLIsLoopbackWithTheBoundPort() async throws {
        try await withServer { server, _ in
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test func servesTheLatestComic() async throws {
        try await withServer { server, http in
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let comic = try JSONDecoder().decode(ComicDTO.self, from: body)
            #expect(comic == FixtureCatalog.comic(420, imageBase: server.baseURL))
            #expect(comic.img == "\(server.baseURL)/comics/420.png")
        }
    }

    @Test(arguments: [1, 7, 42, 66, 67, 403, 405, 420])
    func servesAComic(number: Int) async throws {
        try await withServer { server, http in
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.comic(number).path)
            #expect(response.statusCode == 200)
            let comic = try JSONDecoder().decode(ComicDTO.self, from: body)
            #expect(comic == FixtureCatalog.comic(number, imageBase: server.baseURL))
        }
    }

    @Test(arguments: [
        "/404/info.0.json", "/0/info.0.json", "/421/info.0.json", "/-1/info.0.json", "/abc/info.0.json",
        "/99999999999999999999/info.0.json", "/1/info.1.json", "/", "/comics/404.png", "/comics/0.png",
        "/comics/421.png", "/comics/1.gif",
    ])
    func missingComicsAndUnknownPathsAre404WithAnEmptyBody(path: String) async throws {
        try await withServer { server, http in
            let (body, response) = try await http.fetch(server.baseURL + path)
            #expect(response.statusCode == 404)
            #expect(body.isEmpty)
        }
    }

    @Test func otherMethodsAre405() async throws {
        try await withServer { server, http in
            let (_, response) = try await http.fetch(server.baseURL + Endpoint.latest.path, method: "POST")
            #expect(response.statusCode == 405)
        }
    }

    @Test func headGetsTheHeadersWithoutTheBody() async throws {
        try await withServer { server, http in
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.comic(1).path, method: "HEAD")
            #expect(response.statusCode == 200)
            #expect(body.isEmpty)
        }
    }

    @Test func servesValidPNGImages() async throws {
        try await withServer { server, http in
            let comic = try JSONDecoder().decode(
                ComicDTO.self, from: try await http.fetch(server.baseURL + Endpoint.comic(3).path).body)
            let (body, response) = try await http.fetch(comic.img)
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
            #expect(Array(body) == FixtureCatalog.png(for: 3))
            let png = try CheckedPNG(Array(body))
            #expect(png.width == 600 && png.height == 200)
        }
    }

    @Test func theEscapeSequenceTitleIsServedVerbatim() async throws {
        try await withServer { server, http in
            let (body, _) = try await http.fetch(server.baseURL + Endpoint.comic(13).path)
            let comic = try JSONDecoder().decode(ComicDTO.self, from: body)
            #expect(comic.title == "\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{1B}[2J\u{1B}[H Alert")
            #expect(comic.title == FixtureCatalog.comic(13, imageBase: server.baseURL)?.title)
            #expect(comic.alt == FixtureCatalog.comic(13, imageBase: server.baseURL)?.alt)
        }
    }

    @Test func countsRequests() async throws {
        try await withServer { server, http in
            #expect(server.requestCount == 0)
            _ = try await http.fetch(server.baseURL + Endpoint.latest.path)
            _ = try await http.fetch(server.baseURL + "/404/info.0.json")
            _ = try await http.fetch(server.baseURL + "/comics/1.png")
            #expect(server.requestCount == 3)
        }
    }

    @Test func servesConcurrentRequests() async throws {
        try await withServer { server, http in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for number in 1...20 {
                    group.addTask {
                        try await http.fetch(server.baseURL + Endpoint.comic(number).path).response.statusCode
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 20)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(server.requestCount == 20)
        }
    }

    // MARK: Faults

    @Test func statusFaultAppliesToTheNextRequestOnly() async throws {
        try await withServer { server, http in
            server.inject(.status(500))
            let (body, faulty) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(faulty.statusCode == 500)
            #expect(body.isEmpty)
            let (_, normal) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(normal.statusCode == 200)
        }
    }

    @Test func faultsCanBeLimitedToAPathAndRepeated() async throws {
        try await withServer { server, http in
            server.inject(.status(503), times: 2, path: Endpoint.comic(1).path)
            let paths = [Endpoint.comic(2), .comic(1), .latest, .comic(1), .comic(1)].map(\.path)
            let statuses = try await http.statuses(of: paths, on: server)
            #expect(statuses == [200, 503, 200, 503, 200])
        }
    }

    @Test func faultsAreServedInOrderAndCanBeRemoved() async throws {
        try await withServer { server, http in
            server.inject(.status(502))
            server.inject(.status(429))
            server.inject(.status(0), times: 0)
            let first = try await http.statuses(of: ["/info.0.json", "/comics/1.png"], on: server)
            #expect(first == [502, 429])
            server.inject(.status(500), times: 5)
            server.removeFaults()
            let last = try await http.statuses(of: ["/info.0.json"], on: server)
            #expect(last == [200])
        }
    }

    @Test func anInvalidStatusCodeIsSentAs500() async throws {
        try await withServer { server, http in
            server.inject(.status(42))
            let statuses = try await http.statuses(of: [Endpoint.latest.path], on: server)
            #expect(statuses == [500])
        }
    }

    @Test func delayFaultDelaysTheResponse() async throws {
        try await withServer { server, http in
            let delay = Duration.milliseconds(300)
            server.inject(.delay(delay))
            let clock = ContinuousClock()
            let start = clock.now
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.comic(5).path)
            #expect(clock.now - start >= delay)
            #expect(response.statusCode == 200)
            #expect(try JSONDecoder().decode(ComicDTO.self, from: body).num == 5)
        }
    }

    @Test func malformedJSONFaultSendsATruncatedBody() async throws {
        try await withServer { server, http in
            server.inject(.malformedJSON)
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(response.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == #"{"num": "oops""#)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(ComicDTO.self, from: body) }
        }
    }

    @Test(arguments: [0, 10, 5 * 1024 * 1024])
    func oversizedBodyFaultSendsThatManyBytes(bytes: Int) async throws {
        try await withServer { server, http in
            server.inject(.oversizedBody(bytes: bytes))
            let (body, response) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(response.statusCode == 200)
            #expect(body.count == bytes)
            #expect(body.starts(with: Array(#"{"num":1"#.utf8).prefix(bytes)))
        }
    }

    @Test func dropConnectionFaultIsANetworkError() async throws {
        try await withServer { server, http in
            server.inject(.dropConnection)
            await #expect(throws: (any Error).self) {
                try await http.fetch(server.baseURL + Endpoint.latest.path)
            }
            #expect(server.requestCount == 1)
            let (_, response) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(response.statusCode == 200)
        }
    }

    /// URLSession retries a request that failed on a reused connection; `Connection: close` prevents that.
    @Test func dropConnectionFaultIsANetworkErrorAfterEarlierRequestsToo() async throws {
        try await withServer { server, http in
            let (_, first) = try await http.fetch(server.baseURL + Endpoint.latest.path)
            #expect(first.value(forHTTPHeaderField: "Connection") == "close")
            server.inject(.dropConnection)
            await #expect(throws: (any Error).self) {
                try await http.fetch(server.baseURL + Endpoint.latest.path)
            }
            #expect(server.requestCount == 2)
        }
    }

    // MARK: Life cycle

    @Test func afterStopTheServerRefusesConnections() async throws {
        let server = try await FixtureServer.start()
        let http = HTTP()
        defer { http.invalidate() }
        let statuses = try await http.statuses(of: [Endpoint.latest.path], on: server)
        #expect(statuses == [200])
        await server.stop()
        await server.stop()
        let fresh = HTTP()
        defer { fresh.invalidate() }
        await #expect(throws: (any Error).self) {
            try await fresh.fetch(server.baseURL + Endpoint.latest.path)
        }
    }

    @Test func startingOnAPortInUseThrows() async throws {
        try await withServer { server, _ in
            await #expect(throws: (any Error).self) {
                let second = try await FixtureServer.start(port: server.port)
                await second.stop()
            }
        }
    }

    @Test func twoServersGetDifferentPorts() async throws {
        try await withServer { first, _ in
            let second = try await FixtureServer.start()
            #expect(second.port != first.port)
            await second.stop()
        }
    }
}
