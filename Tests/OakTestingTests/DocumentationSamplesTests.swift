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
        let files = try FileManager.default.subpathsOfDirectory(atPath: tests.path)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { tests.appendingPathComponent($0) }
        let code = try DocumentationSamples.code(of: files)
        let missing = try DocumentationSamples.missing(from: catalog, in: code, exempt: Self.exempt)
        #expect(missing.isEmpty, "Samples not in the tests: \(missing)")
    }
}
