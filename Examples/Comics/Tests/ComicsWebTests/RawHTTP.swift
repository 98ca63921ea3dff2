// One HTTP exchange byte for byte, for requests a browser would not make
// (a wrong content type, say): a raw TCP connection on loopback.

import Foundation
import NIOCore
import NIOPosix

enum RawHTTP {
    /// Sends `request` on a new connection and returns what the server sent
    /// until it closed the connection.
    static func send(port: Int, _ request: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var received = ""
            for try await buffer in inbound {
                received += String(buffer: buffer)
            }
            return received
        }
    }
}
