// What an app runs until it is stopped, and what it closes afterwards, in
// one swift-service-lifecycle `ServiceGroup`: each thing is added as it is
// opened (the database, the stores, the app's own loops, the web server
// last), and they stop in the reverse order — the server first (its
// sessions end, so nothing writes any more), then the loops, then the
// stores write what they hold, then the database closes. A failure while
// opening closes what was opened so far, in the same order.

import Common
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals
import WebHost

/// The services of an app's process, stopped in reverse order of their
/// adding, on `SIGTERM` (a deploy) or `SIGINT` (Ctrl-C), or when the web
/// server ends.
///
/// ```swift
/// try await AppServices.run(logger: logger) { services in
///     let database = try await StoragePlace.open(location, logger: logger)
///     services.closing("the database") { await database.close() }
///     let host = try await WebHost.start(app: MyWeb(env: env), port: 8080)
///     services.serving(host) { print("Serving on \(host.baseURL)/") }
/// }
/// ```
public struct AppServices: Sendable {
    private var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
    private var closers: [Closer] = []
    private let logger: Logger

    /// The address browsers reach the app by: the public one given to
    /// `serve` (`--public-url`, a proxy in front), else the server's own,
    /// known once ``serving(_:gracePeriod:announce:)`` adds it.
    public let address = ServedAddress()

    private init(logger: Logger) {
        self.logger = logger
    }

    /// Adds something to close when the app stops, after everything added
    /// after it has stopped; `name` says what in the log ("the database").
    /// `close` is awaited at most `limit` (past it,
    /// the app logs that it gave up waiting and goes on stopping, so that
    /// the process exits on time).
    public mutating func closing(
        _ name: String, within limit: Duration? = nil, _ close: @escaping @Sendable () async -> Void
    ) {
        let closer = Closer(name: name, limit: limit, close: close, logger: logger)
        closers.append(closer)
        services.append(.init(service: closer, successTerminationBehavior: .ignore))
    }

    /// Adds a long-lived task of the app's own (a loop that polls, say):
    /// it runs until the app stops, then is cancelled and awaited before
    /// what was added before it closes.
    public mutating func running(_ name: String, _ body: @escaping @Sendable () async -> Void) {
        services.append(
            .init(service: Loop(name: name, body: body, logger: logger), successTerminationBehavior: .ignore))
    }

    /// Adds the web server, which stops first: every session ends and the
    /// connections close, waited for at most `gracePeriod`. `announce` is
    /// called once the stopping signals are trapped — print the address
    /// there, so that a signal sent as soon as it is printed stops the app
    /// gracefully too. The app stops when the server ends by itself.
    public mutating func serving<App: WebApplication>(
        _ host: WebHost<App>, gracePeriod: Duration = .seconds(5), announce: @escaping @Sendable () -> Void = {}
    ) {
        address.serving(at: host.baseURL)
        services.append(
            .init(
                service: Serving(host: host, gracePeriod: gracePeriod, announce: announce, logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup))
    }

    /// Opens the app's services with `open`, then runs them until one of
    /// `signals` (or the server's end) stops them in reverse order; returns
    /// once all have stopped. When `open` throws, what it added so far is
    /// closed, in reverse order, and its error is thrown.
    ///
    /// - Throws: What `open` threw, or what made the server fail (after
    ///   everything was closed).
    public static func run(
        signals: [UnixSignal] = [.sigterm, .sigint], logger: Logger,
        _ open: (inout AppServices) async throws -> Void
    ) async throws {
        var services = AppServices(logger: logger)
        do {
            try await open(&services)
        } catch {
            await services.close()
            throw error
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.services, gracefulShutdownSignals: signals, logger: logger))
        try await group.run()
    }

    /// Opens what `body` needs with it, runs it, then closes what it added,
    /// in reverse order, whether it returned or threw: for a command that
    /// does one thing and ends (a terminal session, a one-off query).
    public static func with<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (inout AppServices) async throws -> Result
    ) async throws -> Result {
        var services = AppServices(logger: logger)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(&services))
        } catch {
            result = .failure(error)
        }
        await services.close()
        return try result.get()
    }

    /// Closes what was added, last first, without running anything.
    private func close() async {
        for closer in closers.reversed() { await closer.closeNow() }
    }
}

/// Where browsers reach an app (``AppServices/address``): read it when it
/// is needed (a page that sends a viewer to this process), not when the app
/// opens — the server's own address is known only once it listens.
public final class ServedAddress: Sendable {
    private let state = Mutex<(public: String?, served: String?)>((nil, nil))

    init() {}

    /// The public address if one was given, else the server's
    /// (`http://127.0.0.1:8080`); `nil` before the server listens.
    public var value: String? { state.withLock { $0.public ?? $0.served } }

    /// The address browsers use, when it is not the one the server
    /// listens on (a reverse proxy's, `https://standups.example.com`).
    public func setPublic(_ url: String) {
        state.withLock { $0.public = url }
    }

    /// The server listens at `url`.
    func serving(at url: String) {
        state.withLock { $0.served = url }
    }
}

/// Something to close when the app stops.
private struct Closer: Service {
    let name: String
    let limit: Duration?
    let close: @Sendable () async -> Void
    let logger: Logger

    func run() async {
        // Cancelled (the group gives up) or told to stop: close either way.
        try? await gracefulShutdown()
        await closeNow()
        logger.info("Stopped \(name).")
    }

    func closeNow() async {
        guard let limit else { return await close() }
        if await within(limit, close) == nil {
            logger.error("Gave up waiting for \(name), \(limit) after the stop; stopping the rest without it.")
        }
    }
}

/// A task of the app's own, cancelled when the app stops.
private struct Loop: Service {
    let name: String
    let body: @Sendable () async -> Void
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown { await body() }
        logger.info("Stopped \(name).")
    }
}

/// The web server, until the app stops or the server ends.
private struct Serving<App: WebApplication>: Service {
    let host: WebHost<App>
    let gracePeriod: Duration
    let announce: @Sendable () -> Void
    let logger: Logger

    func run() async throws {
        announce()
        try await host.run(gracePeriod: gracePeriod)
        logger.info("Stopped the web server.")
    }
}
