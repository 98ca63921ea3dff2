// Spoken sentences for the tests that use real speech recognition: Festival
// speaks them (its cmu_us_slt_arctic_hts voice), sox makes them 16 kHz mono
// 16-bit, as pocketsphinx wants. Without the Debian packages the tests are
// skipped, except on CI, where they fail saying what to install.

import Foundation
import SpeechRecognizer
import TerminalTesting
import Testing

/// The tools the real-audio tests need, and the Debian package of each.
public enum SpeechTools {
    /// Whether the tests run on CI (`CI=true`), where every tool must be
    /// there.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// What is missing, as the Debian packages to install; `nil` when
    /// everything is there.
    public static let missingPackages: String? = {
        var missing: [String] = []
        if Subprocess.find("text2wave") == nil { missing.append("festival") }
        if !FileManager.default.fileExists(atPath: "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts") {
            missing.append("festvox-us-slt-hts")
        }
        if Subprocess.find("sox") == nil { missing.append("sox") }
        if case .unavailable = PocketsphinxRecognizer().availability {
            missing.append("pocketsphinx pocketsphinx-en-us")
        }
        return missing.isEmpty ? nil : missing.joined(separator: " ")
    }()

    /// Whether the real-audio tests run: everything is there, or on CI
    /// (where they fail, saying what to install).
    public static let shouldRun = missingPackages == nil || isCI

    /// Records why the test cannot run (on CI, where the tools must be
    /// there); `true` when it can.
    public static func check(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let missingPackages else { return true }
        Issue.record(
            "the real-audio tests need Debian's packages: apt-get install \(missingPackages)",
            sourceLocation: sourceLocation)
        return false
    }

    /// `text` spoken, as a 16 kHz mono 16-bit WAV file in `directory`.
    public static func speak(_ text: String, into directory: URL) async throws -> URL {
        let name = UUID().uuidString
        let textFile = directory.appendingPathComponent("\(name).txt")
        try Data(text.utf8).write(to: textFile)
        let spoken = directory.appendingPathComponent("\(name)-festival.wav")
        let converted = directory.appendingPathComponent("\(name).wav")
        try await run(
            "text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", textFile.path, "-o", spoken.path], directory)
        try await run("sox", [spoken.path, "-r", "16000", "-c", "1", "-b", "16", converted.path], directory)
        return converted
    }

    private static func run(_ tool: String, _ arguments: [String], _ scratch: URL) async throws {
        guard let executable = Subprocess.find(tool) else {
            throw ToolFailed(description: "\(tool) is not on PATH")
        }
        let finished = try await Subprocess.run(executable, arguments, scratch: scratch, timeout: .seconds(60))
        guard finished.exited(with: 0) else {
            throw ToolFailed(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(finished)")
        }
    }
}

/// A tool the tests run failed.
public struct ToolFailed: Error, CustomStringConvertible {
    /// What failed.
    public var description: String
}
