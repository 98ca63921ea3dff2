// The README, the DocC articles and the examples in doc comments teach the
// designated API only. Oak's spellings (Sources/Oak/Compatibility) are kept
// for code written against Oak and are `@_disfavoredOverload`, so a sample
// that compiles (the samples are tests' code: DocumentationSamplesTests) and
// spells none of them calls a designated form. Each compatibility form is
// told apart by one of the spellings below: its isolation label
// (`systemActor:`, `isolated:` on `run`), its `Completion` value, or its
// name.

import Foundation
import Testing

@Suite("Documentation: samples use the designated API only")
struct DesignatedFormsTests {
    /// A spelling that only a compatibility form has, and what to write
    /// instead.
    struct Spelling: Sendable {
        let pattern: String
        let instead: String
    }

    static let compatibility: [Spelling] = [
        Spelling(pattern: #"\bsystemActor:"#, instead: "isolation: (or leave it out)"),
        Spelling(pattern: #"\bisolated:(?!\s*isolated\b)"#, instead: "isolation: (or leave it out)"),
        Spelling(pattern: #"\bcompletion:\s*\.init\b"#, instead: "completion: { result in … }"),
        Spelling(pattern: #"\bCompletion\("#, instead: "a completion closure"),
        Spelling(pattern: #"\bTransducerEffect\b"#, instead: "Effect"),
        Spelling(pattern: #"\bDefaultInitializable\b"#, instead: "an initial state passed to run"),
        Spelling(pattern: #"\bStateInitialising\b"#, instead: "Transducer.State"),
        Spelling(pattern: #"\bTransducerComposition\b"#, instead: "a Child, Intents or an embedded transducer"),
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every sample the documentation shows: the README's and the articles'
    /// ```swift blocks, and the code blocks of the doc comments of Oak and
    /// OakTesting (the compatibility files aside), as "place: line".
    static func samples() throws -> [(place: String, line: String)] {
        var found: [(String, String)] = []
        let files = FileManager.default
        var markdown = [packageRoot.appendingPathComponent("README.md")]
        for catalog in ["Sources/Oak/Oak.docc", "Sources/OakTesting/OakTesting.docc"] {
            let folder = packageRoot.appendingPathComponent(catalog)
            markdown += try files.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
                .map { folder.appendingPathComponent($0) }
        }
        for file in markdown {
            let text = try String(contentsOf: file, encoding: .utf8)
            for sample in DocumentationSamples.swiftSamples(in: text) {
                for line in DocumentationSamples.significantLines(of: sample) {
                    found.append((file.lastPathComponent, line))
                }
            }
        }
        for source in ["Sources/Oak", "Sources/OakTesting"] {
            let folder = packageRoot.appendingPathComponent(source)
            guard let walk = files.enumerator(atPath: folder.path) else { continue }
            for case let path as String in walk where path.hasSuffix(".swift") && !path.hasPrefix("Compatibility/") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                for line in docCommentSamples(in: text) { found.append(("\(source)/\(path)", line)) }
            }
        }
        return found
    }

    /// The lines inside the ``` blocks of the `///` comments of `source`.
    static func docCommentSamples(in source: String) -> [String] {
        var lines: [String] = []
        var inBlock = false
        for line in source.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else {
                inBlock = false
                continue
            }
            let text = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("```") {
                inBlock.toggle()
            } else if inBlock, !text.isEmpty {
                lines.append(text)
            }
        }
        return lines
    }

    @Test func theDocumentationShowsNoCompatibilitySpelling() throws {
        let samples = try Self.samples()
        #expect(samples.count > 500, "too few sample lines found (\(samples.count)): is the walk broken?")
        var offending: [String] = []
        for spelling in Self.compatibility {
            let pattern = try Regex(spelling.pattern)
            for (place, line) in samples where line.contains(pattern) {
                offending.append("\(place): `\(line)` — write \(spelling.instead)")
            }
        }
        #expect(
            offending.isEmpty,
            "Oak's compatibility spellings in the documentation:\n\(offending.joined(separator: "\n"))")
    }

    @Test func theCheckFindsACompatibilitySpelling() throws {
        let lines = Self.docCommentSamples(
            in: """
                /// ```swift
                /// try await Counter.run(initialState: .idle, proxy: proxy, systemActor: MainActor.shared)
                /// ```
                func f() {}
                """)
        let pattern = try Regex(Self.compatibility[0].pattern)
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.contains(pattern) })
        let conformer = try Regex(Self.compatibility[1].pattern)
        #expect(!"func send(_ value: sending Int, isolated: isolated any Actor) async".contains(conformer))
        #expect("try await T.run(state: \\.s, host: self, isolated: self)".contains(conformer))
    }
}
