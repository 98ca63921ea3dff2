// A WebSocket client for the tests of web servers (RFC 6455): plain ws://
// on loopback, over a POSIX socket, without a dependency. The blocking
// socket calls run on the client's own dispatch queues, never on the
// tasks' threads, and every wait ends at its deadline.

import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A frame from the server; a message sent in fragments comes whole.
public enum WebSocketTestFrame: Sendable, Equatable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// The server's close frame: its status code (`nil` when the frame has
    /// none) and its reason. The client has already answered it.
    case close(code: UInt16?, reason: String)
    /// A ping and its payload. The client has already answered it.
    case ping([UInt8])
    /// A pong and its payload.
    case pong([UInt8])
}

/// Why a WebSocket test could not go on.
public enum WebSocketTestError: Error, Sendable, Equatable {
    /// The server answered the upgrade request with `status`, not 101, and
    /// this body.
    case refused(status: Int, body: String)
    /// The server answered 101, but not as RFC 6455 says (the message says
    /// what was wrong).
    case badHandshake(String)
    /// The server sent a frame RFC 6455 forbids (the message says which).
    case protocolViolation(String)
    /// Nothing came before the deadline.
    case timedOut
    /// The connection ended before the server's close frame.
    case closedWithoutCloseFrame
    /// The URL is not one the client can reach, or a socket call failed
    /// (the message says which).
    case io(String)
}

/// A browser's WebSocket, for tests: a real upgrade request, masked frames
/// out, the server's frames in, one at a time.
///
/// ```swift
/// let socket = try await WebSocketTestClient.connect(
///     to: "ws://127.0.0.1:\(port)/live", headers: ["Cookie": cookie])
/// try await socket.sendText("hello")
/// #expect(try await socket.receive() == .text("hello"))
/// await socket.close()
/// ```
///
/// The blocking socket calls run on the client's own dispatch queues, so a
/// test never holds Swift's cooperative threads. Every wait ends at its
/// deadline. Cancelling a waiting task ends the connection. Sends and
/// receives may overlap; the receives take turns, as do the sends.
public final class WebSocketTestClient: Sendable {
    private let connection: Connection

    private init(connection: Connection) {
        self.connection = connection
    }

    /// Connects to `url` (`ws://127.0.0.1:PORT/path?query`; the host is an
    /// IPv4 address or `localhost`) and upgrades the connection.
    ///
    /// `headers` go with the upgrade request (`Cookie`, `Origin`…); one
    /// named like a header the client sends itself (`Host`,
    /// `Sec-WebSocket-Version`…) replaces it. `timeout` bounds the
    /// handshake, and each later send.
    ///
    /// - Throws: ``WebSocketTestError/refused(status:body:)`` when the
    ///   server answers anything but 101; ``WebSocketTestError/badHandshake(_:)``
    ///   when its 101 is wrong (a bad `Sec-WebSocket-Accept`);
    ///   ``WebSocketTestError/timedOut``; ``WebSocketTestError/io(_:)``.
    public static func connect(
        to url: String, headers: [String: String] = [:], timeout: Duration = .seconds(10)
    ) async throws -> WebSocketTestClient {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let endpoint = try Endpoint(url)
        let connection = try Connection(timeout: timeout)
        try await connection.perform(on: connection.readQueue) {
            try connection.handshake(endpoint, headers: headers, until: deadline)
        }
        return WebSocketTestClient(connection: connection)
    }

    /// Sends `bytes` as one binary frame.
    public func sendBinary(_ bytes: [UInt8]) async throws {
        try await sendFrame(opcode: Opcode.binary, payload: bytes)
    }

    /// Sends `text` as one text frame.
    public func sendText(_ text: String) async throws {
        try await sendFrame(opcode: Opcode.text, payload: Array(text.utf8))
    }

