// A browser without a browser, for the tests of web servers: real HTTP on
// loopback through URLSession, the session cookie kept by hand, redirects
// not followed, and Server-Sent Events read as they arrive.

import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response, read whole.
public struct WebResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields.
    public let headers: [String: String]
    /// The body as text (UTF-8).
    public let body: String
    /// The body's bytes.
    public let data: Data

    /// The value of header `name`, whatever its case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// One browser: its cookie, its token.
public final class WebClient: @unchecked Sendable {
    // Safety: each test uses its client from one task at a time.
    /// The server's root address.
    public let base: String
    /// The session cookie (`name=value`), once the server has set one.
    public var cookie: String?
    private let session: URLSession
    private let delegate = NoRedirects()

    /// A browser of the server at `base`, without a cookie yet.
    public init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// GETs `path`.
    public func get(_ path: String) async throws -> WebResponse {
        try await send(URLRequest(url: url(path)))
    }

    /// Posts form fields; as the page's script does when `fetch` is true.
    public func post(_ path: String, fields: [(String, String)], fetch: Bool = false) async throws -> WebResponse {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if fetch { request.setValue("fetch", forHTTPHeaderField: "X-Oak-Intent") }
        request.httpBody = Data(Self.form(fields).utf8)
        return try await send(request)
    }

    /// Sends intent `name` (with `number` and more `fields`) with `token`;
    /// as the page's script does when `fetch` is true.
    public func intent(
        _ name: String, number: Int? = nil, token: String, fetch: Bool = true, fields more: [(String, String)] = []
    ) async throws -> WebResponse {
        var fields = [("token", token), ("intent", name)]
        if let number { fields.append(("number", String(number))) }
        return try await post("/intent", fields: fields + more, fetch: fetch)
    }

    /// The session's pages, as the server pushes them.
    public func events() -> AsyncThrowingStream<String, any Error> {
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

    /// `fields` as a form body (`application/x-www-form-urlencoded`).
    public static func form(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return "\(name)=\(encoded)"
        }.joined(separator: "&")
    }

    /// The anti-forgery token of a page as it was loaded: the one its
    /// script posts with (`<meta name="oak-token">`), else its first
    /// form's; `nil` in pushed content, which carries no session's token.
    public static func token(in page: String) -> String? {
        for marker in ["<meta name=\"oak-token\" content=\"", "name=\"token\" value=\""] {
            guard let range = page.range(of: marker) else { continue }
            let rest = page[range.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            let token = String(rest[..<end])
            // Pushed content carries the placeholder (WebUI's
            // `WebContext.tokenPlaceholder`), not a session's token.
            if token != "\u{1}oak-token\u{1}" { return token }
        }
        return nil
    }

    /// Refuses every redirect: the test sees the redirect itself.
    public final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        /// Refuses the redirect.
        public func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}

/// Reads a `text/event-stream` response as it arrives and yields the data
/// of each event.
public final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safety: the delegate queue is serial; `buffer` is used only there.
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private var buffer = ""

    private init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// The data of each event of the stream `request` opens.
    public static func events(for request: URLRequest) -> AsyncThrowingStream<String, any Error> {
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

    /// Yields every event that `data` completes.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer += String(decoding: data, as: UTF8.self)
        while let end = buffer.range(of: "\n\n") {
            let event = String(buffer[..<end.lowerBound])
            buffer.removeSubrange(..<end.upperBound)
            let lines = event.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("data: ") }
            // A comment (": ping") has no data: it is not an event.
            guard !lines.isEmpty else { continue }
            continuation.yield(lines.map { $0.dropFirst("data: ".count) }.joined(separator: "\n"))
        }
    }

    /// Ends the stream, with the error if there was one.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}

extension AsyncThrowingStream where Element == String {
    /// The first page pushed that satisfies `condition`, within `limit`: a
    /// page that never comes fails the test naming `description` (and the
    /// last page seen), rather than hanging it. Past the limit the stream
    /// ends (its connection is closed).
    public func first(
        where condition: @escaping @Sendable (String) -> Bool, _ description: String,
        within limit: Duration = .seconds(45)
    ) async throws -> String {
        let last = LastPage()
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for try await page in self {
                    if condition(page) { return page }
                    last.page.withLock { $0 = page }
                }
                throw WebTestError.noSuchPage(description, last: last.page.withLock { $0 })
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let found = try await group.next() ?? nil else {
                throw WebTestError.noSuchPage(
                    "\(description) (not within \(limit))", last: last.page.withLock { $0 })
            }
            return found
        }
    }
}

/// The last page a wait saw, for its failure's message.
private final class LastPage: Sendable {
    let page = Mutex<String?>(nil)
}

/// Why a test could not go on.
public enum WebTestError: Error, CustomStringConvertible {
    /// The page awaited never came; `last` is the last page pushed.
    case noSuchPage(String, last: String?)
    /// A response had an unexpected status.
    case status(Int, String)

    /// What went wrong, with the last page seen.
    public var description: String {
        switch self {
        case .noSuchPage(let description, let last):
            "No page showed \(description). The last page pushed was:\n\(last ?? "(none)")"
        case .status(let status, let detail): "Status \(status): \(detail)"
        }
    }
}
