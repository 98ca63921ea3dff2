// What guards a connection around Hummingbird: a deadline for the first
// request's head (a client that sends nothing, or trickles its head a byte
// at a time, is closed when it is up, however the bytes come), a deadline
// for every request's body (also one no route reads), and an answer with a
// status to a request the HTTP parser refuses (400, 414, 431, 501) instead
// of a connection closed without a word; an absolute-form request
// (`GET http://name/path`) names its host by its target, as HTTP/1.1 has
// it; and a connection that is not to persist closes after the response.
//
// Hummingbird's idle timer covers a connection between two requests, and
// `collectBody(of:upTo:within:channel:)` an intent's body; neither sees a
// connection before its first head (with WebSockets, Hummingbird adds its
// own handlers only once the first head has been decoded), and a body that
// no route reads was drained for as long as it trickled.

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// Wraps a Hummingbird child channel (plain HTTP/1 or HTTP/1 with WebSocket
/// upgrades) with the guards above.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let headTimeout: Duration
    /// The connections still waiting for their first head, across the
    /// server's event loops.
    let waiting: WaitingHeads
    /// Every open connection, closed at once when the server is cancelled.
    let open: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let (headTimeout, waiting) = (self.headTimeout, self.waiting)
        open.add(channel)
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let progress = HeadProgress()
            try pipeline.addHandler(
                FirstHeadDeadline(timeout: headTimeout, progress: progress, waiting: waiting, logger: logger),
                position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                RefusedRequestAnswer(progress: progress, logger: logger), position: .after(decoder))
            try pipeline.addHandler(RequestHeadFixes(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        var connectionLogger = logger
        connectionLogger.handler = ClosedBeforeItsRequestLogs(base: logger.handler)
        await inner.handle(value: value, logger: connectionLogger)
    }
}

/// Logs what a connection's handling logs, but for one thing:
/// hummingbird-websocket logs "Error handling upgrade result" at `error`
/// when the connection closed before its first request was handled — a
/// request the parser refused and this server answered
/// (``RefusedRequestAnswer``), a client that sent nothing in time. That is
/// the client's doing, not the server's, and a line at `error` for every
/// malformed request an attacker sends; it is logged at `debug`. Any other
/// error of the upgrade stays at `error`.
struct ClosedBeforeItsRequestLogs: LogHandler {
    var base: any LogHandler

    /// What the connection's channel says once it has closed.
    static let closedChannel: Set<String> = [
        "\(ChannelError.inappropriateOperationForState)", "\(ChannelError.ioOnClosedChannel)",
        "\(ChannelError.alreadyClosed)", "\(ChannelError.eof)",
    ]

    func log(event: LogEvent) {
        guard event.level == .error, event.message == "Error handling upgrade result",
            case .string(let error) = event.metadata?["error.type"], Self.closedChannel.contains(error)
        else { return base.log(event: event) }
        guard base.logLevel <= .debug else { return }
        var event = event
        event.level = .debug
        base.log(event: event)
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
}

/// The connections of a server that wait for their first head, oldest
/// first, at most `limit` of them: a new one beyond it closes the oldest.
/// So silent or trickling clients hold at most `limit` of the server's
/// connections (half its cap), and clients that send a request at once
/// always find room, instead of waiting for the head's deadline.
final class WaitingHeads: Sendable {
    private struct Waiting {
        var next: UInt64 = 0
        var channels: [(id: UInt64, channel: any Channel)] = []
        /// Set by ``closeAll()``: a connection that starts waiting after it
        /// (accepted as the server stopped) is closed at once.
        var isClosed = false
    }

    private let limit: Int
    private let state = Mutex(Waiting())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Registers `channel`; returns its id. Closes the oldest waiting
    /// connection when there are more than `limit`, and `channel` itself
    /// once ``closeAll()`` was called.
    func add(_ channel: any Channel) -> UInt64 {
        let (id, shed) = state.withLock { state -> (UInt64, (any Channel)?) in
            state.next &+= 1
            if state.isClosed { return (state.next, channel) }
            state.channels.append((state.next, channel))
            let shed = state.channels.count > limit ? state.channels.removeFirst().channel : nil
            return (state.next, shed)
        }
        shed?.close(promise: nil)
        return id
    }