    /// Sends one frame as it is told, for tests of malformed frames: any
    /// `opcode` (its low 4 bits: 0 continuation, 1 text, 2 binary, 8 close,
    /// 9 ping, 10 pong, others reserved), any `payload`, `fin` unset for a
    /// fragment, and unmasked if `masked` is false (a client must mask).
    public func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true) async throws {
        let connection = connection
        let deadline = ContinuousClock.now.advanced(by: connection.timeout)
        try await connection.perform(on: connection.writeQueue) {
            try connection.sendFrame(opcode: opcode, payload: payload, fin: fin, masked: masked, until: deadline)
        }
    }

    /// The server's next frame, or the next message whole when the server
    /// sends it in fragments.
    ///
    /// A ping is answered with a pong at once, then returned; so is a
    /// close frame, with a close frame of the same code.
    ///
    /// - Throws: ``WebSocketTestError/timedOut`` when nothing comes within
    ///   `timeout`; ``WebSocketTestError/closedWithoutCloseFrame`` when the
    ///   connection ends; ``WebSocketTestError/protocolViolation(_:)`` for a
    ///   frame RFC 6455 forbids (masked, reserved opcode or bits, text that
    ///   is not UTF-8); ``WebSocketTestError/io(_:)`` once the server's close
    ///   frame has been read.
    public func receive(timeout: Duration = .seconds(10)) async throws -> WebSocketTestFrame {
        let connection = connection
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return try await connection.perform(on: connection.readQueue) {
            try connection.nextFrame(until: deadline)
        }
    }

    /// The code and reason of the server's close frame: reads until it
    /// comes, skipping data, pings and pongs, and answers it with a close
    /// frame of the same code. Once it has come, returns it again.
    ///
    /// - Throws: ``WebSocketTestError/timedOut`` when it does not come
    ///   within `timeout`; ``WebSocketTestError/closedWithoutCloseFrame``
    ///   when the connection ends first.
    public func closeReason(timeout: Duration = .seconds(10)) async throws -> (code: UInt16?, reason: String) {
        let connection = connection
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return try await connection.perform(on: connection.readQueue) {
            try connection.closeFrame(until: deadline)
        }
    }

    /// Closes the WebSocket: sends a close frame with `code` and `reason`
    /// (unless one was sent already), waits up to 2 seconds for the
    /// server's, then ends the connection. Never fails.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        let connection = connection
        let sendDeadline = ContinuousClock.now.advanced(by: connection.timeout)
        _ = try? await connection.perform(on: connection.writeQueue) {
            try connection.sendCloseIfNeeded(code: code, reason: reason, until: sendDeadline)
        }
        let readDeadline = ContinuousClock.now.advanced(by: .seconds(2))
        _ = try? await connection.perform(on: connection.readQueue) {
            _ = try connection.closeFrame(until: readDeadline)
        }
        connection.shutDown()
    }
}

/// The opcodes of RFC 6455.
private enum Opcode {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2
    static let close: UInt8 = 0x8
    static let ping: UInt8 = 0x9
    static let pong: UInt8 = 0xA
}

/// Where a `ws://` URL points.
private struct Endpoint {
    /// The host as written, for the `Host` header.
    let host: String
    /// The IPv4 address the client connects to.
    let address: String
    let port: Int
    /// The path and query of the request line.
    let target: String

    init(_ url: String) throws {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "ws",
            let host = components.host, !host.isEmpty
        else { throw WebSocketTestError.io("not a ws:// URL: \(url)") }
        let port = components.port ?? 80
        guard (1...65_535).contains(port) else { throw WebSocketTestError.io("no such port: \(url)") }
        self.host = host
        self.address = host.lowercased() == "localhost" ? "127.0.0.1" : host
        self.port = port
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        self.target = target
    }
}

/// A frame as read from the socket.
private struct RawFrame {
    let fin: Bool
    let opcode: UInt8
    let payload: [UInt8]
}

/// The socket, its buffer and its state.
private final class Connection: @unchecked Sendable {
    // Safety: `fd` never changes and is closed only in `deinit`, once no
    // call uses the connection any more (each holds it). The read state is
    // used only on `readQueue`, the write state only under `writeLock`.
    let fd: Int32
    /// How long a send may wait.
    let timeout: Duration
    let readQueue = DispatchQueue(label: "WebSocketTestClient.read")
    let writeQueue = DispatchQueue(label: "WebSocketTestClient.write")

