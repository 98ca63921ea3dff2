// A browser without a browser, for the server tests: real HTTP on loopback
// through URLSession, the session cookie kept by hand, redirects not
// followed, and Server-Sent Events read as they arrive.

import ComicsScene
import FavouritesScene
import FixtureServer
import Foundation
import Logging
import MainScene
import Persistence
import Services
import WebServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The offline catalog, a store in a fresh directory, and the web server
/// over them.
struct WebFixture {
    let catalog: FixtureServer
    let server: ComicsWebServer
    let directory: URL

    static func start(
        limits: SessionLimits = SessionLimits(), clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> WebFixture {
        let catalog = try await FixtureServer.start()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("oak-web-\(UUID().uuidString)")
        let store = Result { () throws(PersistenceError) in try FavouritesStore(directory: directory) }
        let base = URL(string: catalog.baseURL) ?? URL(fileURLWithPath: "/")
        let env = Main.Env(
            comics: .live(source: ComicsSource(base: base), favourites: store, loadsImages: true),
            favourites: .live(store))
        var logger = Logger(label: "comics.web.test")
        logger.logLevel = .critical  // stopping a server with open streams logs an error
        let server = try await ComicsWebServer.start(env: env, limits: limits, clock: clock, logger: logger)
        return WebFixture(catalog: catalog, server: server, directory: directory)
    }

    func stop() async {
        await server.stop()
        await catalog.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client of this server.
    func client() -> WebClient { WebClient(base: server.baseURL) }
}

/// A response, read whole.
struct WebResponse {
    let status: Int
    let headers: [String: String]
    let body: String
    let data: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// One browser: its cookie, its token.
final class WebClient: @unchecked Sendable {
    // Safety: each test uses its client from one task at a time.
    let base: String
    var cookie: String?
    private let session: URLSession
    private let delegate = NoRedirects()

    init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    func get(_ path: String) async throws -> WebResponse {
        try await send(URLRequest(url: url(path)))
    }

    /// Posts form fields; as the page's script does when `fetch` is true.
    func post(_ path: String, fields: [(String, String)], fetch: Bool = false) async throws -> WebResponse {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if fetch { request.setValue("fetch", forHTTPHeaderField: "X-Oak-Intent") }
        request.httpBody = Data(Self.form(fields).utf8)
        return try await send(request)
    }

    /// Sends `intent` with the token of the page in `page`.
    func intent(_ name: String, number: Int? = nil, token: String, fetch: Bool = true) async throws -> WebResponse {
        var fields = [("token", token), ("intent", name)]
        if let number { fields.append(("number", String(number))) }
        return try await post("/intent", fields: fields, fetch: fetch)
    }

    /// The session's pages, as the server pushes them.
    func events() -> AsyncThrowingStream<String, any Error> {
        var request = URLRequest(url: url("/events"))
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        request.timeoutInterval = 60
        return EventStreamReader.events(for: request)
    }

    private func send(_ request: URLRequest) async throws -> WebResponse {
        var request = request
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        let result = WebResponse(
            status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self), data: data)
        if let setCookie = result.header("Set-Cookie"), let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        return result
    }

    private func url(_ path: String) -> URL {
        URL(string: base + path) ?? URL(fileURLWithPath: "/")
    }

    static func form(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return "\(name)=\(encoded)"
        }.joined(separator: "&")
    }

    /// Opens the app as a browser does: the first page (which makes the
    /// session), then the pushed pages until the latest comic has loaded.
    /// Returns that page and its token.
    func open() async throws -> (token: String, page: String) {
        let first = try await get("/")
        guard first.status == 200 else { throw WebTestError.status(first.status, "GET /") }
        let page = try await events().first(
            where: { Self.shows(FixtureCatalog.latestNumber, $0) }, "the latest comic")
        guard let token = Self.token(in: page) else { throw WebTestError.noSuchPage("a page with a token") }
        return (token, page)
    }

    /// Whether `page` shows comic `number`, loaded (not "Loading…": while a
    /// comic loads, the intents that start another load are not offered).
    static func shows(_ number: Int, _ page: String) -> Bool {
        page.contains("data-number=\"\(number)\"") && !page.contains("id=\"comic-loading\"")
    }

    /// The anti-forgery token in a page.
    static func token(in page: String) -> String? {
        guard let range = page.range(of: "name=\"token\" value=\"") else { return nil }
        let rest = page[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}

/// Reads a `text/event-stream` response as it arrives and yields the data
/// of each event.
final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safety: the delegate queue is serial; `buffer` is used only there.
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private var buffer = ""

    private init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    static func events(for request: URLRequest) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let reader = EventStreamReader(continuation: continuation)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: queue)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer += String(decoding: data, as: UTF8.self)
        while let end = buffer.range(of: "\n\n") {
            let event = String(buffer[..<end.lowerBound])
            buffer.removeSubrange(..<end.upperBound)
            let data = event.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("data: ") }
                .map { $0.dropFirst("data: ".count) }
                .joined(separator: "\n")
            continuation.yield(data)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}

extension AsyncThrowingStream where Element == String {
    /// The first page pushed that satisfies `condition`.
    func first(where condition: (String) -> Bool, _ description: String) async throws -> String {
        for try await page in self where condition(page) { return page }
        throw WebTestError.noSuchPage(description)
    }
}

enum WebTestError: Error {
    case noSuchPage(String)
    case status(Int, String)
}