    /// Closes every connection waiting for its first head, now and from
    /// now on (the server stops: nothing of theirs is in flight).
    func closeAll() {
        let channels = state.withLock { state in
            state.isClosed = true
            return state.channels.map(\.channel)
        }
        for channel in channels { channel.close(promise: nil) }
    }

    /// Forgets the connection `id` (its head came, or it closed).
    func remove(_ id: UInt64) {
        state.withLock { state in
            if let index = state.channels.firstIndex(where: { $0.id == id }) { state.channels.remove(at: index) }
        }
    }
}

/// The server's open connections: what ``HTTPServer/cancel()`` closes, so
/// that a server past its grace period stops at once rather than when its
/// slowest client's deadline comes.
final class OpenConnections: Sendable {
    /// The open connections; `nil` once ``closeAll()`` was called.
    private let channels = Mutex<[ObjectIdentifier: any Channel]?>([:])

    /// Registers `channel` until it closes; closes it at once after
    /// ``closeAll()`` (accepted as the server was cancelled).
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let isOpen = channels.withLock { channels in
            channels?[id] = channel
            return channels != nil
        }
        guard isOpen else { return channel.close(promise: nil) }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.channels.withLock { $0?.removeValue(forKey: id) }
        }
    }

    /// Closes every open connection, now and from now on.
    func closeAll() {
        let open = channels.withLock { channels in
            defer { channels = nil }
            return channels.map { Array($0.values) } ?? []
        }
        for channel in open { channel.close(promise: nil) }
    }
}

/// How far a connection's first request head has come, in bytes seen
/// before the parser: written by ``FirstHeadDeadline``, read by
/// ``RefusedRequestAnswer`` to tell a request line too long (414) from
/// headers too large (431). Both run on the connection's event loop.
final class HeadProgress {
    /// The bytes of the request line seen so far (all of them, once its
    /// line feed has come).
    var requestLineBytes = 0
    /// Whether the request line's line feed has come.
    var requestLineEnded = false
}

/// Closes a connection whose first request head has not arrived within
/// `timeout` of the connection: a deadline, not an idle timer, so a client
/// that trickles its head cannot hold the connection longer. Removes itself
/// once the head has arrived (its end: an empty line), whether the parser
/// then accepts it or not.
///
/// Reads raw bytes, before the HTTP parser: it only looks for the end of the
/// head. Empty lines before the request line are skipped, as the parser
/// skips them, so that they cannot pass for the end of a head.
final class FirstHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: Duration
    private let progress: HeadProgress
    private let waiting: WaitingHeads
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    private var waitingID: UInt64?
    /// Whether a byte other than CR or LF has been read.
    private var inHead = false
    /// How many line feeds in a row (carriage returns aside) end what was read.
    private var lineFeeds = 0

    init(timeout: Duration, progress: HeadProgress, waiting: WaitingHeads, logger: Logger) {
        self.timeout = timeout
        self.progress = progress
        self.waiting = waiting
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let logger = self.logger
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            logger.debug("A connection sent no complete request head in time; closed.")
            loopBound.value.close(promise: nil)
        }
        waitingID = waiting.add(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        leaveWaiting()
    }

    func channelInactive(context: ChannelHandlerContext) {
        leaveWaiting()
        context.fireChannelInactive()
    }

    /// Takes the connection off the server's waiting list (its head came,
    /// it closed, or the handler went).
    private func leaveWaiting() {
        if let waitingID { waiting.remove(waitingID) }
        waitingID = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let complete = buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\r"):
                    continue
                case UInt8(ascii: "\n"):
                    guard inHead else { continue }
                    progress.requestLineEnded = true
                    lineFeeds += 1
                    if lineFeeds == 2 { return true }
                default:
                    inHead = true
                    lineFeeds = 0
                    if !progress.requestLineEnded { progress.requestLineBytes += 1 }
                }
            }
            return false
        }
        context.fireChannelRead(data)
        if complete {
            // Cancels the deadline and leaves the waiting list (handlerRemoved).
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

/// Answers a request the HTTP parser refused with a status that says why,
/// then closes the connection: 501 for a method it does not know, 414 for a
/// request line too long (over 8 KiB), 431 for headers too large, 400 for
/// anything else. Only for the connection's first request, before the
/// parser has passed on any part of it and before anything was written:
/// later, a response may be on its way (a body cut off by its deadline
/// ends the parse too), and the connection closes as before. A client
/// that closed its side mid-head gets no answer.
///
/// Sits right after the HTTP parser and passes everything else on
/// untouched (it never reads a message's type: after a WebSocket upgrade,
/// frames pass through it).
final class RefusedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = HTTPServerResponsePart

    private let progress: HeadProgress
    private let logger: Logger
    /// Whether anything passed: a part of a request in, or a response out.
    private var hasPassed = false
    private var answered = false

    init(progress: HeadProgress, logger: Logger) {
        self.progress = progress
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        hasPassed = true
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        hasPassed = true
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !hasPassed, !answered, parserError != .invalidEOFState
        else {
            context.fireErrorCaught(error)
            return
        }
        answered = true
        let (status, text) = Self.answer(to: parserError, requestLineBytes: progress.requestLineBytes)
        logger.debug("A request the HTTP parser refused was answered.", metadata: ["status": "\(status.code)"])
        var body = context.channel.allocator.buffer(capacity: text.utf8.count)
        body.writeString(text)
        let headers = HTTPHeaders([
            ("Connection", "close"), ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", "\(body.readableBytes)"),
        ])
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }

    /// The status and the text for a request the parser refused, whose
    /// request line had `requestLineBytes` bytes when it did.
    static func answer(to error: HTTPParserError, requestLineBytes: Int) -> (HTTPResponseStatus, String) {
        switch error {
        case .invalidMethod:
            (.notImplemented, "This server does not know that method.\n")
        case .headerOverflow where requestLineBytes > 8_192:
            (.uriTooLong, "The request's address is too long.\n")
        case .headerOverflow:
            (.requestHeaderFieldsTooLarge, "The request's headers are too large.\n")
        default:
            (.badRequest, "The request could not be read.\n")
        }
    }
}

