// What the recogniser's tests share: scratch directories, WAV files made of
// given samples, and spoken sentences synthesised with Festival.

import Foundation
import SpeechRecognizer
import StandupsTestSupport
import Testing

/// A directory of its own, removed at the end.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("oak-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` to `name` in the directory.
    func write(_ data: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }
}

/// The bytes of a WAV file: a RIFF header, `extraChunks` (identifier and
/// body), then the format and the data chunks.
func wavData(
    samples: [Int16], sampleRate: Int = 16_000, channels: Int = 1, bitsPerSample: Int = 16, encoding: UInt16 = 1,
    extraChunks: [(String, [UInt8])] = []
) -> Data {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }
    let blockAlign = channels * bitsPerSample / 8
    let format =
        le16(Int(encoding)) + le16(channels) + le32(sampleRate) + le32(sampleRate * blockAlign) + le16(blockAlign)
        + le16(bitsPerSample)
    let audio = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
    let body =
        Array("WAVE".utf8) + extraChunks.flatMap { chunk($0.0, $0.1) } + chunk("fmt ", format) + chunk("data", audio)
    return Data(Array("RIFF".utf8) + le32(body.count) + body)
}

extension SpeechTools {
    /// `text` spoken, as 16 kHz mono 16-bit samples.
    static func speak(_ text: String, in scratch: ScratchDirectory) async throws -> [Int16] {
        try WAVAudio(contentsOf: try await speak(text, into: scratch.url)).samples
    }
}
