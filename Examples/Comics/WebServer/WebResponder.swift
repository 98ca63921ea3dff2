// Turns requests into reads of a session's state and into its intents, and
// states into responses. No feature logic: which intents exist, and what
// they do, is the scenes' (MainWebView.perform, the transducers).

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MainScene
import WebUI

/// The routes of ``ComicsWebServer``.
struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let store: SessionStore
    let logger: Logger

    /// The session cookie's name.
    static let cookieName = "oak_session"
    /// The largest intent body accepted, in bytes.
    static let maxBodySize = 4_096

    func respond(to request: Request, context: Context) async throws -> Response {
        var response: Response
        do {
            response = try await route(request)
        } catch {
            logger.error("A request failed.", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            response = Self.page(
                .internalServerError, title: "Something went wrong",
                text: "The server could not answer. Reload the page.")
        }
        response.headers[.contentSecurityPolicy] = WebPage.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") {  // no `Referer` leaves the page
            response.headers[referrerPolicy] = "no-referrer"
        }
        if request.method == .head {
            return response.createHeadResponse()
        }
        return response
    }

    private func route(_ request: Request) async throws -> Response {
        let path = request.uri.path
        let method = request.method
        switch path {
        case "/":
            guard method == .get || method == .head else { return Self.notAllowed("GET, HEAD") }
            return await index(request)
        case WebPage.intentPath:
            guard method == .post else { return Self.notAllowed("POST") }
            return try await intent(request)
        case WebPage.eventsPath:
            guard method == .get else { return Self.notAllowed("GET") }
            return await events(request)
        case WebPage.scriptPath:
            guard method == .get || method == .head else { return Self.notAllowed("GET, HEAD") }
            return Self.text(WebPage.script, type: "text/javascript; charset=utf-8")
        case WebPage.stylePath:
            guard method == .get || method == .head else { return Self.notAllowed("GET, HEAD") }
            return Self.text(WebPage.style, type: "text/css; charset=utf-8")
        default:
            if path.hasPrefix("/image/"), let number = Self.number(path.dropFirst("/image/".count)) {
                guard method == .get || method == .head else { return Self.notAllowed("GET, HEAD") }
                return await image(number, request)
            }
            return Self.page(.notFound, title: "Not found", text: "There is nothing at this address.")
        }
    }

    // MARK: - Routes

    private func index(_ request: Request) async -> Response {
        if let session = await store.session(id: Self.sessionID(of: request)) {
            return Self.html(await session.page())
        }
        do {
            let session = try await store.makeSession()
            var response = Self.html(await session.page())
            response.headers[.setCookie] =
                "\(Self.cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict"
            response.headers[.cacheControl] = "no-store"
            return response
        } catch {
            var response = Self.page(
                .serviceUnavailable, title: "Too many readers",
                text: "The server is serving as many readers as it can. Try again in a few minutes.")
            response.headers[.retryAfter] = "60"
            return response
        }
    }

    private func intent(_ request: Request) async throws -> Response {
        guard let session = await store.session(id: Self.sessionID(of: request)) else {
            return Self.page(.forbidden, title: "Session ended", text: "Your session has ended. Reload the page.")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.maxBodySize)
        } catch {
            return Self.page(.contentTooLarge, title: "Too large", text: "That request was too large.")
        }
        let fields = Self.formFields(String(buffer: body))
        guard let token = fields["token"], Self.constantTimeEqual(token, session.token) else {
            logger.notice("An intent without the session's token was refused.")
            return Self.page(.forbidden, title: "Refused", text: "That request did not come from this page.")
        }
        let number = fields["number"].flatMap { Self.number(Substring($0)) }
        let result = await session.perform(intent: fields["intent"] ?? "", number: number)
        if Self.isFromScript(request) {
            return Response(status: result == .sent ? .noContent : .conflict)
        }
        return Response(status: .seeOther, headers: [.location: "/"])
    }

    private func events(_ request: Request) async -> Response {
        guard let session = await store.session(id: Self.sessionID(of: request)) else {
            return Self.page(.forbidden, title: "Session ended", text: "Your session has ended. Reload the page.")
        }
        let changes = await session.changes()
        // The stream holds its session weakly: an open page must not keep an
        // ended session (and its memory) alive.
        let body = ResponseBody { [weak session] writer in
            guard let first = session else { return try await writer.finish(nil) }
            var version = await first.version
            try await writer.write(ByteBuffer(string: Self.event(await first.content(), id: version)))
            for await next in changes where next != version {
                guard let session else { break }
                version = next
                try await writer.write(ByteBuffer(string: Self.event(await session.content(), id: version)))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: body)
    }

    private func image(_ number: Int, _ request: Request) async -> Response {
        guard let session = await store.session(id: Self.sessionID(of: request)),
            let data = await session.image(of: number)
        else {
            return Response(status: .notFound)
        }
        return Response(
            status: .ok,
            headers: [.contentType: Self.imageType(of: data), .cacheControl: "private, max-age=3600"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: - Helpers

    /// Whether the page's script posted the intent (`X-Oak-Intent: fetch`),
    /// rather than a plain form.
    static func isFromScript(_ request: Request) -> Bool {
        request.headers.contains { $0.name.canonicalName == "x-oak-intent" && $0.value == "fetch" }
    }

    /// One Server-Sent Event named `page` whose data is `content`.
    static func event(_ content: HTML, id: Int) -> String {
        let data = content.rendered.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "data: " + $0.replacingOccurrences(of: "\r", with: "") }
            .joined(separator: "\n")
        return "id: \(id)\nevent: page\n\(data)\n\n"
    }

    /// The session id the request's cookie names, if any.
    static func sessionID(of request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The fields of an `application/x-www-form-urlencoded` body; the first
    /// value of a repeated name wins.
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            if fields[name] == nil, let value { fields[name] = value }
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A positive decimal number of at most 9 digits.
    static func number(_ text: Substring) -> Int? {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(text), number > 0
        else { return nil }
        return number
    }

    /// Compares without stopping at the first difference.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }

    /// The media type of an image, from its first bytes.
    static func imageType(of data: Data) -> String {
        let bytes = Array(data.prefix(4))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        return "application/octet-stream"
    }

    static func html(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        text(html.rendered, type: "text/html; charset=utf-8", status: status)
    }

    static func page(_ status: HTTPResponse.Status, title: String, text: String) -> Response {
        html(WebPage.message(title: title, text: text), status: status)
    }

    static func text(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: type],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func notAllowed(_ allow: String) -> Response {
        var response = page(.methodNotAllowed, title: "Not allowed", text: "This address does not take that method.")
        response.headers[.allow] = allow
        return response
    }
}
