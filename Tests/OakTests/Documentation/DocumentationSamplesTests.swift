// Every Swift sample of the DocC articles in Sources/Oak/Oak.docc is the code
// of a test: each article has a file of its own here (`…ArticleTests.swift`;
// the hosting and composition articles' are beside the host and composition
// tests), whose namespace (`DocGettingStarted`, `DocEffects`, …) holds its
// types under the names the article uses and whose suite runs its snippets
// as written. This suite checks that no sample is missing from them.

import Foundation
import Testing

@Suite("Documentation: the articles' samples are these tests' code")
struct DocumentationSamplesTests {
    /// Samples that are not Swift code against Oak: a package manifest
    /// fragment and a parameter declaration. Identified by their first line.
    static let exempt: Set<String> = [
        ".target(",
        "isolation: isolated (any Actor)? = #isolation",
    ]

    @Test func everySwiftSampleOfTheCatalogIsTheCodeOfAnArticlesTests() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let tests = thisFile.deletingLastPathComponent().deletingLastPathComponent()
        let packageRoot = tests.deletingLastPathComponent().deletingLastPathComponent()
        let catalog = packageRoot.appendingPathComponent("Sources/Oak/Oak.docc")
        let articleTests = try FileManager.default.contentsOfDirectory(
            at: tests, includingPropertiesForKeys: nil, options: [.skipsSubdirectoryDescendants]
        )
        .flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        }
        .filter { $0.lastPathComponent.hasSuffix("ArticleTests.swift") }
        #expect(articleTests.count == 7, "\(articleTests.map(\.lastPathComponent))")
        let code = try DocumentationSamples.code(of: articleTests)
        let missing = try DocumentationSamples.missing(from: catalog, in: code, exempt: Self.exempt)
        #expect(missing.isEmpty, "Samples in no article's tests: \(missing)")
    }
}
