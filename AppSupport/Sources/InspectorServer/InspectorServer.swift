// `oak-inspector`'s server: on 127.0.0.1 only, a page (and its script and
// style) for the token's holder, a WebSocket for apps (`/apps`) and one for
// pages (`/live`). Every request must carry the token printed at start and
// name this machine in `Host`; a page of another site can neither load the
// page, open the page's stream, nor pose as an app (an app's upgrade has
// no `Origin`, which browsers always send).

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import OakInspector
import ServerSupport
import WebHost

/// The inspector's server: serves the page and takes the apps' and the
/// pages' WebSockets.
public struct InspectorServer: Sendable {
    /// The hub the apps feed and the pages watch.
    public let hub: InspectorHub
    /// The token every request carries.
    public let token: String
    /// The HTTP server, listening.
    public let server: HTTPServer

    /// The page's address, with the token: what to open in a browser.
    public var pageURL: String { "\(server.baseURL)/?token=\(token)" }

    /// The address apps connect to, `oak://TOKEN@127.0.0.1:PORT`.
    public var endpoint: String { "oak://\(token)@127.0.0.1:\(server.port)" }

    /// Starts a server on 127.0.0.1 and `port` (0: any free one).
    ///
    /// - Throws: ``InspectorServerError/badToken`` for a token that is not
    ///   hexadecimal digits, or what kept the server from listening.
    public static func start(
        hub: InspectorHub = InspectorHub(), token: String = InspectorServer.newToken(), port: Int = 0,
        logger: Logger
    ) async throws -> InspectorServer {
        guard token.count >= 16, token.allSatisfy(\.isHexDigit) else { throw InspectorServerError.badToken }
        let responder = PageResponder(token: token, hub: hub)
        let upgrades = WebSocketUpgrades(maxFrameSize: 16 << 20) { request, _, logger in
            guard let target = request.path, let components = URLComponents(string: target),
                request.method == .get, AllowedHosts().allows(request.authority),
                let given = components.queryItems?.first(where: { $0.name == "token" })?.value,
                PageResponder.constantTimeEqual(given, token)
            else {
                logger.notice("A WebSocket without the token, or for another host, was refused.")
                return .dontUpgrade
            }
            switch components.path {
            case "/apps" where request.headerFields[.origin] == nil:
                return .upgrade([:]) { inbound, _, _ in
                    var app: Int?
                    defer {
                        if let app { Task { await hub.disconnect(app) } }
                    }
                    for try await message in inbound.messages(maxSize: 16 << 20) {
                        guard case .text(let text) = message else { continue }
                        if let app {
                            await hub.receive(text, from: app)
                        } else {
                            guard
                                let hello = try? JSONDecoder().decode(
                                    [String: InspectorHello].self, from: Data(text.utf8))["hello"],
                                hello.version == 1, PageResponder.constantTimeEqual(hello.token, token)
                            else { return }
                            guard let connected = await hub.connect(hello) else { return }
                            app = connected
                        }
                    }
                }
            case "/live" where PageResponder.isSameOrigin(request):
                return .upgrade([:]) { inbound, outbound, _ in
                    let (messages, viewer) = await hub.watch()
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    // The page says nothing; when it goes, its watch ends.
                    let reading = Task {
                        do {
                            for try await _ in inbound {}
                        } catch {}
                        await hub.stopWatching(viewer)
                    }
                    defer { reading.cancel() }
                    for await message in messages {
                        guard let data = try? encoder.encode(message) else { continue }
                        do {
                            try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                        } catch {
                            break
                        }
                    }
                }
            default:
                return .dontUpgrade
            }
        }
        let server = try await HTTPServer.start(
            responder: responder, host: "127.0.0.1", port: port, webSockets: upgrades, logger: logger)
        return InspectorServer(hub: hub, token: token, server: server)
    }

    /// 32 random hexadecimal digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Stops the server.
    public func stop() async {
        await server.stop()
    }
}

/// Why the inspector's server did not start.
public enum InspectorServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The token given is not at least 16 hexadecimal digits.
    case badToken

    /// What to do.
    public var description: String {
        "The inspector's token must be at least 16 hexadecimal digits; leave it out to have one made."
    }
}

/// Answers the page's requests: `/` (the page), `/inspector.js`,
/// `/inspector.css`, `/export`; each only with the token and for this
/// machine.
struct PageResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let token: String
    let hub: InspectorHub

    func respond(to request: Request, context: Context) async throws -> Response {
        guard AllowedHosts().allows(request.head.authority) else {
            return Self.text(.misdirectedRequest, "This inspector answers for 127.0.0.1 and localhost only.")
        }
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "Only GET is answered here.")
        }
        guard let given = request.uri.queryParameters.get("token"), Self.constantTimeEqual(given, token) else {
            return Self.text(
                .forbidden, "Open the address oak-inspector printed when it started: it carries the token.")
        }
        switch request.uri.path {
        case "/":
            // The token is hexadecimal digits: nothing to escape.
            return Self.body(
                InspectorPage.html.replacingOccurrences(of: "TOKEN", with: token), type: "text/html; charset=utf-8")
        case "/inspector.js": return Self.body(InspectorPage.script, type: "text/javascript; charset=utf-8")
        case "/inspector.css": return Self.body(InspectorPage.style, type: "text/css; charset=utf-8")
        case "/export": return await export(request.uri.queryParameters)
        default: return Self.text(.notFound, "Nothing here: the inspector's page is /.")
        }
    }

    /// `/export?app=A&run=R&through=S&as=session|test`: the run's steps
    /// (up to the entry numbered `S`, or all) as a file to save.
    func export(_ query: Parameters) async -> Response {
        guard let app = query.get("app").flatMap(Int.init), let run = query.get("run").flatMap(UInt64.init),
            let format = query.get("as"), format == "session" || format == "test"
        else {
            return Self.text(.badRequest, "Export with app=, run= and as=session or as=test, as the page's links do.")
        }
        let through = query.get("through").flatMap(UInt64.init)
        let export: InspectorExport
        do {
            export = try InspectorExport(entries: await hub.entries(of: app), run: run, through: through)
        } catch {
            return Self.text(.unprocessableContent, error.description)
        }
        // Letters and digits only: the name goes into a header.
        let name = InspectorExport.fileName(export.type) + "Run\(run)"
        var response =
            format == "session"
            ? Self.body(export.session, type: "application/jsonl; charset=utf-8")
            : Self.body(export.test(named: "replayOf" + name), type: "text/x-swift; charset=utf-8")
        response.headers[.contentDisposition] =
            "attachment; filename=\"" + (format == "session" ? "\(name).jsonl" : "ReplayOf\(name).swift") + "\""
        return response
    }

    static func body(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        for (name, value) in [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// Compares without stopping at the first difference.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether the upgrade comes from the inspector's own page.
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headerFields[.origin], let authority = request.authority else { return false }
        return origin == "http://\(authority)"
    }
}
