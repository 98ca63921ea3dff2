// A stream of binary frames a page sends to its session, such as a
// microphone's audio: a WebSocket at /streams/<name>, opened only with the
// session's cookie, its token and the server's own origin, and only where
// the session's state offers the stream (the app decides,
// `WebApplication.openStream`). The host enforces the limits before the app
// sees a frame; every refusal closes the connection with a code and a
// reason the page can show.

import Common
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// A stream a page sends to its session (at `/streams/<name>`, a
/// WebSocket): each binary frame the client sends, within ``limits``, is
/// given to ``receive``; ``end`` is called once when the connection ends.
///
/// ```swift
/// func openStream(_ name: String, in state: State, session: WebSessionContext<Root>) -> WebStreamOpening {
///     guard name == "microphone", state.isRecording else {
///         return .failure(.unavailable("Nothing is recorded now."))
///     }
///     return .success(WebStream(limits: .audio16kHzMono) { bytes in recorder.append(bytes) } end: { recorder.stop() })
/// }
/// ```
public struct WebStream: Sendable {
    /// What each frame may hold and how fast they may come.
    public var limits: WebStreamLimits
    /// Takes one frame's bytes, already checked against ``limits``; throws
    /// a refusal to close the stream with its code and reason.
    public var receive: @Sendable ([UInt8]) throws(WebStreamRefusal) -> Void
    /// Called once when the stream ends: the page closed it, a frame was
    /// refused, or the connection went away.
    public var end: @Sendable () -> Void

    /// A stream whose frames go to `receive` and whose end calls `end`.
    public init(
        limits: WebStreamLimits, receive: @escaping @Sendable ([UInt8]) throws(WebStreamRefusal) -> Void,
        end: @escaping @Sendable () -> Void = {}
    ) {
        self.limits = limits
        self.receive = receive
        self.end = end
    }
}

/// An app's answer to a page that opens a stream: the stream, or why not.
public typealias WebStreamOpening = Result<WebStream, WebStreamRefusal>

/// What a stream's frames may hold and how fast they may come. A frame
/// beyond these closes the stream with a ``WebStreamRefusal`` that says
/// which limit it broke.
public struct WebStreamLimits: Sendable, Hashable {
    /// The most bytes one frame may carry.
    public var maxFrameBytes: Int
    /// Every frame carries a whole number of these units (2 for 16-bit
    /// samples).
    public var unitBytes: Int
    /// The bytes a second the stream may keep up, on the host's clock.
    public var bytesPerSecond: Int
    /// How many bytes the stream may run ahead of ``bytesPerSecond``
    /// (a network's bunching).
    public var burstBytes: Int
    /// How long the stream may go without a frame, on the host's clock,
    /// from its opening or its last frame: then it is closed
    /// (``WebStreamRefusal/silent(_:)``) and ended, so that a page that
    /// stopped sending (but still answers pings) releases what the stream
    /// holds, such as a meeting's floor. `nil`: no limit.
    public var silenceTimeout: Duration?

    /// Limits of frames of at most `maxFrameBytes`, in whole `unitBytes`,
    /// at most `bytesPerSecond` with `burstBytes` ahead, and at most
    /// `silenceTimeout` apart.
    public init(
        maxFrameBytes: Int, unitBytes: Int = 1, bytesPerSecond: Int, burstBytes: Int, silenceTimeout: Duration? = nil
    ) {
        self.maxFrameBytes = maxFrameBytes
        self.unitBytes = max(1, unitBytes)
        self.bytesPerSecond = bytesPerSecond
        self.burstBytes = burstBytes
        self.silenceTimeout = silenceTimeout
    }

    /// 16 kHz mono 16-bit audio (32,000 bytes a second): frames of at most
    /// 8,192 bytes (256 ms) of whole samples, at most one and a half times
    /// real time, two seconds ahead; closed after 10 seconds without a
    /// frame (a browser's microphone sends frames of silence too).
    public static let audio16kHzMono = WebStreamLimits(
        maxFrameBytes: 8_192, unitBytes: 2, bytesPerSecond: 48_000, burstBytes: 64_000, silenceTimeout: .seconds(10))
}

