// An xkcd-compatible HTTP server on loopback, for tests and offline use. It
// serves `FixtureCatalog` through Hummingbird 2 and can inject faults into the
// next requests (delays, error statuses, malformed or oversized bodies,
// dropped connections) so that clients can be tested against them.

import API
import Foundation
import Hummingbird
import Logging
import ServerSupport

/// An xkcd-compatible HTTP server on loopback that serves ``FixtureCatalog``.
///
/// Routes, for `GET` (and `HEAD`):
/// - `/info.0.json`: the latest comic, as JSON;
/// - `/{n}/info.0.json`: comic `n`, or 404 with an empty body if there is none (#404, 0, 421, …);
/// - `/comics/{n}.png`: the image of comic `n` (`image/png`), or 404.
///
/// Anything else gets 404, and other methods 405. The server does not sanitize the catalog:
/// titles with escape sequences or markup are served verbatim.
///
/// Every response says `Connection: close`, so that each request comes on a connection of its own.
/// Faults are then deterministic: a client cannot silently retry a dropped request on a fresh
/// connection, as URLSession on Linux (libcurl) does when a reused connection gives no reply.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// server.inject(.status(500), path: Endpoint.latest.path)
/// // The next GET of server.baseURL + "/info.0.json" gets 500, later ones the latest comic.
/// await server.stop()
/// ```
///
/// It logs nothing unless given a logger: it must not write on the terminal a client draws on.
public final class FixtureServer: Sendable {
    /// A fault the server injects into a request instead of (or before) its normal response.
    public enum Fault: Sendable, Equatable {
        /// Wait that long, then respond normally.
        case delay(Duration)
        /// Respond with this status and an empty body. Codes outside 200...599 are sent as 500.
        case status(Int)
        /// Respond 200 with a truncated JSON body: `{"num": "oops"`.
        case malformedJSON
        /// Respond 200 with a JSON-like body of exactly `bytes` bytes (at least 0).
        case oversizedBody(bytes: Int)
        /// Close the connection without sending a response: the client sees a network error
        /// (URLSession on Linux: `NSURLErrorBadServerResponse`, "Empty reply from server").
        case dropConnection
    }

    /// The server's root address, with the real bound port, such as `http://127.0.0.1:53124`.
    public var baseURL: String { server.baseURL }

    /// The port the server listens on.
    public var port: Int { server.port }

    private let state: Locked<ServerState>
    private let server: HTTPServer

    private init(state: Locked<ServerState>, server: HTTPServer) {
        self.state = state
        self.server = server
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: The address to bind to; loopback by default.
    ///   - port: The port to bind to; 0 (the default) lets the system choose a free one (see ``baseURL``).
    ///   - logger: Where the server logs; by default nowhere.
    /// - Returns: The running server. Call ``stop()`` when done.
    /// - Throws: The error that prevented the server from listening, such as a port in use, or
    ///   `CancellationError` when the starting task is cancelled (the server is stopped then).
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, logger: Logger = FixtureServer.silentLogger
    ) async throws -> FixtureServer {
        let state = Locked(ServerState())
        let urlHost = host.contains(":") ? "[\(host)]" : host
        let server = try await HTTPServer.start(
            responder: FixtureResponder(state: state), host: host, port: port, logger: logger,
            onListening: { boundPort in state.withLock { $0.imageBase = "http://\(urlHost):\(boundPort)" } })
        return FixtureServer(state: state, server: server)
    }

    /// Stops the server and returns once it has stopped: it no longer accepts connections, and
    /// requests in flight (a delayed one, say) are answered first. Calling it again does nothing.
    public func stop() async {
        await server.stop()
    }

    /// Injects a fault into the next `times` requests, or into the next `times` requests for `path`.
    ///
    /// Faults are served in the order they were injected; a request gets at most one fault, the
    /// first pending one whose path matches.
    ///
    /// - Parameters:
    ///   - fault: The fault.
    ///   - times: How many requests get it; 0 or less injects nothing.
    ///   - path: The request path that gets the fault, such as `Endpoint.latest.path` or
    ///     `"/comics/1.png"`; `nil` (the default) for any path.
    public func inject(_ fault: Fault, times: Int = 1, path: String? = nil) {
        guard times > 0 else { return }
        state.withLock { $0.pending.append(PendingFault(fault: fault, remaining: times, path: path)) }
    }

    /// Removes every fault not served yet.
    public func removeFaults() {
        state.withLock { $0.pending.removeAll() }
    }

    /// The number of requests the server has received, faulty ones included.
    public var requestCount: Int {
        state.withLock { $0.requestCount }
    }