/// Closes a connection whose request body has not ended within `timeout`
/// (plus a grace) of its head: a deadline for every body, also one that no
/// route reads (Hummingbird drains it after the response, for as long as
/// it comes). Routes that read a body answer 408 at `timeout` themselves
/// (``collectBody(of:upTo:within:channel:)``); the grace lets that answer
/// out first.
final class RequestBodyDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// How long after `timeout` the connection closes: room for a route's
    /// own 408.
    static var grace: Duration { .seconds(2) }

    private let timeout: Duration
    private let logger: Logger
    private var deadline: Scheduled<Void>?

    init(timeout: Duration, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let logger = self.logger
            deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout + Self.grace)) {
                logger.debug("A request's body did not end in time; the connection was closed.")
                loopBound.value.close(promise: nil)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }
}

/// Puts right in a request's head what Hummingbird would read wrong.
///
/// - An absolute-form request's target (`GET http://name/path HTTP/1.1`)
///   names its host: it becomes the request's `Host`, as RFC 9112 (§3.2.2)
///   requires of a server ("ignore the received Host header field … and
///   instead use the host information of the request-target"). Hummingbird
///   keeps only the target's path and reads the name from `Host`, so a
///   request for another site that carried this server's name in `Host` was
///   answered; now the host check sees the name the request is for.
/// - A request after which the connection does not persist (HTTP/1.0
///   without `Connection: keep-alive`, or `close` among other options or in
///   capitals) says `Connection: close`, the one spelling Hummingbird reads:
///   it kept such a connection open after the response, so an HTTP/1.0
///   client waiting for the close to end the response (a health check, a
///   benchmark) waited for the idle timeout, holding a connection.
///
/// Sits right after the HTTP parser and reads what passes as `Any`, never
/// forcing it to be HTTP: once a WebSocket upgrade has removed the parser
/// (its left-over bytes come first, before the 101 is written), bytes pass
/// through untouched.
final class RequestHeadFixes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) as? HTTPServerRequestPart else {
            context.fireChannelRead(data)
            return
        }
        let authority = Self.authority(ofAbsoluteForm: head.uri)
        let closes = !head.isKeepAlive && head.headers["Connection"] != ["close"]
        guard authority != nil || closes else {
            context.fireChannelRead(data)
            return
        }
        if let authority { head.headers.replaceOrAdd(name: "Host", value: authority) }
        if closes { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The authority of an absolute-form target (`scheme://authority/…`,
    /// the empty string if it names none), or `nil` for any other form
    /// (`/path`, `*`, `name:port`).
    static func authority(ofAbsoluteForm target: String) -> String? {
        guard let separator = target.range(of: "://") else { return nil }
        let scheme = target[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return String(target[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}