/// Why a stream was refused or closed: a WebSocket close code of the
/// application's range (4000–4999) and a reason the page shows.
public struct WebStreamRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The close code.
    public var code: UInt16
    /// What happened and what to do, for the user (at most 123 bytes are
    /// sent: a WebSocket close frame's limit).
    public var reason: String

    /// A refusal with `code` (4000–4999) and `reason`.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 4000: a frame that is not what the stream takes (text, fragmented,
    /// or not a whole number of units).
    public static func malformed(_ reason: String) -> Self { Self(code: 4000, reason: reason) }
    /// 4004: the page's state offers no such stream.
    public static func unavailable(_ reason: String) -> Self { Self(code: 4004, reason: reason) }
    /// 4009: someone else holds what the stream needs (a meeting's floor).
    public static func busy(_ reason: String) -> Self { Self(code: 4009, reason: reason) }
    /// 4013: a frame larger than the limits allow.
    public static func tooLarge(_ reason: String) -> Self { Self(code: 4013, reason: reason) }
    /// 4029: frames faster than the limits allow.
    public static func tooFast(_ reason: String) -> Self { Self(code: 4029, reason: reason) }
    /// 4008: no frame for longer than the limits allow
    /// (``WebStreamLimits/silenceTimeout``).
    public static func silent(_ reason: String) -> Self { Self(code: 4008, reason: reason) }

    /// The code and the reason.
    public var description: String { "\(code): \(reason)" }

    /// The reason cut to a close frame's 123 bytes, at a character.
    var closeReason: String {
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }
}

/// Checks a stream's frames against its limits, then hands them on.
struct WebStreamReader {
    let limits: WebStreamLimits
    let elapsed: Elapsed
    /// When the last frame came (or the stream opened), on `elapsed`; read
    /// by the silence watchdog.
    let lastFrame = LastFrame()
    private var received = 0

    init(limits: WebStreamLimits, clock: any Clock<Duration>) {
        self.limits = limits
        self.elapsed = Elapsed(on: clock)
    }

    /// Reads `inbound` until the client closes it, giving each frame to
    /// `stream` until `isEnded` says the stream ended (the silence
    /// watchdog closed it); throws the refusal of the first frame that
    /// breaks a limit or that `stream` refuses.
    mutating func read(
        _ inbound: WebSocketInboundStream, into stream: WebStream, isEnded: @Sendable () -> Bool = { false }
    ) async throws {
        for try await frame in inbound {
            guard !isEnded() else { return }
            lastFrame.time = elapsed.duration
            try check(frame)
            try stream.receive(Array(buffer: frame.data))
        }
    }

    /// Whether `frame` may be taken now.
    mutating func check(_ frame: WebSocketDataFrame) throws(WebStreamRefusal) {
        guard frame.opcode == .binary else {
            throw .malformed("This stream takes binary frames only.")
        }
        guard frame.fin else {
            throw .malformed("Send each chunk as one unfragmented binary frame.")
        }
        let size = frame.data.readableBytes
        guard size <= limits.maxFrameBytes else {
            throw .tooLarge("A frame carries at most \(limits.maxFrameBytes) bytes; this one had \(size).")
        }
        guard size % limits.unitBytes == 0 else {
            throw .malformed("A frame carries whole units of \(limits.unitBytes) bytes; this one had \(size) bytes.")
        }
        received += size
        let allowed = Double(limits.burstBytes) + Double(limits.bytesPerSecond) * (elapsed.duration / .seconds(1))
        guard Double(received) <= allowed else {
            throw .tooFast("Frames came faster than \(limits.bytesPerSecond) bytes a second.")
        }
    }
}

/// When a stream's last frame came, shared by its reader and its silence
/// watchdog.
final class LastFrame: Sendable {
    private let value = Mutex(Duration.zero)

    /// The time, on the reader's `elapsed`.
    var time: Duration {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