    /// A logger that discards everything: the default of ``start(host:port:logger:)``.
    public static var silentLogger: Logger {
        Logger(label: "FixtureServer", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}

/// A fault waiting for requests.
struct PendingFault: Sendable {
    var fault: FixtureServer.Fault
    var remaining: Int
    var path: String?
}

/// The server's mutable state, shared by the responder and the ``FixtureServer``.
struct ServerState: Sendable {
    var requestCount = 0
    var pending: [PendingFault] = []
    var imageBase = ""

    /// Counts a request and takes the fault it gets, if any.
    mutating func receive(path: String) -> FixtureServer.Fault? {
        requestCount += 1
        guard let index = pending.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
        let fault = pending[index].fault
        pending[index].remaining -= 1
        if pending[index].remaining <= 0 {
            pending.remove(at: index)
        }
        return fault
    }
}

/// A value behind a lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The request context: Hummingbird's core storage and a way to drop the connection.
struct FixtureRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Closes the request's connection and returns once it is closed.
    let dropConnection: @Sendable () async -> Void

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        let channel = source.channel
        self.dropConnection = {
            channel.close(promise: nil)
            try? await channel.closeFuture.get()
        }
    }
}

/// The routes of the xkcd API.
enum FixtureRoute: Equatable {
    /// `/info.0.json`
    case latest
    /// `/{n}/info.0.json`
    case comic(Int)
    /// `/comics/{n}.png`
    case image(Int)

    /// The route of a path, or `nil` if none matches (including numbers that are not plain decimal).
    init?(path: String) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        switch components.count {
        case 2 where components[0].isEmpty && components[1] == "info.0.json":
            self = .latest
        case 3 where components[0].isEmpty && components[2] == "info.0.json":
            guard let number = Self.number(components[1]) else { return nil }
            self = .comic(number)
        case 3 where components[0].isEmpty && components[1] == "comics" && components[2].hasSuffix(".png"):
            guard let number = Self.number(components[2].dropLast(4)) else { return nil }
            self = .image(number)
        default:
            return nil
        }
    }

    private static func number(_ text: Substring) -> Int? {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

/// Serves the catalog, after counting the request and applying its fault, if any.
struct FixtureResponder: HTTPResponder {
    let state: Locked<ServerState>

    func respond(to request: Request, context: FixtureRequestContext) async throws -> Response {
        let fault = state.withLock { $0.receive(path: request.uri.path) }
        let response: Response
        switch fault {
        case .delay(let duration):
            try await Task.sleep(for: duration)
            response = catalogResponse(to: request)
        case .status(let code):
            let status = (200...599).contains(code) ? HTTPResponse.Status(code: code) : .internalServerError
            response = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer()))
        case .malformedJSON:
            response = Self.json(Array(#"{"num": "oops""#.utf8))
        case .oversizedBody(let bytes):
            response = Self.json(Self.oversizedBody(bytes: bytes))
        case .dropConnection:
            await context.dropConnection()
            throw ConnectionDropped()
        case nil:
            response = catalogResponse(to: request)
        }
        var final = request.method == .head ? response.createHeadResponse() : response
        final.headers[.connection] = "close"
        return final
    }

    private func catalogResponse(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"], body: Self.emptyBody)
        }
        switch FixtureRoute(path: request.uri.path) {
        case .latest:
            return comicResponse(FixtureCatalog.latestNumber)
        case .comic(let number):
            return comicResponse(number)
        case .image(let number):
            guard let png = FixtureCatalog.png(for: number) else { return Self.notFound }
            return Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
        case nil:
            return Self.notFound
        }
    }

    private func comicResponse(_ number: Int) -> Response {
        let imageBase = state.withLock { $0.imageBase }
        guard let comic = FixtureCatalog.comic(number, imageBase: imageBase),
            let data = try? Self.encoder.encode(comic)
        else { return Self.notFound }
        return Self.json(Array(data))
    }

    /// Sorted keys, so that the same comic is always the same bytes.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var emptyBody: ResponseBody { ResponseBody(byteBuffer: ByteBuffer()) }

    private static var notFound: Response {
        Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: emptyBody)
    }

    private static func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `{"num":1,"pad":"xxx…"}` cut or padded to exactly `bytes` bytes.
    static func oversizedBody(bytes: Int) -> [UInt8] {
        let count = max(bytes, 0)
        let head = Array(#"{"num":1,"pad":""#.utf8)
        let tail = Array(#""}"#.utf8)
        guard count >= head.count + tail.count else { return Array(head.prefix(count)) }
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: count - head.count - tail.count) + tail
    }
}

/// Thrown after the connection was closed on purpose; Hummingbird's attempt to answer it then fails.
struct ConnectionDropped: Error {}
