// The WebSocket side of a web host: which requests become streams
// (/streams/<name>?token=…) and how their frames are read. A request is
// upgraded only with a live session's cookie, its token and the server's
// own origin (a page of another site cannot open one, even where a browser
// sends the cookie), for a host the server answers for; anything else is
// refused: hummingbird-websocket answers a refused upgrade 400 with an
// empty body and closes the connection. Once upgraded, the app decides whether the session's state
// offers the stream; its refusals, and the host's limits, close the
// connection with a code and a reason.

import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServerSupport
import Synchronization
import WebUI

extension WebResponder {
    /// The largest frame the server reads at all: larger ones close the
    /// connection (1009) before the app's limits are applied.
    static var largestFrame: Int { 1 << 16 }

    /// The upgrades of the session's streams.
    func streamUpgrades(clock: any Clock<Duration>) -> WebSocketUpgrades {
        let store = self.store
        let allowedHosts = self.allowedHosts
        let cookieName = self.cookieName
        return WebSocketUpgrades(maxFrameSize: Self.largestFrame) { request, _, logger in
            guard let (name, token) = Self.stream(of: request) else { return .dontUpgrade }
            guard !Self.hasSecondHost(request.headerFields), allowedHosts.allows(request.authority) else {
                logger.notice("A stream for a host this server does not answer for was refused.")
                return .dontUpgrade
            }
            guard Self.isSameOrigin(request) else {
                logger.notice("A stream from another origin was refused.", metadata: ["stream": "\(name)"])
                return .dontUpgrade
            }
            guard
                let session = await store.session(among: Self.sessionIDs(in: request.headerFields, named: cookieName)),
                Self.constantTimeEqual(token, session.token)
            else {
                logger.notice("A stream without the session's cookie and token was refused.")
                return .dontUpgrade
            }
            let opened = await session.openStream(name)
            return .upgrade([:]) { inbound, outbound, _ in
                let refusal: WebStreamRefusal?
                switch opened {
                case .failure(let refused):
                    refusal = refused
                case .success(let stream):
                    let ending = StreamEnding(stream)
                    defer { ending.end() }
                    var reader = WebStreamReader(limits: stream.limits, clock: clock)
                    let watchdog = stream.limits.silenceTimeout.map { timeout in
                        Self.watchSilence(
                            of: reader, timeout: timeout, clock: clock, ending: ending, outbound: outbound)
                    }
                    defer { watchdog?.cancel() }
                    do {
                        try await reader.read(inbound, into: stream, isEnded: { ending.isEnded })
                        refusal = nil
                    } catch let refused as WebStreamRefusal {
                        refusal = refused
                    }
                }
                if let refusal {
                    try await outbound.close(
                        WebSocketErrorCode(codeNumber: Int(refusal.code)), reason: refusal.closeReason)
                }
            }
        }
    }

    /// Closes the stream (``WebStreamRefusal/silent(_:)``) and ends it at
    /// once when no frame came for `timeout` on `clock`: a page that
    /// stopped sending releases what the stream holds (a meeting's floor)
    /// without waiting for its connection to go.
    static func watchSilence(
        of reader: WebStreamReader, timeout: Duration, clock: any Clock<Duration>, ending: StreamEnding,
        outbound: WebSocketOutboundWriter
    ) -> Task<Void, Never> {
        let (elapsed, lastFrame) = (reader.elapsed, reader.lastFrame)
        return Task {
            while true {
                let wait = lastFrame.time + timeout - elapsed.duration
                if wait <= .zero { break }
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    return  // The stream ended first.
                }
            }
            ending.end()
            let seconds = timeout.components.seconds
            let refusal = WebStreamRefusal.silent(
                "Nothing was heard for \(seconds) seconds, so the microphone was turned off. Turn it on again to speak."
            )
            try? await outbound.close(WebSocketErrorCode(codeNumber: Int(refusal.code)), reason: refusal.closeReason)
        }
    }

    /// The stream a request asks for, `/streams/<name>?token=<token>`: its
    /// name and the token; `nil` for any other request.
    static func stream(of request: HTTPRequest) -> (name: String, token: String)? {
        guard request.method == .get, let target = request.path,
            let components = URLComponents(string: target), components.path.hasPrefix(WebPage.streamsPath)
        else { return nil }
        let name = String(components.path.dropFirst(WebPage.streamsPath.count))
        guard !name.isEmpty, !name.contains("/"),
            let token = components.queryItems?.first(where: { $0.name == "token" })?.value
        else { return nil }
        return (name, token)
    }

    /// Whether the request's `Origin` is the server's own (the scheme and
    /// the host it was asked for).
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headerFields[.origin], let authority = request.authority else { return false }
        return origin == "http://\(authority)" || origin == "https://\(authority)"
    }
}

/// Ends a stream once, whoever comes first: its connection's end, or the
/// silence watchdog.
final class StreamEnding: Sendable {
    private let stream: WebStream
    private let ended = Atomic<Bool>(false)

    init(_ stream: WebStream) { self.stream = stream }

    /// Whether the stream has ended.
    var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// Ends the stream, the first time only.
    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stream.end()
    }
}
