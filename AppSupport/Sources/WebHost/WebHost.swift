// A generic web host: a Hummingbird 2 server that runs one instance of an
// app's root transducer per browser session, renders its states with the
// app's views and turns form posts into their intents. States are pushed to
// open pages with Server-Sent Events; every page works without JavaScript.

import Common
import Foundation
import Hummingbird
import Logging
import ServerSupport
import ServiceLifecycle
import WebUI

/// An app, served to browsers: one run of its root transducer per session.
///
/// ```swift
/// let host = try await WebHost.start(app: CounterWeb(), port: 8080)
/// print(host.baseURL)  // http://127.0.0.1:8080
/// try await host.wait()
/// ```
///
/// Routes:
/// - `GET /`: the page of the browser's session. A new browser gets a
///   session (an `HttpOnly`, `SameSite=Strict` cookie) and a first page
///   that shows the app settled (``WebApplication/isSettled(_:)``, at most
///   ``SessionLimits/firstPaint``), or 503 with `Retry-After` when as many
///   sessions live as the limits allow;
/// - `POST /intent`: an intent of the page, a form (`token`, `intent` and
///   the app's fields), checked in this order: 403 without a live
///   session's cookie, 415 unless form-encoded, 413 beyond
///   ``SessionLimits/maxBodySize``, 408 when its body is slower than
///   ServerSupport's `ConnectionLimits.bodyTimeout`, 403 without the
///   session's token. A
///   plain form post is answered with a redirect to `/`; a post from the
///   page's script (`X-Oak-Intent: fetch`) with 204. An intent that was not
///   performed — the page was out of date, the app was busy, the session
///   has ended — is answered 409 with the reason in words: as plain text
///   for the script, which shows it above the page, and as a page with a
///   link back for a plain form;
/// - `GET /events`: the session's states, as Server-Sent Events (`page`,
///   and `parts` for a change inside the page's parts), with a comment at
///   every sweep, so that a page whose connection is gone is noticed, and
///   `stopping` when the server stops; an open page keeps its session alive;
/// - `GET /streams/<name>?token=…`: a stream the page sends (its
///   microphone), a WebSocket upgraded only with the session's cookie, its
///   token and the server's own `Origin` (else 400 with an empty body,
///   hummingbird-websocket's answer to a refused upgrade); the app decides
///   whether the state offers it (``WebApplication/openStream(_:in:session:)``)
///   and the host applies its ``WebStreamLimits``; refusals close the
///   connection with a code and a reason (``WebStreamRefusal``);
/// - `GET /app.js`, `GET /style.css`, `GET /microphone-worklet.js`: the
///   page's script, style, and the worklet that records its microphone;
/// - any other `GET`: a file of the current state (``WebApplication/resource(at:in:)``), or 404.
///
/// A request whose `Host` is not a name the server answers for
/// (``AllowedHosts``: addresses, `localhost`, and the names given) is
/// answered 421 before any session is made: a page of another site that
/// rebinds its name to this server's address gets nothing. Every response
/// carries a Content-Security-Policy without inline scripts, `nosniff` and
/// `no-referrer`. Connections are capped, and silent, slow or idle clients
/// closed (ServerSupport's `ConnectionLimits`).
public final class WebHost<App: WebApplication>: Sendable {
    /// The server's root address, such as `http://127.0.0.1:8080`.
    public var baseURL: String { server.baseURL }
    /// The port the server listens on.
    public var port: Int { server.port }

    let store: SessionStore<App>
    private let server: HTTPServer
    private let sweepTask: Task<Void, Never>
    private let logger: Logger

