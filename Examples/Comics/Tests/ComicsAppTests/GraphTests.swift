// `comics graph`: the Comics feature's state diagram, in Mermaid and in
// Graphviz DOT; rendered by the real tools when OAK_DIAGRAM_TOOLS=1 (CI
// sets it and puts `mermaidx` and `dot` on PATH).

import Foundation
import TerminalTesting
import Testing

struct GraphTests {
    static var renders: Bool { ProcessInfo.processInfo.environment["OAK_DIAGRAM_TOOLS"] == "1" }

    @Test func graphPrintsMermaid() async throws {
        let graph = try await Self.graph()
        #expect(graph.exited(with: 0), "\(graph)")
        #expect(graph.output.hasPrefix("stateDiagram-v2\n"), "\(graph)")
        #expect(graph.output.contains("[*] --> "), "no initial state:\n\(graph.output)")
    }

    /// The repository's README shows the diagram `comics graph` prints.
    @Test func theReadmeShowsThePrintedDiagram() async throws {
        let graph = try await Self.graph()
        try #require(graph.exited(with: 0), "\(graph)")
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(
            text.contains("```mermaid\n" + graph.output + "```"),
            "README.md's Comics diagram is out of date: paste the output of `comics graph` there")
    }

    @Test func graphPrintsDOT() async throws {
        let graph = try await Self.graph("--dot")
        #expect(graph.exited(with: 0), "\(graph)")
        #expect(graph.output.hasPrefix("digraph "), "\(graph)")
    }

    @Test(.enabled(if: renders, "set OAK_DIAGRAM_TOOLS=1 (with mermaidx and dot on PATH) to render the diagrams"))
    func diagramsRender() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }

        let mermaid = try await Self.graph()
        try #require(mermaid.exited(with: 0), "\(mermaid)")
        let mermaidFile = scratch.path("comics.mmd")
        try mermaid.output.write(to: mermaidFile, atomically: true, encoding: .utf8)
        let mermaidSVG = scratch.path("comics.svg")
        let mermaidx = try #require(Subprocess.find("mermaidx"), "mermaidx is not on PATH")
        let renderedMermaid = try await Subprocess.run(
            mermaidx, ["-q", "-i", mermaidFile.path, "-o", mermaidSVG.path], scratch: scratch.url,
            timeout: .seconds(60))
        #expect(renderedMermaid.exited(with: 0), "mermaidx rejected the diagram: \(renderedMermaid)")
        #expect(Self.isSVG(mermaidSVG), "mermaidx wrote no SVG")

        let dot = try await Self.graph("--dot")
        try #require(dot.exited(with: 0), "\(dot)")
        let dotFile = scratch.path("comics.dot")
        try dot.output.write(to: dotFile, atomically: true, encoding: .utf8)
        let dotSVG = scratch.path("comics-dot.svg")
        let graphviz = try #require(Subprocess.find("dot"), "Graphviz's dot is not on PATH")
        let renderedDOT = try await Subprocess.run(
            graphviz, ["-Tsvg", dotFile.path, "-o", dotSVG.path], scratch: scratch.url, timeout: .seconds(60))
        #expect(renderedDOT.exited(with: 0), "dot rejected the diagram: \(renderedDOT)")
        #expect(Self.isSVG(dotSVG), "dot wrote no SVG")
    }

    static func graph(_ arguments: String...) async throws -> Finished {
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        return try await Subprocess.run(comics, ["graph"] + arguments, scratch: scratch.url)
    }

    static func isSVG(_ file: URL) -> Bool {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("<svg")
    }
}
