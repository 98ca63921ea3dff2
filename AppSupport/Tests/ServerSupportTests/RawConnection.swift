// A TCP client that does exactly what a test tells it, byte for byte: the
// misbehaving clients of the server tests (a head that never ends, a body
// that trickles). Built on SwiftNIO's async channels: reading awaits the
// bytes, nothing polls.

import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a server on loopback, open for the time of a
/// scope (``with(port:_:)``).
struct RawConnection {
    let inbound: NIOAsyncChannelInboundStream<ByteBuffer>
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Runs `body` with a new connection to `port` on 127.0.0.1, and closes
    /// the connection after it.
    static func with<Result: Sendable>(
        port: Int, _ body: (RawConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(RawConnection(inbound: inbound, outbound: outbound))
        }
    }

    /// Sends `text`.
    func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Everything the server sends until it closes the connection.
    /// With `resetCloses`, a reset ends the reading as a close does: a
    /// client that is still sending when the server closes is answered with
    /// a reset (what it sent after the close was never read), not an end
    /// of stream.
    func readUntilClosed(resetCloses: Bool = false) async throws -> String {
        var received = ""
        do {
            for try await buffer in inbound {
                received += String(buffer: buffer)
            }
        } catch let error as IOError where resetCloses && error.errnoCode == ECONNRESET {
            return received
        }
        return received
    }

    /// Sends `request` on a new connection and returns what the server
    /// sent until it closed the connection.
    static func exchange(port: Int, _ request: String) async throws -> String {
        try await with(port: port) { connection in
            try await connection.send(request)
            return try await connection.readUntilClosed()
        }
    }
}