    private init(server: HTTPServer, store: SessionStore<App>, sweepTask: Task<Void, Never>, logger: Logger) {
        self.server = server
        self.store = store
        self.sweepTask = sweepTask
        self.logger = logger
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - app: The app each session runs.
    ///   - host: The address to bind to; loopback by default.
    ///   - port: The port; 0 lets the system choose a free one (see
    ///     ``port``).
    ///   - limits: How many sessions may live, and for how long.
    ///   - allowedHosts: The names, beside addresses and `localhost`, that
    ///     requests may reach the server by (``AllowedHosts``).
    ///   - secureCookies: Whether the session cookie is marked `Secure`, so
    ///     that browsers send it over HTTPS only, and named with the
    ///     `__Host-` prefix (`__Host-oak_session`), so that browsers take it
    ///     only from this host (another site of the same domain cannot set
    ///     it): set it when browsers reach the server by an `https` address
    ///     (a TLS proxy in front of it). Browsers still take and send it on
    ///     `localhost` and `127.0.0.1` over plain HTTP.
    ///   - connections: How many connections, and how long a client may take;
    ///     by default `ConnectionLimits`' times, and room for two
    ///     connections per session (its open page and a request) and 256
    ///     more.
    ///   - clock: The clock idle time and the first page's wait are
    ///     measured on.
    ///   - sweeps: Whether the host sweeps idle sessions by itself every
    ///     quarter of the idle timeout (tests call ``sweep()`` instead).
    ///   - logger: Where the server logs.
    /// - Throws: What prevented the server from listening, such as a port
    ///   in use.
    public static func start(
        app: App, host: String = "127.0.0.1", port: Int = 0, limits: SessionLimits = SessionLimits(),
        allowedHosts: AllowedHosts = AllowedHosts(), secureCookies: Bool = false,
        connections: ConnectionLimits? = nil, clock: any Clock<Duration> = ContinuousClock(),
        sweeps: Bool = true, logger: Logger = Logger(label: "oak.web")
    ) async throws -> WebHost {
        let connections = connections ?? ConnectionLimits(maxConnections: 2 * limits.maxSessions + 256)
        let store = SessionStore(app: app, limits: limits, clock: clock, logger: logger)
        let responder = WebResponder(
            store: store, limits: limits, allowedHosts: allowedHosts, secureCookies: secureCookies,
            bodyTimeout: connections.bodyTimeout, style: app.style, logger: logger)
        let server = try await HTTPServer.start(
            responder: responder, host: host, port: port, limits: connections,
            webSockets: responder.streamUpgrades(clock: clock), logger: logger)
        let sweepTask = Task {
            if sweeps { await store.sweepPeriodically() }
        }
        return WebHost(server: server, store: store, sweepTask: sweepTask, logger: logger)
    }

    /// Waits until the server stops (it is cancelled, or fails).
    public func wait() async throws {
        try await server.wait()
    }

    /// Stops the server: tells every open page that the server is stopping
    /// (an event `stopping`, whose words the page's script shows until it
    /// reconnects), ends every session (their runs are cancelled and
    /// awaited, their pages' streams end), then stops listening. In that
    /// order: the server's shutdown waits for the responses in flight, and
    /// an open page lasts as long as its session.
    public func stop() async {
        sweepTask.cancel()
        await sweepTask.value
        await store.close()
        await server.stop()
    }

    /// Serves until the server stops by itself (it failed: rethrown), or
    /// until the service group running it shuts down gracefully (swift-
    /// service-lifecycle's `gracefulShutdown()`: `SIGTERM`, Ctrl-C, or the
    /// group's own stop), and then stops as ``stop(within:)`` does: every
    /// session's run is cancelled and awaited, the open pages are told and
    /// their streams end, the responses in flight finish — waited for at
    /// most `gracePeriod`, so that the process exits on time whatever a
    /// session does. AppCommands' `AppServices` runs a host this way.
    public func run(gracePeriod: Duration = .seconds(5)) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.wait() }
            group.addTask {
                // Told to stop (not cancelled because the server ended).
                guard (try? await gracefulShutdown()) != nil else { return }
                self.logger.info("Stopping: the open pages are told, the sessions end.")
                // Not cut short when the server's end cancels this task.
                await Task { await self.stop(within: gracePeriod) }.value
            }
            // The first to end decides: the server ended (or failed), or the
            // stop ended it.
            try await group.next()
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// ``stop()``, waited for at most `gracePeriod` (on the system's clock:
    /// a process that must exit keeps real time); past it, logs what it
    /// gave up on, closes the connections still open (a client that sent
    /// nothing would otherwise hold the server until its head's deadline)
    /// and returns.
    public func stop(within gracePeriod: Duration) async {
        // Common's `within`: a stop that does not end in time is left
        // running, as the grace period bounds the wait for it.
        if await within(gracePeriod, { await self.stop() }) == nil {
            logger.warning(
                "Stopped waiting for the sessions and connections to end after \(gracePeriod); closing them.")
            server.cancel()
        }
    }

    /// How many sessions live.
    public var sessionCount: Int {
        get async { await store.count }
    }

    /// One sweep now: sessions with an open page are kept (their pages are
    /// pinged), the others end when idle for longer than the limits allow.
    /// The host sweeps by itself every quarter of the idle timeout.
    @discardableResult
    public func sweep() async -> SweepReport {
        await store.sweep()
    }

    deinit {
        sweepTask.cancel()
    }
}
