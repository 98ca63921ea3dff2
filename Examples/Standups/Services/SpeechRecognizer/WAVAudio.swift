// Reading the audio the recogniser takes: RIFF WAVE files of 16 kHz mono
// 16-bit PCM, as `sox in.wav -r 16000 -c 1 -b 16 out.wav` writes them.

import Foundation

/// The samples of a 16 kHz mono 16-bit PCM WAV file.
///
/// ```swift
/// let audio = try WAVAudio(contentsOf: URL(filePath: "standup.wav"))
/// print(audio.duration)
/// ```
public struct WAVAudio: Equatable, Sendable {
    /// The only sample rate read: 16 kHz, pocketsphinx's.
    public static let sampleRate = 16_000

    /// The samples, in order.
    public var samples: [Int16]

    /// How long the audio lasts.
    public var duration: Duration { .milliseconds(samples.count * 1000 / Self.sampleRate) }

    /// Audio of `samples` at 16 kHz.
    public init(samples: [Int16]) {
        self.samples = samples
    }

    /// Reads the file at `url`.
    /// - Throws: ``WAVError`` when the file cannot be read, is not WAV, is
    ///   in another format, or is damaged.
    public init(contentsOf url: URL) throws(WAVError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .unreadable(path: url.path, reason: "there is no such file")
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(path: url.path, reason: "it is a directory; give a WAV file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .unreadable(path: url.path, reason: "you may not read it (see its permissions with `ls -l`)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        try self.init(wav: data)
    }

    /// Parses `wav`, the bytes of a WAV file. Linear in its size.
    /// - Throws: ``WAVError`` when it is not WAV, in another format, or
    ///   damaged.
    public init(wav: Data) throws(WAVError) {
        let bytes = [UInt8](wav)
        guard bytes.count >= 12, bytes.ascii(at: 0) == "RIFF", bytes.ascii(at: 8) == "WAVE" else { throw .notWAV }
        var format: Format?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = bytes.ascii(at: offset)
            let size = Int(bytes.uint32(at: offset + 4))
            let body = offset + 8
            guard size <= bytes.count - body else {
                throw .damaged(
                    "the \(id.debugDescription) chunk says \(size) bytes, the file holds \(bytes.count - body)")
            }
            switch id {
            case "fmt ":
                format = try Format(bytes[body..<body + size])
            case "data":
                guard let format else { throw .damaged("the audio comes before its format") }
                try format.check()
                guard size % 2 == 0 else { throw .damaged("the audio ends in half a sample") }
                samples = stride(from: body, to: body + size, by: 2).map { Int16(bitPattern: bytes.uint16(at: $0)) }
                return
            default:
                break
            }
            offset = body + size + size % 2  // chunks are padded to even sizes
        }
        throw .damaged(format == nil ? "no format chunk" : "no audio (data chunk)")
    }
}

extension WAVAudio {
    /// The `fmt ` chunk's fields the recogniser checks.
    private struct Format {
        var encoding: UInt16
        var channels: Int
        var sampleRate: Int
        var bitsPerSample: Int

        init(_ chunk: ArraySlice<UInt8>) throws(WAVError) {
            let bytes = Array(chunk)
            guard bytes.count >= 16 else { throw .damaged("the format chunk is \(bytes.count) bytes, not 16") }
            encoding = bytes.uint16(at: 0)
            channels = Int(bytes.uint16(at: 2))
            sampleRate = Int(bytes.uint32(at: 4))
            bitsPerSample = Int(bytes.uint16(at: 14))
            // WAVE_FORMAT_EXTENSIBLE: the encoding is the sub-format's.
            if encoding == 0xFFFE, bytes.count >= 26 { encoding = bytes.uint16(at: 24) }
        }

        func check() throws(WAVError) {
            guard encoding == 1, channels == 1, sampleRate == WAVAudio.sampleRate, bitsPerSample == 16 else {
                let kind = encoding == 1 ? "PCM" : "encoding \(encoding), not integer PCM"
                let channelCount = channels == 1 ? "1 channel" : "\(channels) channels"
                throw .unsupportedFormat(found: "\(sampleRate) Hz, \(channelCount), \(bitsPerSample)-bit \(kind)")
            }
        }
    }
}

extension [UInt8] {
    /// Four bytes at `offset` as ASCII (a chunk's identifier); the caller
    /// checked that they exist.
    fileprivate func ascii(at offset: Int) -> String {
        String(decoding: self[offset..<offset + 4], as: Unicode.ASCII.self)
    }

    /// A little-endian 16-bit integer at `offset`.
    fileprivate func uint16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// A little-endian 32-bit integer at `offset`.
    fileprivate func uint32(at offset: Int) -> UInt32 {
        UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16
    }
}
