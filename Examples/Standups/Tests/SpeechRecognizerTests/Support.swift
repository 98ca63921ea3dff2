// What the recogniser's tests share: scratch directories, WAV files made of
// given samples, and spoken sentences synthesised with Festival.

import Foundation
import SpeechRecognizer
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

/// The tools the real-audio tests need, and the Debian package of each.
enum SpeechTools {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// What is missing, as the Debian packages to install; `nil` when
    /// everything is there.
    static let missingPackages: String? = {
        var missing: [String] = []
        if executable("text2wave") == nil { missing.append("festival") }
        if !FileManager.default.fileExists(atPath: "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts") {
            missing.append("festvox-us-slt-hts")
        }
        if executable("sox") == nil { missing.append("sox") }
        if case .unavailable = PocketsphinxRecognizer().availability {
            missing.append("pocketsphinx pocketsphinx-en-us")
        }
        return missing.isEmpty ? nil : missing.joined(separator: " ")
    }()

    /// Whether the real-audio tests run: everything is there, or on CI
    /// (where they fail, saying what to install).
    static let shouldRun = missingPackages == nil || isCI

    /// Records why the test cannot run (on CI, where the tools must be
    /// there); `true` when it can.
    static func check() -> Bool {
        guard let missingPackages else { return true }
        Issue.record("the real-audio tests need Debian's packages: apt-get install \(missingPackages)")
        return false
    }

    /// The executable `name` on the `PATH`.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// `text` spoken by Festival's cmu_us_slt_arctic_hts voice, as 16 kHz
    /// mono 16-bit samples.
    static func speak(_ text: String, in scratch: ScratchDirectory) throws -> [Int16] {
        let name = UUID().uuidString
        let textFile = try scratch.write(Data(text.utf8), to: "\(name).txt")
        let spoken = scratch.url.appendingPathComponent("\(name)-festival.wav")
        let converted = scratch.url.appendingPathComponent("\(name).wav")
        try run("text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", textFile.path, "-o", spoken.path])
        try run("sox", [spoken.path, "-r", "16000", "-c", "1", "-b", "16", converted.path])
        return try WAVAudio(contentsOf: converted).samples
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable(tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(
                description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}

/// A tool the tests run failed.
struct ToolFailed: Error, CustomStringConvertible {
    var description: String
}
