// The web front end of the Comics app: a Hummingbird 2 server on loopback
// that hosts one Main run per browser session (``SessionStore``), renders
// its states with the scenes' web views and turns form posts into their
// intents. States are pushed to open pages with Server-Sent Events.

import Foundation
import Hummingbird
import Logging
import MainScene
import ServiceLifecycle

/// The Comics app, served to browsers.
///
/// Routes:
/// - `GET /`: the page of the browser's session (made on the first visit:
///   an `HttpOnly`, `SameSite=Strict` cookie), or 503 when the server has
///   as many sessions as its limits allow;
/// - `POST /intent`: an intent of the page (form fields `token`, `intent`,
///   `number`); refused with 403 without the session's token. A plain form
///   post is answered with a redirect to `/`, a post from the page's script
///   (`X-Oak-Intent: fetch`) with 204, or 409 when the page was out of date;
/// - `GET /events`: the session's states, as Server-Sent Events (`page`);
/// - `GET /image/{n}`: the image of comic `n`, while the session shows it;
/// - `GET /app.js`, `GET /style.css`.
///
/// Every response carries a Content-Security-Policy without inline scripts.
public final class ComicsWebServer: Sendable {
    /// The server's root address, such as `http://127.0.0.1:8080`.
    public let baseURL: String
    /// The port the server listens on.
    public let port: Int

    let store: SessionStore
    private let runTask: Task<Void, any Error>
    private let group: ServiceGroup
    private let sweepTask: Task<Void, Never>

    private init(
        baseURL: String, port: Int, store: SessionStore, runTask: Task<Void, any Error>, group: ServiceGroup,
        sweepTask: Task<Void, Never>
    ) {
        self.baseURL = baseURL
        self.port = port
        self.store = store
        self.runTask = runTask
        self.group = group
        self.sweepTask = sweepTask
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: The address to bind to; loopback by default.
    ///   - port: The port; 0 lets the system choose a free one (see ``port``).
    ///   - env: The features' ports, shared by every session.
    ///   - limits: How many sessions may live, and how long when idle.
    ///   - clock: The clock idle time is measured on.
    ///   - logger: Where the server logs.
    /// - Throws: What prevented the server from listening, such as a port
    ///   in use.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, env: Main.Env, limits: SessionLimits = SessionLimits(),
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "comics.web")
    ) async throws -> ComicsWebServer {
        let store = SessionStore(limits: limits, clock: clock, env: env, logger: logger)
        let urlHost = host.contains(":") ? "[\(host)]" : host
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: WebResponder(store: store, logger: logger),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? port)
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
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            runTask.cancel()
            try await runTask.value
            throw WebServerError.stoppedBeforeListening
        }
        let sweepTask = Task { await store.sweep() }
        return ComicsWebServer(
            baseURL: "http://\(urlHost):\(boundPort)", port: boundPort, store: store, runTask: runTask,
            group: group, sweepTask: sweepTask)
    }

    /// Waits until the server stops (it is cancelled, or fails).
    public func wait() async throws {
        try await runTask.value
    }

    /// Stops the server: ends every session (their runs are cancelled and
    /// awaited, their event streams end), then stops listening. In that
    /// order: the server's shutdown waits for the responses in flight, and
    /// an open event stream lasts as long as its session.
    public func stop() async {
        sweepTask.cancel()
        await sweepTask.value
        await store.close()
        await group.triggerGracefulShutdown()
        _ = await runTask.result
    }

    /// How many sessions live.
    public var sessionCount: Int {
        get async { await store.count }
    }

    /// Ends the sessions idle for longer than the limits allow; returns how
    /// many ended. The server does it on its own every quarter of the idle
    /// timeout.
    @discardableResult
    public func expireIdleSessions() async -> Int {
        await store.expireIdle()
    }

    deinit {
        sweepTask.cancel()
        runTask.cancel()
    }
}

/// Why the server did not start.
public enum WebServerError: Error, CustomStringConvertible {
    /// The server stopped before it listened.
    case stoppedBeforeListening

    /// What went wrong, for the user.
    public var description: String {
        switch self {
        case .stoppedBeforeListening: "The web server stopped before it listened; see the log for why."
        }
    }
}
