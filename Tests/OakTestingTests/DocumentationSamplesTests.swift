// Every Swift sample of OakTesting's DocC catalog is code of this test
// target, so that the articles show what compiles and runs.

import Foundation
import Testing

@Suite("OakTesting documentation samples")
struct DocumentationSamplesTests {
    /// Samples that are not test code: a package manifest fragment.
    static let exempt: Set<String> = [".testTarget("]

    @Test func everySwiftSampleOfTheCatalogAppearsInTheTests() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let catalog = tests.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/OakTesting/OakTesting.docc")
        var code: [String] = []
        let files = try FileManager.default.subpathsOfDirectory(atPath: tests.path).filter { $0.hasSuffix(".swift") }
        for file in files.sorted() {
            code += Self.lines(of: try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8))
        }
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        #expect(!articles.isEmpty)
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for sample in Self.swiftSamples(in: text) {
                let lines = Self.lines(of: sample)
                guard let first = lines.first, !Self.exempt.contains(first) else { continue }
                let found = (0...max(0, code.count - lines.count)).contains { start in
                    Array(code[start..<min(code.count, start + lines.count)]) == lines
                }
                #expect(found, "A sample of \(article) is not in the tests: \(first) …")
            }
        }
    }

    /// The contents of the ```swift blocks of a Markdown text.
    static func swiftSamples(in markdown: String) -> [String] {
        var samples: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                samples.append(current?.joined(separator: "\n") ?? "")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return samples
    }

    /// The non-empty lines of `text`, trimmed.
    static func lines(of text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
