// Turns requests into reads of a session's state and into its intents, and
// states into responses. No feature logic: which intents exist and what
// they do is the app's (its views and transducers).

import Common
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Oak
import ServerSupport
import WebUI

/// A request's context: Hummingbird's, plus the request's connection (to
/// close a slow client's input, and to notice a closed page).
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// The routes of a ``WebHost``.
struct WebResponder<App: WebApplication>: HTTPResponder {
    typealias Context = WebRequestContext

    let store: SessionStore<App>
    let limits: SessionLimits
    let allowedHosts: AllowedHosts
    /// Whether the session cookie is sent over HTTPS only.
    let secureCookies: Bool
    let bodyTimeout: Duration
    let style: String
    let logger: Logger
    /// What the open pages that show the same share.
    let pushes = SharedPushes()

    /// The session cookie's name: `__Host-oak_session` when it is sent
    /// over HTTPS only (``secureCookies``), else `oak_session`.
    ///
    /// With the `__Host-` prefix a browser takes the cookie only from this
    /// very host, over HTTPS, for the path `/` and without a `Domain`: a
    /// sibling site of the same domain (`evil.example.com` beside
    /// `app.example.com`) cannot set a cookie of that name for this host
    /// ("cookie tossing", fixing a victim's session to the attacker's). On
    /// plain HTTP no browser would take a `__Host-` cookie at all.
    var cookieName: String { Self.cookieName(secure: secureCookies) }

    /// The session cookie's name, sent over HTTPS only (`secure`) or not.
    static func cookieName(secure: Bool) -> String { secure ? "__Host-oak_session" : "oak_session" }

