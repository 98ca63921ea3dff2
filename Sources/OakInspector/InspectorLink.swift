// The app's side of the wire: a thread of its own that sends the live
// inspector's entries to `oak-inspector` as JSON lines in WebSocket text
// messages over a loopback connection, reconnecting when the inspector goes away or is not there
// yet. The runs never wait for it: while it is away (or slow) the ring
// buffer keeps the newest entries and counts the dropped ones.

import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an app says first on each connection.
public struct InspectorHello: Codable, Hashable, Sendable {
    /// The wire's version: 1.
    public var version: Int
    /// The token the inspector printed.
    public var token: String
    /// The app's name (`comics`).
    public var app: String
    /// The app's process id.
    public var pid: Int32

    /// A hello.
    public init(version: Int = 1, token: String, app: String, pid: Int32) {
        self.version = version
        self.token = token
        self.app = app
        self.pid = pid
    }
}

/// Sends a ``LiveInspector``'s entries to `oak-inspector` until stopped.
///
/// ```swift
/// let inspector = LiveInspector()
/// let link = try InspectorLink(discovering: inspector, app: "comics")
/// link.start()
/// defer { link.stop() }
/// try await TransducerInspection.$inspector.withValue(inspector) { … }
/// ```
///
/// The wire: a WebSocket to `/apps?token=TOKEN` on the inspector's port; a
/// first message `{"hello":{…}}` (``InspectorHello``), then messages of
/// JSON lines, one ``InspectorEntry`` a line: a `running` entry for each
/// run going on, then every entry as it comes. It runs on a thread of its own, so a slow or silent inspector
/// stalls no task of the app; a connection that cannot take a batch within
/// `sendTimeout` is dropped and made again, after `retryDelay`.
public final class InspectorLink: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `state` is only touched under
    // `lock`; `endpoint` only by the link's thread once started; the rest
    // is immutable.
    private let inspector: LiveInspector
    private var endpoint: InspectorEndpoint
    /// Where to look again for the inspector after a failed connection:
    /// the endpoint file, for a link made with ``init(discovering:app:environment:retryDelay:sendTimeout:)``.
    private let rediscover: (@Sendable () -> InspectorEndpoint?)?
    private let app: String
    private let retryDelay: Duration
    private let sendTimeout: Duration
    private let lock = NSLock()
    private var state = State()
    private let wake = DispatchSemaphore(value: 0)

    private struct State {
        var isStopped = false
        var connections = 0
        var isConnected = false
        /// Signalled when the thread ends; set once started.
        var finished: DispatchSemaphore?
    }

    /// A link from `inspector` to the inspector at `endpoint`, for the app
    /// named `app`.
    public convenience init(
        _ inspector: LiveInspector, to endpoint: InspectorEndpoint, app: String,
        retryDelay: Duration = .milliseconds(500), sendTimeout: Duration = .seconds(2)
    ) {
        self.init(inspector, to: endpoint, rediscover: nil, app: app, retryDelay: retryDelay, sendTimeout: sendTimeout)
    }

    /// A link from `inspector` to the inspector running here, as its
    /// endpoint file says (``InspectorEndpoint/discovered(environment:)``).
    /// After a failed or dropped connection the file is read again, so an
    /// inspector restarted since (on a new port, with a new token) is found.
    ///
    /// - Throws: ``InspectorEndpointError`` when no inspector's file is
    ///   there, or it does not hold an inspector's address.
    public convenience init(
        discovering inspector: LiveInspector, app: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        retryDelay: Duration = .milliseconds(500), sendTimeout: Duration = .seconds(2)
    ) throws(InspectorEndpointError) {
        self.init(
            inspector, to: try .discovered(environment: environment),
            rediscover: { try? .discovered(environment: environment) }, app: app, retryDelay: retryDelay,
            sendTimeout: sendTimeout)
    }

    private init(
        _ inspector: LiveInspector, to endpoint: InspectorEndpoint,
        rediscover: (@Sendable () -> InspectorEndpoint?)?, app: String, retryDelay: Duration, sendTimeout: Duration
    ) {
        self.inspector = inspector
        self.endpoint = endpoint
        self.rediscover = rediscover
        self.app = app
        self.retryDelay = retryDelay
        self.sendTimeout = sendTimeout
    }

    /// Whether a connection is open now.
    public var isConnected: Bool { lock.withLock { state.isConnected } }

    /// How many connections were made so far.
    public var connections: Int { lock.withLock { state.connections } }

    /// Starts sending, on a thread of its own. Once.
    public func start() {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            loop()
            finished.signal()
        }
        thread.name = "oak-inspector-link"
        let starting = lock.withLock {
            guard state.finished == nil else { return false }
            state.finished = finished
            return true
        }
        if starting { thread.start() }
    }

    /// Stops sending and waits for the link's thread to end (at most
    /// `sendTimeout` and a little).
    public func stop() {
        let finished = lock.withLock {
            state.isStopped = true
            return state.finished
        }
        wake.signal()
        finished?.wait()
        // Whoever stops it next returns at once too.
        finished?.signal()
    }

    private var isStopped: Bool { lock.withLock { state.isStopped } }

    private func loop() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        while !isStopped {
            if let socket = Self.connect(to: endpoint, sendTimeout: sendTimeout) {
                lock.withLock {
                    state.connections += 1
                    state.isConnected = true
                }
                serve(socket, encoder: encoder)
                close(socket)
                lock.withLock { state.isConnected = false }
            }
            if isStopped { break }
            _ = wake.wait(timeout: .now() + Self.dispatchTime(retryDelay))
            if let found = rediscover?() { endpoint = found }
        }
    }

    /// Sends the hello, the runs going on, then every batch, until the
    /// connection fails or the link stops.
    private func serve(_ socket: Int32, encoder: JSONEncoder) {
        let hello = InspectorHello(token: endpoint.token, app: app, pid: getpid())
        guard Self.upgrade(socket, endpoint: endpoint), let first = try? encoder.encode(["hello": hello]),
            Self.send(message: first, on: socket)
        else { return }
        guard send(inspector.runningNow(), on: socket, encoder: encoder) else { return }
        while !isStopped {
            let batch = inspector.next(timeout: .milliseconds(250))
            if batch.isEmpty {
                if inspector.isClosed || Self.peerClosed(socket) { return }
                continue
            }
            // A batch the connection did not take is lost with it; the
            // next connection starts with the runs going on.
            guard send(batch, on: socket, encoder: encoder) else { return }
        }
    }

    /// The most bytes of JSON lines a message holds (a larger entry goes
    /// alone); the inspector takes messages of up to 16 MB.
    static let messageSize = 1 << 20

    /// Sends `entries` as messages of JSON lines; false when the
    /// connection failed.
    private func send(_ entries: [InspectorEntry], on socket: Int32, encoder: JSONEncoder) -> Bool {
        var data = Data()
        for entry in entries {
            guard let line = try? encoder.encode(entry) else { continue }
            if !data.isEmpty, data.count + line.count >= Self.messageSize {
                guard Self.send(message: data, on: socket) else { return false }
                data = Data()
            }
            if !data.isEmpty { data.append(UInt8(ascii: "\n")) }
            data.append(line)
        }
        return data.isEmpty || Self.send(message: data, on: socket)
    }

    private static func dispatchTime(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    // MARK: WebSocket

    /// Asks the inspector to upgrade the connection to a WebSocket; true
    /// when it answered 101.
    private static func upgrade(_ socket: Int32, endpoint: InspectorEndpoint) -> Bool {
        let key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        let request =
            "GET /apps?token=\(endpoint.token) HTTP/1.1\r\nHost: \(host):\(endpoint.port)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n"
        guard send(Data(request.utf8), on: socket) else { return false }
        // The answer's head, read a byte at a time (at most 4 kB) so that
        // nothing after it is taken.
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 4096, head.suffix(4) != [13, 10, 13, 10] {
            var timeout = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&timeout, 1, 5_000) > 0, recv(socket, &byte, 1, 0) == 1 else { return false }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101")
    }

    /// Sends `payload` as one masked text message.
    private static func send(message payload: Data, on socket: Int32) -> Bool {
        var frame = Data([0x81])
        let count = payload.count
        if count < 126 {
            frame.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            frame.append(contentsOf: [0x80 | 126, UInt8(count >> 8), UInt8(truncatingIfNeeded: count)])
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift)))
            }
        }
        let key = (0..<4).map { _ in UInt8.random(in: .min ... .max) }
        frame.append(contentsOf: key)
        frame.reserveCapacity(frame.count + count)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ key[index & 3]) }
        return send(frame, on: socket)
    }

    // MARK: Sockets

    /// A connected TCP socket, or nil.
    private static func connect(to endpoint: InspectorEndpoint, sendTimeout: Duration) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, let found else { return nil }
        defer { freeaddrinfo(found) }
        var address: UnsafeMutablePointer<addrinfo>? = found
        while let info = address {
            address = info.pointee.ai_next
            let socket = systemSocket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            let (seconds, attoseconds) = sendTimeout.components
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if systemConnect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return socket }
            close(socket)
        }
        return nil
    }

    /// Sends all of `data`; false when the connection failed or timed out.
    private static func send(_ data: Data, on socket: Int32) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let sent = systemSend(socket, base + offset, bytes.count - offset, flags)
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Whether the inspector closed the connection. It says nothing but
    /// pings (answered with pongs) and its close.
    private static func peerClosed(_ socket: Int32) -> Bool {
        while true {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return false }
            // A frame from the server: unmasked, a control frame's payload
            // at most 125 bytes; anything else ends the connection.
            guard let head = read(2, from: socket), head[1] & 0x80 == 0, head[1] & 0x7F <= 125,
                let payload = read(Int(head[1] & 0x7F), from: socket)
            else { return true }
            switch head[0] & 0x0F {
            case 0x9: guard sendControl(0xA, payload: payload, on: socket) else { return true }
            case 0xA: continue
            default: return true
            }
        }
    }

    /// `count` bytes from `socket`, waiting at most 2 seconds for them.
    private static func read(_ count: Int, from socket: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 2_000) > 0 else { return nil }
            let read = bytes.withUnsafeMutableBytes { buffer in
                recv(socket, buffer.baseAddress.map { $0 + offset }, count - offset, 0)
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            offset += read
        }
        return bytes
    }

    /// Sends a masked control frame (`opcode`, at most 125 bytes).
    private static func sendControl(_ opcode: UInt8, payload: [UInt8], on socket: Int32) -> Bool {
        let key = (0..<4).map { _ in UInt8.random(in: .min ... .max) }
        var frame = Data([0x80 | opcode, 0x80 | UInt8(payload.count)] + key)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ key[index & 3]) }
        return send(frame, on: socket)
    }
}

// The system's calls, named apart from the methods above.

private func systemSocket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.socket(family, type, proto)
    #else
    Darwin.socket(family, type, proto)
    #endif
}

private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(socket, address, length)
    #else
    Darwin.connect(socket, address, length)
    #endif
}

private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
    Glibc.send(socket, bytes, count, flags)
    #else
    Darwin.send(socket, bytes, count, flags)
    #endif
}
