// Starts a Hummingbird application on a port and stops it gracefully: the one
// way every HTTP server of the repository (the fixture catalogs, the web
// front ends) comes up and goes down. `start` returns once the server
// listens, with the port it bound; cancelling the starting task stops it;
// `stop` lets the responses in flight finish. A server may also upgrade
// requests to WebSockets (``WebSocketUpgrades``).

import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a server accepts from its connections: how many at once, and how long
/// a client may take. Slow, silent or idle clients are closed instead of
/// holding a connection.
public struct ConnectionLimits: Sendable, Hashable {
    /// The most connections open at once. Beyond it the server stops
    /// accepting: new connections wait in the listen queue until one closes.
    public var maxConnections: Int
    /// How long a new connection may take to send its first request head,
    /// counted from the connection: a deadline, not an idle timer, so a
    /// client that sends nothing, or trickles its head, is closed when it is
    /// up. At most half of ``maxConnections`` wait for their first head at
    /// once: beyond that, the one that has waited longest is closed, so that
    /// clients that send their request at once always find room.
    public var headTimeout: Duration
    /// How long a connection may stay without a new request between two
    /// (then it is closed). A response being written (a stream of events)
    /// does not count as idle.
    public var idleTimeout: Duration
    /// How long a request's body may take to arrive once its head has:
    /// responders that read bodies answer 408 then
    /// (``collectBody(of:upTo:within:channel:)``); a body that no responder
    /// reads closes the connection 2 seconds later.
    public var bodyTimeout: Duration

    /// Limits for a small server: 1,024 connections, 10 seconds for the
    /// first request's head, 30 seconds idle between requests, 10 seconds
    /// for a body.
    public init(
        maxConnections: Int = 1_024, headTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
        bodyTimeout: Duration = .seconds(10)
    ) {
        self.maxConnections = maxConnections
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
    }
}

/// Which requests a server upgrades to WebSockets, and the frames it
/// accepts on them.
///
/// ```swift
/// let upgrades = WebSocketUpgrades(maxFrameSize: 16_384) { request, channel, logger in
///     guard request.path == "/echo" else { return .dontUpgrade }
///     return .upgrade([:]) { inbound, outbound, _ in
///         for try await frame in inbound { try await outbound.write(.binary(frame.data)) }
///     }
/// }
/// ```
public struct WebSocketUpgrades: Sendable {
    /// What handles an upgraded connection: its frames in, its frames out.
    public typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    /// The largest frame a client may send: a larger one closes the
    /// connection with 1009 (message too big) before it is read.
    public var maxFrameSize: Int
    /// Decides, from a request's head, whether to upgrade it and how its
    /// connection is handled.
    public typealias Decision =
        @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<
            Handler
        >

    /// Decides, from a request's head, whether to upgrade it and how its
    /// connection is handled. An upgrade request refused (`.dontUpgrade`)
    /// is answered 400 with an empty body by hummingbird-websocket, and the
    /// connection closed; a request without the upgrade's headers goes to
    /// the server's HTTP responder.
    public var shouldUpgrade: Decision

    /// Upgrades the requests `shouldUpgrade` accepts; frames of at most
    /// `maxFrameSize` bytes.
    public init(maxFrameSize: Int = 1 << 14, shouldUpgrade: @escaping Decision) {
        self.maxFrameSize = maxFrameSize
        self.shouldUpgrade = shouldUpgrade
    }
}