    func respond(to request: Request, context: Context) async throws -> Response {
        var response: Response
        do {
            // Before anything else, and before any session is made: a
            // request for a name this server is not (DNS rebinding).
            response =
                if Self.hasSecondHost(request.headers) {
                    Self.page(.badRequest, title: "Bad request", text: "A request names one host.")
                } else if allowedHosts.allows(request.head.authority) {
                    try await route(request, context: context)
                } else {
                    misdirected(request)
                }
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

    private func route(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        let method = request.method
        let readOnly = method == .get || method == .head
        switch path {
        case "/":
            guard readOnly else { return Self.notAllowed("GET, HEAD") }
            return await index(request, client: Self.client(of: context))
        case WebPage.intentPath:
            guard method == .post else { return Self.notAllowed("POST") }
            return await intent(request, context: context)
        case WebPage.eventsPath:
            guard method == .get else { return Self.notAllowed("GET") }
            return await events(request, context: context)
        case WebPage.scriptPath:
            guard readOnly else { return Self.notAllowed("GET, HEAD") }
            await confirm(request)
            return Self.text(WebPage.script, type: "text/javascript; charset=utf-8")
        case WebPage.stylePath:
            guard readOnly else { return Self.notAllowed("GET, HEAD") }
            await confirm(request)
            return Self.text(WebPage.style + style, type: "text/css; charset=utf-8")
        case WebPage.microphoneWorkletPath:
            guard readOnly else { return Self.notAllowed("GET, HEAD") }
            await confirm(request)
            return Self.text(WebPage.microphoneWorklet, type: "text/javascript; charset=utf-8")
        case _ where path.hasPrefix(WebPage.streamsPath):
            // A stream's upgrade that passed its checks never reaches here.
            return Self.page(
                .forbidden, title: "Refused",
                text: "Streams open as WebSockets from the session's own page (its cookie and token, this origin).")
        case _ where readOnly && store.opens(path):
            // A screen's address (a reloaded page, a link, a page that
            // reconnects to another process): a new session opens there.
            return await index(request, client: Self.client(of: context), at: path)
        default:
            guard readOnly else { return Self.notAllowed("GET, HEAD") }
            guard let session = await store.session(among: sessionIDs(of: request)),
                let resource = await session.resource(at: path)
            else {
                return Self.page(.notFound, title: "Not found", text: "There is nothing at this address.")
            }
            return Response(
                status: .ok,
                headers: [.contentType: resource.contentType, .cacheControl: "private, max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: resource.data)))
        }
    }

    // MARK: - Routes

    /// Marks the session of the request's cookie as used: a request for the
    /// page's script or style is its cookie coming back, which confirms a
    /// provisional session (``SessionStore/session(among:)``).
    private func confirm(_ request: Request) async {
        let ids = sessionIDs(of: request)
        guard !ids.isEmpty else { return }
        _ = await store.session(among: ids)
    }

    /// The answer to a request whose `Host` is not one this server answers
    /// for (``AllowedHosts``): 421, with what to do when the name is meant.
    private func misdirected(_ request: Request) -> Response {
        logger.notice(
            "A request for a host this server does not answer for was refused.",
            metadata: ["host": "\((request.head.authority ?? "none").plainText.prefix(100))"])
        var response = Self.page(
            .misdirectedRequest, title: "Wrong address",
            text: request.head.authority == nil
                ? "This request named no host. Open the address the server printed when it started."
                : "This server does not answer for the name this page was opened with. Open the address the "
                    + "server printed when it started, or start it with --allowed-host NAME to allow that name.")
        response.headers[.connection] = "close"
        return response
    }

    /// The page of the request's session; or, without one, of a new
    /// session opened at `path`.
    private func index(_ request: Request, client: String, at path: String = "/") async -> Response {
        if let session = await store.session(among: sessionIDs(of: request)) {
            return Self.html(await session.page())
        }
        do {
            let session = try await store.makeSession(client: client, at: path)
            var response = Self.html(await session.settledPage(within: limits.firstPaint, clock: store.clock))
            let secure = secureCookies ? "; Secure" : ""
            response.headers[.setCookie] =
                "\(cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict\(secure)"
            response.headers[.cacheControl] = "no-store"
            return response
        } catch {
            var response = Self.page(
                .serviceUnavailable, title: "Too many visitors",
                text: "The server is serving as many visitors as it can. Try again in a few minutes.")
            response.headers[.retryAfter] = "60"
            return response
        }
    }

    private func intent(_ request: Request, context: Context) async -> Response {
        guard let session = await store.session(among: sessionIDs(of: request)) else {
            return Self.page(.forbidden, title: "Session ended", text: "Your session has ended. Reload the page.")
        }
        guard Self.isFormEncoded(request) else {
            return Self.page(
                .unsupportedMediaType, title: "Not a form",
                text: "Intents are sent as forms (application/x-www-form-urlencoded).")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await collectBody(
                of: &request, upTo: limits.maxBodySize, within: bodyTimeout, channel: context.channel)
        } catch .tooLarge {
            return Self.page(.contentTooLarge, title: "Too large", text: "That request was too large.")
        } catch {
            var response = Self.page(.requestTimeout, title: "Too slow", text: "That request took too long.")
            response.headers[.connection] = "close"
            return response
        }
        let form = WebForm.decode(String(buffer: body))
        guard let token = form.fields["token"], Self.constantTimeEqual(token, session.token) else {
            logger.notice("An intent without the session's token was refused.")
            return Self.page(.forbidden, title: "Refused", text: "That request did not come from this page.")
        }
        switch await session.perform(form) {
        case .performed(let result):
            if let refusal = Self.refusal(of: result) {
                return Self.refused(refusal, fromScript: Self.isFromScript(request))
            }
            if Self.isFromScript(request) { return Response(status: .noContent) }
            return Response(status: .seeOther, headers: [.location: "/"])
        case .elsewhere(let address):
            guard let location = Self.redirectable(address) else {
                logger.error("An intent's redirect was refused: not an http(s) address.")
                return Self.refused(
                    "That was not done: it cannot be done from this server.", fromScript: Self.isFromScript(request))
            }
            // The page's script goes there itself (a fetch cannot be sent
            // to another origin's page); a plain form is redirected.
            guard Self.isFromScript(request), let header = HTTPField.Name("X-Oak-Location") else {
                return Response(status: .seeOther, headers: [.location: location])
            }
            return Response(status: .noContent, headers: [header: location])
        }
    }

    private func events(_ request: Request, context: Context) async -> Response {
        guard let session = await store.session(among: sessionIDs(of: request)) else {
            return Self.page(.forbidden, title: "Session ended", text: "Your session has ended. Reload the page.")
        }
        let (page, signals) = session.openPage()
        // The page closes when its stream ends: the connection failed a
        // write, the session ended, or the stream's iterator went away.
        // A connection that closes (the client reset it, or a ping found it
        // gone) ends the page at once.
        context.channel.closeFuture.whenComplete { [weak session] _ in session?.closePage(page) }
        // The stream holds its session weakly: an open page must not keep an
        // ended session (and its memory) alive.
        //
        // The first event is the whole content (`page`); after it, a change
        // inside the page's parts (`HTML.part`) sends only the parts that
        // changed (an unnamed event), any other change the whole content
        // again. The content carries a placeholder for the token, the same
        // for every session (the page's script posts with its page's
        // token): the split of a content and the event from one content to
        // the next are the same for every page that shows the same, and
        // are made once for all of them (`SharedPushes`).
        let pushes = self.pushes
        let channel = context.channel
        let body = ResponseBody { [weak session] writer in
            guard let first = session else { return try await writer.finish(nil) }
            func send(_ event: ByteBuffer, id: Int, changedAt: Int64? = nil) async throws {
                let stamp = changedAt.map { PushTiming.stamp(changedAt: $0) } ?? ""
                let head = "\(stamp)id: \(id)\n"
                var buffer = ByteBufferAllocator().buffer(capacity: head.utf8.count + event.readableBytes)
                buffer.writeString(head)
                buffer.writeImmutableBuffer(event)
                try await writer.write(buffer)
            }
            var version = first.version
            let content = await first.content().rendered
            var sent = pushes.split(content)
            if case .event(let event) = pushes.push(from: nil, to: sent, content: content) {
                try await send(event, id: version)
            }
            for await signal in signals {
                guard let session else { break }
                switch signal {
                case .changed(let next):
                    guard next != version else { continue }
                    version = next
                    let (rendered, changedAt) = await session.push()
                    let content = rendered.rendered
                    let split = pushes.split(content)
                    defer { sent = split }
                    // Nothing the page shows changed: nothing to send.
                    guard case .event(let event) = pushes.push(from: sent, to: split, content: content) else {
                        continue
                    }
                    try await send(event, id: version, changedAt: changedAt)
                case .ping:
                    try await writer.write(ByteBuffer(string: ": ping\n\n"))
                case .stopping:
                    try await writer.write(ByteBuffer(string: Self.stoppingEvent))
                case .replaced:
                    try await writer.write(ByteBuffer(string: Self.replacedEvent))
                    try await writer.finish(nil)
                    // The connection goes with its page: kept open for the
                    // next request, the replaced pages of a script that
                    // opens streams and never reads them would hold every
                    // connection of the server until each timed out.
                    channel.close(promise: nil)
                    return
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: body)
    }

    // MARK: - Helpers

    /// Whether the request had two `Host` fields (the first is its
    /// authority, a second stays among its fields): refused with 400, as
    /// HTTP/1.1 requires, so that no part of the server can read another
    /// name than the one checked.
    static func hasSecondHost(_ fields: HTTPFields) -> Bool {
        fields.contains { $0.name.canonicalName == "host" }
    }

    /// The address of the client of the request's connection (its IP
    /// address, without the port), the key of the per-client limits.
    static func client(of context: Context) -> String {
        context.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// `address` when it is an absolute `http` or `https` URL with a host
    /// (another server of the app), else `nil`.
    static func redirectable(_ address: String) -> String? {
        guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https", url.host != nil,
            !address.contains(where: { $0.isNewline || $0 == "\"" || $0 == "<" })
        else { return nil }
        return address
    }

    /// Whether the page's script posted the intent (`X-Oak-Intent: fetch`),
    /// rather than a plain form.
    static func isFromScript(_ request: Request) -> Bool {
        request.headers.contains { $0.name.canonicalName == "x-oak-intent" && $0.value == "fetch" }
    }

    /// Whether the request's body is a URL-encoded form (what pages post).
    static func isFormEncoded(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType] else { return false }
        let mediaType = type.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
        return mediaType?.lowercased() == "application/x-www-form-urlencoded"
    }

    /// The event that tells the oldest open page of a session that a newer
    /// one replaced it (``SessionLimits/maxOpenPagesPerSession``): its
    /// script stops following and shows the words.
    static var replacedEvent: String {
        "event: replaced\ndata: This page no longer follows the app: too many pages of this session are open. "
            + "Reload it to follow again.\n\n"
    }

    /// The event that tells an open page the server is stopping; its
    /// script shows the words above the page until it reconnects.
    static var stoppingEvent: String {
        "event: stopping\ndata: The server is stopping or restarting; this page reconnects when it is back.\n\n"
    }

    /// One Server-Sent Event whose data is `content`: named `name` (`page`:
    /// the whole content), or unnamed (`nil`: a `message`, the changed
    /// parts), with its `id` line.
    static func event(_ content: String, id: Int, name: String? = "page") -> String {
        "id: \(id)\n" + String(buffer: SharedPushes.event(content, name: name))
    }

    /// The session ids the request's cookies name, in the order sent.
    func sessionIDs(of request: Request) -> [String] {
        Self.sessionIDs(in: request.headers, named: cookieName)
    }

    /// The session ids the `Cookie` fields name, in the order sent: at
    /// most ``maxSessionCookies``.
    ///
    /// A request can carry several cookies of the session cookie's name:
    /// one set for a parent domain or a longer path by another site of the
    /// same domain ("cookie tossing"), or a stale one a browser kept. Each
    /// is tried (``SessionStore/session(among:)``): a foreign cookie sent
    /// first must not hide the session's own, or every reload would open a
    /// new session that the next request cannot find.
    static func sessionIDs(in headers: HTTPFields, named cookieName: String) -> [String] {
        var ids: [String] = []
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName else {
                    continue
                }
                ids.append(String(parts[1]).trimmingCharacters(in: .whitespaces))
                if ids.count == maxSessionCookies { return ids }
            }
        }
        return ids
    }

    /// How many cookies of the session cookie's name a request is looked up
    /// by at most: the rest are ignored.
    static var maxSessionCookies: Int { 8 }

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

    static func html(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        text(html.rendered, type: "text/html; charset=utf-8", status: status)
    }

    /// Why an intent was not performed, in words for the person who asked;
    /// `nil` when it was sent.
    static func refusal(of result: IntentResult?) -> String? {
        switch result {
        case .sent?:
            nil
        case .stale?, nil:
            "That was not done: the page was out of date. It shows what is there now; try again if you still want to."
        case .refused(.bufferFull)?:
            "That was not done: the app is busy. Try again."
        case .refused?:
            "That was not done: this session has ended. Reload the page."
        }
    }

    /// 409 with why an intent was not performed: as plain text for the
    /// page's script, which shows it above the page (the page itself is
    /// brought up to date by its stream); as a page with the way back for a
    /// plain form.
    static func refused(_ reason: String, fromScript: Bool) -> Response {
        guard fromScript else { return html(WebPage.refusal(reason), status: .conflict) }
        var response = text(reason, type: "text/plain; charset=utf-8", status: .conflict)
        response.headers[.cacheControl] = "no-store"
        return response
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
