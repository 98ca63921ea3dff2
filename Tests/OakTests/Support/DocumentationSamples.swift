// Checks that every Swift sample of a DocC catalog is code of the tests,
// line for line (indentation and blank lines aside). Shared by OakTests and
// OakTestingTests (a symbolic link there).

import Foundation

enum DocumentationSamples {
    /// The samples of the catalog at `catalog` that do not appear in
    /// `code`, as "article: first line"; samples whose first line is in
    /// `exempt` are not checked. A catalog without articles is reported too.
    static func missing(from catalog: URL, in code: [String], exempt: Set<String>) throws -> [String] {
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
            .filter { $0.hasSuffix(".md") }
            .sorted()
        guard !articles.isEmpty else { return ["no article in \(catalog.path)"] }
        var missing: [String] = []
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for sample in swiftSamples(in: text) {
                let lines = significantLines(of: sample)
                guard let first = lines.first, !exempt.contains(first) else { continue }
                let found = (0...max(0, code.count - lines.count)).contains { start in
                    Array(code[start..<min(code.count, start + lines.count)]) == lines
                }
                if !found { missing.append("\(article): \(first) …") }
            }
        }
        return missing
    }

    /// The significant lines of the Swift files at `files`.
    static func code(of files: [URL]) throws -> [String] {
        try files.flatMap { significantLines(of: try String(contentsOf: $0, encoding: .utf8)) }
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

    /// The lines of `text` without indentation, blank lines left out.
    static func significantLines(of text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