/// A Hummingbird server that is listening.
///
/// ```swift
/// let server = try await HTTPServer.start(responder: router.buildResponder(), logger: logger)
/// print(server.baseURL)  // http://127.0.0.1:53124
/// await server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// The server's root address, with the port it bound, such as
    /// `http://127.0.0.1:53124`.
    public let baseURL: String
    /// The port the server listens on.
    public let port: Int
    /// The limits it was started with.
    public let limits: ConnectionLimits

    private let runTask: Task<Void, any Error>
    private let group: ServiceGroup
    private let open: OpenConnections
    private let waiting: WaitingHeads

    private init(
        baseURL: String, port: Int, limits: ConnectionLimits, runTask: Task<Void, any Error>, group: ServiceGroup,
        open: OpenConnections, waiting: WaitingHeads
    ) {
        self.baseURL = baseURL
        self.port = port
        self.limits = limits
        self.runTask = runTask
        self.group = group
        self.open = open
        self.waiting = waiting
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - responder: Answers the requests.
    ///   - host: The address to bind to; loopback by default.
    ///   - port: The port; 0 (the default) lets the system choose a free one
    ///     (see ``port``).
    ///   - limits: How many connections, and how long a client may take.
    ///   - webSockets: Which requests are upgraded to WebSockets; none by
    ///     default. An upgraded connection counts against `limits`' most
    ///     connections; it is pinged every 30 seconds and closed when the
    ///     client stops answering.
    ///   - logger: Where the server logs.
    ///   - onListening: Called with the bound port before `start` returns,
    ///     before any request can arrive from a client that learned it.
    /// - Throws: What prevented the server from listening (a port in use),
    ///   ``HTTPServerError/stoppedBeforeListening``, or `CancellationError`
    ///   when the task that starts it is cancelled (the server is stopped
    ///   then).
    public static func start<Responder: HTTPResponder>(
        responder: Responder, host: String = "127.0.0.1", port: Int = 0, limits: ConnectionLimits = ConnectionLimits(),
        webSockets: WebSocketUpgrades? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> HTTPServer where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let urlHost = host.contains(":") ? "[\(host)]" : host
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let bodyTimeout = limits.bodyTimeout
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestBodyDeadline(timeout: bodyTimeout, logger: logger)],
            idleTimeout: .init(limits.idleTimeout))
        // Each connection is guarded before Hummingbird sees a request
        // (ConnectionGuard.swift): the first head's deadline, and a status
        // for a request the parser refuses.
        let headTimeout = limits.headTimeout
        // Silent and trickling clients hold at most half the connections
        // (a server of one connection has no half to keep).
        let waiting = WaitingHeads(limit: limits.maxConnections >= 2 ? limits.maxConnections / 2 : .max)
        let open = OpenConnections()
        let server: HTTPServerBuilder =
            if let webSockets {
                HTTPServerBuilder { responder in
                    GuardedChildChannel(
                        inner: HTTP1WebSocketUpgradeChannel(
                            responder: responder,
                            configuration: HTTP1WebSocketUpgradeChannel.Configuration(
                                http1: http1, ws: WebSocketServerConfiguration(maxFrameSize: webSockets.maxFrameSize)),
                            shouldUpgrade: webSockets.shouldUpgrade),
                        headTimeout: headTimeout, waiting: waiting, open: open)
                }
            } else {
                HTTPServerBuilder { responder in
                    GuardedChildChannel(
                        inner: HTTP1Channel(responder: responder, configuration: http1), headTimeout: headTimeout,
                        waiting: waiting, open: open)
                }
            }
        let app = Application(
            responder: responder,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
            onServerRunning: { channel in
                let boundPort = channel.localAddress?.port ?? port
                onListening(boundPort)
                portContinuation.yield(boundPort)
                portContinuation.finish()
            },
            logger: logger
        )
        // Run in a service group, so that `stop()` can shut the server down
        // gracefully: cancelling it while a new connection is still buffered
        // traps in NIO ("Deinited NIOAsyncWriter without calling finish()",
        // apple/swift-nio#3481).
        let group = ServiceGroup(services: [app], logger: logger)
        let runTask = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        let boundPort = await withTaskCancellationHandler {
            var iterator = ports.makeAsyncIterator()
            return await iterator.next()
        } onCancel: {
            runTask.cancel()
        }
        guard let boundPort else {
            // The server stopped before listening: report why.
            runTask.cancel()
            do {
                try await runTask.value
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw HTTPServerError.portInUse(host: host, port: port)
            }
            try Task.checkCancellation()
            throw HTTPServerError.stoppedBeforeListening
        }
        if Task.isCancelled {
            // Cancelled just as the server started listening: do not leave
            // it running.
            await group.triggerGracefulShutdown()
            _ = await runTask.result
            throw CancellationError()
        }
        return HTTPServer(
            baseURL: "http://\(urlHost):\(boundPort)", port: boundPort, limits: limits, runTask: runTask, group: group,
            open: open, waiting: waiting)
    }

    /// Waits until the server stops (``stop()``, its task is cancelled, or
    /// it fails).
    public func wait() async throws {
        try await runTask.value
    }

    /// Stops the server and returns once it has stopped: it no longer
    /// accepts connections, the connections that have sent no request yet
    /// are closed, and the responses in flight are finished first (end
    /// open streams before: the shutdown waits for them). Calling it again
    /// does nothing.
    public func stop() async {
        await group.triggerGracefulShutdown()
        // A client that has sent no request (silent, or trickling its
        // head) has nothing in flight: closed now, not at its deadline.
        waiting.closeAll()
        _ = await runTask.result
    }

    /// Stops the server without waiting for anything: the connections
    /// still open are closed, whatever they were doing (a graceful
    /// ``stop()`` that has taken too long, past a grace period). Returns at
    /// once; ``wait()`` returns once the server has stopped.
    public func cancel() {
        open.closeAll()
        runTask.cancel()
    }

    deinit {
        // A server nobody can reach any more stops; `stop()` is still the way
        // to wait for it.
        runTask.cancel()
    }
}

/// Why ``HTTPServer/start(responder:host:port:limits:webSockets:logger:onListening:)``
/// failed, when Hummingbird gave no error.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server stopped before it listened.
    case stoppedBeforeListening
    /// Something else listens on the port already.
    case portInUse(host: String, port: Int)

    /// What went wrong, for the user.
    public var description: String {
        switch self {
        case .stoppedBeforeListening: "The server stopped before it listened; see the log for why."
        case .portInUse(let host, let port):
            "Port \(port) on \(host) is in use: stop what listens there, or choose another port (0: any free one)."
        }
    }
}

/// Collects the body of `request`, at most `limit` bytes, within `timeout`
/// of the call.
///
/// A client that trickles its body cannot hold the connection: when the
/// time is up, the input side of `channel` (the request's connection) is
/// closed, so the server neither waits for the rest nor drains it after
/// the response; answer with 408, and the connection closes after it.
///
/// - Throws: ``BodyError/tooLarge`` beyond `limit`, ``BodyError/timedOut``
///   when the body did not arrive in time.
public func collectBody(
    of request: inout Request, upTo limit: Int, within timeout: Duration, channel: any Channel
) async throws(BodyError) -> ByteBuffer {
    let timedOut = Atomic<Bool>(false)
    let deadline = Task {
        do {
            try await Task.sleep(for: timeout)
        } catch {
            return  // The body came in time.
        }
        timedOut.store(true, ordering: .sequentiallyConsistent)
        channel.close(mode: .input, promise: nil)
    }
    defer { deadline.cancel() }
    let body: ByteBuffer
    do {
        body = try await request.collectBody(upTo: limit)
    } catch {
        throw timedOut.load(ordering: .sequentiallyConsistent) ? .timedOut : .tooLarge
    }
    if timedOut.load(ordering: .sequentiallyConsistent) { throw .timedOut }
    return body
}

/// Why a request's body was not read.
public enum BodyError: Error, Equatable, Sendable {
    /// It was larger than the limit.
    case tooLarge
    /// It did not arrive in time.
    case timedOut
}
