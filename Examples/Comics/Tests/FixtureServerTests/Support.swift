// Test support: an HTTP client over URLSession, a server fixture, and an
// independent PNG checker (its own CRC-32 and Adler-32, bit by bit).

import CompressNIO
import FixtureServer
import Foundation
import NIOCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small HTTP client: a fresh ephemeral session per test, so that no connection or cache is shared.
struct HTTP {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    /// GETs (or sends `method` to) an address; throws on network errors, not on HTTP error statuses.
    func fetch(_ address: String, method: String = "GET") async throws -> (body: Data, response: HTTPURLResponse) {
        let url = try #require(URL(string: address))
        var request = URLRequest(url: url)
        request.httpMethod = method
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (data, http)
    }

    /// The statuses of GET requests to `paths` on `server`, sent one after the other.
    func statuses(of paths: [String], on server: FixtureServer) async throws -> [Int] {
        var statuses: [Int] = []
        for path in paths {
            statuses.append(try await fetch(server.baseURL + path).response.statusCode)
        }
        return statuses
    }

    func invalidate() {
        session.invalidateAndCancel()
    }
}

/// Runs `body` with a fresh server and client, and stops the server afterwards, also when `body` throws.
func withServer(_ body: (FixtureServer, HTTP) async throws -> Void) async throws {
    let server = try await FixtureServer.start()
    let http = HTTP()
    do {
        try await body(server, http)
        http.invalidate()
        await server.stop()
    } catch {
        http.invalidate()
        await server.stop()
        throw error
    }
}

/// A PNG file's header and pixel data, checked on the way: signature, chunk CRCs, the zlib
/// stream and its Adler-32, and the size of the image data.
struct CheckedPNG {
    var width = 0
    var height = 0
    var bitDepth = 0
    var colourType = 0
    var chunkTypes: [String] = []
    /// The filtered scanlines: each row starts with its filter type.
    var scanlines: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ bytes: [UInt8]) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.starts(with: signature) else { throw Failure(description: "no PNG signature") }
        var offset = signature.count
        var idat: [UInt8] = []
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw Failure(description: "truncated chunk at \(offset)") }
            let length = Int(Self.uint32(bytes, at: offset))
            guard offset + 12 + length <= bytes.count else { throw Failure(description: "chunk too long") }
            let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            let data = Array(typeAndData.dropFirst(4))
            let crc = Self.uint32(bytes, at: offset + 8 + length)
            guard crc == Self.crc32(typeAndData) else { throw Failure(description: "bad CRC in \(type)") }
            chunkTypes.append(type)
            switch type {
            case "IHDR":
                guard data.count == 13 else { throw Failure(description: "IHDR of \(data.count) bytes") }
                width = Int(Self.uint32(data, at: 0))
                height = Int(Self.uint32(data, at: 4))
                bitDepth = Int(data[8])
                colourType = Int(data[9])
            case "IDAT":
                idat += data
            default:
                break
            }
            offset += 12 + length
        }
        guard chunkTypes.first == "IHDR", chunkTypes.last == "IEND" else {
            throw Failure(description: "chunks \(chunkTypes)")
        }
        scanlines = try Self.inflate(idat)
    }

    /// The zlib stream's content (zlib checks the stream's Adler-32).
    static func inflate(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, stream[0] & 0x0F == 8, (Int(stream[0]) * 256 + Int(stream[1])) % 31 == 0 else {
            throw Failure(description: "bad zlib header")
        }
        var buffer = ByteBuffer(bytes: stream)
        do {
            return Array(try buffer.decompress(with: .zlib(), maxSize: 16 << 20).readableBytesView)
        } catch {
            throw Failure(description: "zlib could not inflate the image data: \(error)")
        }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// CRC-32, bit by bit (no table, unlike the server's).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