    // Read state.
    private var inbound: [UInt8] = []
    private var fragments: (opcode: UInt8, payload: [UInt8])?
    private var receivedClose: (code: UInt16?, reason: String)?

    // Write state.
    private let writeLock = NSLock()
    private var sentClose = false

    /// The largest payload accepted from the server.
    private static let maximumPayload = 1 << 26
    /// The largest HTTP response head accepted from the server.
    private static let maximumHead = 1 << 16

    /// A non-blocking TCP socket, not yet connected.
    init(timeout: Duration) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw WebSocketTestError.io("socket: \(errorDescription(errno))") }
        self.fd = fd
        self.timeout = timeout
        // Not inherited by the processes a test starts; no SIGPIPE on a
        // closed connection (Linux passes MSG_NOSIGNAL on each send).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit {
        _ = close(fd)
    }

    /// Runs `work` on `queue` and waits for it without blocking the task's
    /// thread. Cancelling the task shuts the socket down, which ends `work`.
    func perform<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    queue.async { continuation.resume(with: Result(catching: work)) }
                }
            } onCancel: {
                self.shutDown()
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// Ends the connection both ways; a blocked call returns at once.
    func shutDown() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    // MARK: Handshake (on `readQueue`)

    func handshake(_ endpoint: Endpoint, headers: [String: String], until deadline: ContinuousClock.Instant) throws {
        try openSocket(to: endpoint, until: deadline)
        let key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        var fields = [
            ("Host", "\(endpoint.host):\(endpoint.port)"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13"),
        ]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard !(name + value).utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
                throw WebSocketTestError.io("header \(name) has a line break")
            }
            if let index = fields.firstIndex(where: { $0.0.lowercased() == name.lowercased() }) {
                fields[index] = (name, value)
            } else {
                fields.append((name, value))
            }
        }
        let sentKey = fields.first { $0.0.lowercased() == "sec-websocket-key" }?.1 ?? key
        var request = "GET \(endpoint.target) HTTP/1.1\r\n"
        for (name, value) in fields { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try locked { try write(Array(request.utf8), until: deadline) }

        let (status, responseHeaders) = try readHead(until: deadline)
        func header(_ name: String) -> String {
            responseHeaders.first { $0.name == name }?.value ?? ""
        }
        guard status == 101 else {
            let body = readBody(
                length: header("content-length"), encoding: header("transfer-encoding"), until: deadline)
            throw WebSocketTestError.refused(status: status, body: String(decoding: body, as: UTF8.self))
        }
        guard header("upgrade").lowercased() == "websocket" else {
            throw WebSocketTestError.badHandshake("Upgrade: \(header("upgrade"))")
        }
        guard header("connection").lowercased().split(separator: ",").contains(where: { $0.trimmed == "upgrade" })
        else { throw WebSocketTestError.badHandshake("Connection: \(header("connection"))") }
        let expected = Data(sha1(Array((sentKey + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        guard header("sec-websocket-accept") == expected else {
            throw WebSocketTestError.badHandshake(
                "Sec-WebSocket-Accept: \(header("sec-websocket-accept")), not \(expected)")
        }
    }

    private func openSocket(to endpoint: Endpoint, until deadline: ContinuousClock.Instant) throws {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(endpoint.port).bigEndian
        guard inet_pton(AF_INET, endpoint.address, &address.sin_addr) == 1 else {
            throw WebSocketTestError.io("\(endpoint.host) is not an IPv4 address or localhost")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let name = "\(endpoint.address):\(endpoint.port)"
        guard result != 0 else { return }
        let code = errno
        guard code == EINPROGRESS || code == EINTR else {
            throw WebSocketTestError.io("connect to \(name): \(errorDescription(code))")
        }
        try wait(for: POLLOUT, until: deadline)
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
            throw WebSocketTestError.io("connect to \(name): \(errorDescription(failure))")
        }
    }

    /// The status and header fields (names in lower case) of the response;
    /// what follows stays in `inbound`.
    private func readHead(until deadline: ContinuousClock.Instant) throws -> (Int, [(name: String, value: String)]) {
        var searched = 0
        var end = find([13, 10, 13, 10], from: &searched)
        while end == nil {
            guard inbound.count <= Self.maximumHead else {
                throw WebSocketTestError.badHandshake("a response head of more than \(Self.maximumHead) bytes")
            }
            guard try readMore(until: deadline) else {
                throw WebSocketTestError.io("the server closed the connection without answering the upgrade")
            }
            end = find([13, 10, 13, 10], from: &searched)
        }
        let length = end ?? 0
        let head = String(decoding: inbound[..<length], as: UTF8.self)
        inbound.removeFirst(length + 4)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw WebSocketTestError.badHandshake("status line: \(statusLine)")
        }
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            return (pair[0].trimmed.lowercased(), pair[1].trimmed)
        }
        return (status, fields)
    }

    /// The body of a refusal, as much of it as comes by `deadline`.
    private func readBody(length: String, encoding: String, until deadline: ContinuousClock.Instant) -> [UInt8] {
        var body: [UInt8] = []
        do {
            if let length = Int(length), length >= 0 {
                let wanted = min(length, Self.maximumPayload)
                while inbound.count < wanted, try readMore(until: deadline) {}
                body = take(min(wanted, inbound.count))
            } else if encoding.lowercased().contains("chunked") {
                while true {
                    guard let lineEnd = try line(until: deadline) else { break }
                    let sizeText = String(decoding: inbound[..<lineEnd], as: UTF8.self)
                    inbound.removeFirst(lineEnd + 2)
                    let hex = sizeText.split(separator: ";").first?.trimmed ?? ""
                    guard let size = Int(hex, radix: 16), size > 0, size <= Self.maximumPayload else { break }
                    while inbound.count < size + 2, try readMore(until: deadline) {}
                    let chunk = take(min(size, inbound.count))
                    body += chunk
                    guard chunk.count == size, body.count <= Self.maximumPayload else { break }
                    inbound.removeFirst(min(2, inbound.count))
                }
            } else {
                while inbound.count <= Self.maximumPayload, try readMore(until: deadline) {}
                body = take(inbound.count)
            }
        } catch {
            // The status is what matters: keep what came.
            if body.isEmpty { body = take(inbound.count) }
        }
        return body
    }

    /// Where the next CRLF in `inbound` is, once one has come.
    private func line(until deadline: ContinuousClock.Instant) throws -> Int? {
        var searched = 0
        while true {
            if let end = find([13, 10], from: &searched) { return end }
            guard inbound.count <= Self.maximumHead, try readMore(until: deadline) else { return nil }
        }
    }

    /// Where `pattern` starts in `inbound`, looking from `start` on; moves
    /// `start` past what has been searched.
    private func find(_ pattern: [UInt8], from start: inout Int) -> Int? {
        guard inbound.count >= pattern.count else { return nil }
        let last = inbound.count - pattern.count
        if start <= last {
            for index in start...last where inbound[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
        }
        start = last + 1
        return nil
    }

    // MARK: Frames in (on `readQueue`)

    /// The next frame, or message, from the server.
    func nextFrame(until deadline: ContinuousClock.Instant) throws -> WebSocketTestFrame {
        guard receivedClose == nil else { throw WebSocketTestError.io("the server has closed the WebSocket") }
        while true {
            let frame = try readFrame(until: deadline)
            switch frame.opcode {
            case Opcode.continuation:
                guard var message = fragments else {
                    throw WebSocketTestError.protocolViolation("a continuation frame with no message to continue")
                }
                message.payload += frame.payload
                guard message.payload.count <= Self.maximumPayload else {
                    throw WebSocketTestError.protocolViolation("a message of more than \(Self.maximumPayload) bytes")
                }
                guard frame.fin else {
                    fragments = message
                    continue
                }
                fragments = nil
                return try Self.message(opcode: message.opcode, payload: message.payload)
            case Opcode.text, Opcode.binary:
                guard fragments == nil else {
                    throw WebSocketTestError.protocolViolation("a new message inside a fragmented one")
                }
                guard frame.fin else {
                    fragments = (frame.opcode, frame.payload)
                    continue
                }
                return try Self.message(opcode: frame.opcode, payload: frame.payload)
            case Opcode.close:
                let (code, reason) = try Self.closePayload(frame.payload)
                receivedClose = (code, reason)
                let replyDeadline = ContinuousClock.now.advanced(by: timeout)
                try? sendCloseIfNeeded(code: code, reason: "", until: replyDeadline)
                return .close(code: code, reason: reason)
            case Opcode.ping:
                let replyDeadline = ContinuousClock.now.advanced(by: timeout)
                try? sendFrame(
                    opcode: Opcode.pong, payload: frame.payload, fin: true, masked: true, until: replyDeadline)
                return .ping(frame.payload)
            case Opcode.pong:
                return .pong(frame.payload)
            default:
                throw WebSocketTestError.protocolViolation("reserved opcode \(frame.opcode)")
            }
        }
    }

    /// The server's close frame, once it comes.
    func closeFrame(until deadline: ContinuousClock.Instant) throws -> (code: UInt16?, reason: String) {
        while true {
            if let receivedClose { return receivedClose }
            _ = try nextFrame(until: deadline)
        }
    }

    private static func message(opcode: UInt8, payload: [UInt8]) throws -> WebSocketTestFrame {
        guard opcode == Opcode.text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketTestError.protocolViolation("a text message that is not UTF-8")
        }
        return .text(text)
    }

    private static func closePayload(_ payload: [UInt8]) throws -> (UInt16?, String) {
        guard payload.count >= 2 else {
            guard payload.isEmpty else { throw WebSocketTestError.protocolViolation("a close frame of 1 byte") }
            return (nil, "")
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketTestError.protocolViolation("a close reason that is not UTF-8")
        }
        return (code, reason)
    }

    private func readFrame(until deadline: ContinuousClock.Instant) throws -> RawFrame {
        try need(2, until: deadline)
        let first = inbound[0]
        let second = inbound[1]
        guard first & 0x70 == 0 else {
            throw WebSocketTestError.protocolViolation("reserved bits set, with no extension agreed")
        }
        guard second & 0x80 == 0 else { throw WebSocketTestError.protocolViolation("a masked frame from the server") }
        let opcode = first & 0x0F
        var headLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            headLength = 4
            try need(headLength, until: deadline)
            length = UInt64(inbound[2]) << 8 | UInt64(inbound[3])
        } else if length == 127 {
            headLength = 10
            try need(headLength, until: deadline)
            length = inbound[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard length <= UInt64(Self.maximumPayload) else {
            throw WebSocketTestError.protocolViolation("a frame of \(length) bytes")
        }
        let fin = first & 0x80 != 0
        if opcode >= 0x8 {
            guard fin, length <= 125 else {
                throw WebSocketTestError.protocolViolation("a fragmented or long control frame (opcode \(opcode))")
            }
        }
        let total = headLength + Int(length)
        try need(total, until: deadline)
        let payload = Array(inbound[headLength..<total])
        inbound.removeFirst(total)
        return RawFrame(fin: fin, opcode: opcode, payload: payload)
    }

    /// Reads until `inbound` holds `count` bytes.
    private func need(_ count: Int, until deadline: ContinuousClock.Instant) throws {
        while inbound.count < count {
            guard try readMore(until: deadline) else { throw WebSocketTestError.closedWithoutCloseFrame }
        }
    }

    private func take(_ count: Int) -> [UInt8] {
        let bytes = Array(inbound.prefix(count))
        inbound.removeFirst(bytes.count)
        return bytes
    }

    /// Appends what comes to `inbound`; false when the connection has ended.
    private func readMore(until deadline: ContinuousClock.Instant) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let capacity = chunk.count
        while true {
            let count = recv(fd, &chunk, capacity, 0)
            if count > 0 {
                inbound.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR: try wait(for: POLLIN, until: deadline)
            case ECONNRESET, ENOTCONN, EPIPE: return false
            default: throw WebSocketTestError.io("recv: \(errorDescription(code))")
            }
        }
    }

    // MARK: Frames out (under `writeLock`)

    func sendFrame(
        opcode: UInt8, payload: [UInt8], fin: Bool, masked: Bool, until deadline: ContinuousClock.Instant
    ) throws {
        let frame = Self.frame(opcode: opcode, payload: payload, fin: fin, masked: masked)
        try locked {
            if opcode & 0x0F == Opcode.close { sentClose = true }
            try write(frame, until: deadline)
        }
    }

    func sendCloseIfNeeded(code: UInt16?, reason: String, until deadline: ContinuousClock.Instant) throws {
        let payload = code.map { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] + Array(reason.utf8) } ?? []
        let frame = Self.frame(opcode: Opcode.close, payload: payload, fin: true, masked: true)
        try locked {
            guard !sentClose else { return }
            sentClose = true
            try write(frame, until: deadline)
        }
    }

    private func locked(_ body: () throws -> Void) throws {
        writeLock.lock()
        defer { writeLock.unlock() }
        try body()
    }

    /// A frame as a client sends it: masked with a random key unless told
    /// otherwise; a 7-bit, 16-bit or 64-bit length as the payload needs.
    private static func frame(opcode: UInt8, payload: [UInt8], fin: Bool, masked: Bool) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (opcode & 0x0F)]
        frame.reserveCapacity(payload.count + 14)
        let maskBit: UInt8 = masked ? 0x80 : 0
        let count = payload.count
        if count < 126 {
            frame.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            frame += [maskBit | 126, UInt8(count >> 8), UInt8(truncatingIfNeeded: count)]
        } else {
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift)))
            }
        }
        guard masked else { return frame + payload }
        let key = (0..<4).map { _ in UInt8.random(in: .min ... .max) }
        frame += key
        for (index, byte) in payload.enumerated() { frame.append(byte ^ key[index & 3]) }
        return frame
    }

    private func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress?.advanced(by: offset), buffer.count - offset, flags)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR: try wait(for: POLLOUT, until: deadline)
            default: throw WebSocketTestError.io("send: \(errorDescription(code))")
            }
        }
    }

    // MARK: Waiting

    /// Waits until the socket is ready for `events`, or throws `.timedOut`
    /// at `deadline`.
    private func wait(for events: Int32, until deadline: ContinuousClock.Instant) throws {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw WebSocketTestError.timedOut }
            var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&descriptor, 1, Self.milliseconds(left))
            // Ready, or hung up or failed: the next call says which.
            if ready > 0 { return }
            let code = errno
            if ready < 0, code != EINTR { throw WebSocketTestError.io("poll: \(errorDescription(code))") }
        }
    }

    /// `duration` in whole milliseconds, rounded up, at least 1.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds < 1_000_000 else { return 1_000_000_000 }
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(max(1, milliseconds))
    }
}

/// What `errno` `code` means.
private func errorDescription(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
}

extension Substring {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

/// SHA-1 of `message`, for the handshake's `Sec-WebSocket-Accept` only,
/// which RFC 6455 defines with it. Foundation on Linux has no CryptoKit, and
/// this small one is enough for a test client; SHA-1 is not for secrets.
private func sha1(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    let bitCount = UInt64(message.count) * 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
        data.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
    }
    func rotated(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
    var words = [UInt32](repeating: 0, count: 80)
    for block in stride(from: 0, to: data.count, by: 64) {
        for index in 0..<16 {
            let byte = block + index * 4
            words[index] =
                UInt32(data[byte]) << 24 | UInt32(data[byte + 1]) << 16 | UInt32(data[byte + 2]) << 8
                | UInt32(data[byte + 3])
        }
        for index in 16..<80 {
            words[index] = rotated(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let mixed: UInt32
            let constant: UInt32
            switch index {
            case 0..<20: (mixed, constant) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (mixed, constant) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (mixed, constant) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (mixed, constant) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let next = rotated(a, 5) &+ mixed &+ e &+ constant &+ words[index]
            (e, d, c, b, a) = (d, c, rotated(b, 30), a, next)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }
    return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
}
