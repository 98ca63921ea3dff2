// Issue 38's round trip, as a person makes it: Comics in a real terminal
// (tmux) started with --inspect, oak-inspector's page in headless Chromium.
// The page lists the runs as a tree, shows the chosen run's state on the
// diagram its tests explored and its steps, and stepping back shows the
// earlier state.

import Foundation
import InspectorServer
import Logging
import TerminalTesting
import Testing
import WebTesting

@Suite(
    "Comics, inspected", .timeLimit(.minutes(2)), .needsChromium,
    .enabled(if: TmuxSession.isAvailable, "tmux is not on PATH: the terminal tests need it"))
struct InspectorTests {
    /// The text of the page's element `id`, in JavaScript.
    static func text(_ id: String) -> String { "document.getElementById('\(id)').textContent" }

    @Test func thePageShowsTheRunsTheStateAndAnEarlierStep() async throws {
        let server = try await InspectorServer.start(logger: Logger(label: "test.inspector"))
        let comics = try ComicsProgram.url()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let command = try TerminalTests.script(
            running: comics, "--data-dir", scratch.path("data").path, "--inspect", server.endpoint, scratch: scratch)
        let browser = try await WebDriver.start(width: 1280, height: 900)
        try await withCleanup {
            try await TmuxSession.with(
                running: command, width: TerminalTests.width, height: TerminalTests.height, scratch: scratch.url
            ) { tmux in
                try await tmux.waitFor("Oak Comics · comics", "#420 The Careful Lichen")
                try await tmux.send(keys: "Left")
                try await tmux.waitFor("#419 The Silver Lichen")

                try await browser.open(server.pageURL)
                // The root, and the comics' run under it.
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#runs li li .type')].some(e => e.textContent === 'Comics')")
                #expect(try await browser.text("#runs .app").hasPrefix("comics · pid "))
                #expect(try await browser.text("#runs > ul > li > button .type") == "Main")
                try await browser.click("#runs li li button")
                try await browser.waitUntil(
                    "document.querySelector('#runs button.chosen .type')?.textContent === 'Comics'")
                // Its state now, live: the comic shown in the terminal.
                try await browser.waitUntil(
                    "\(Self.text("state")).includes('number: 419') && \(Self.text("where")).includes('(live)')")
                // The diagram its tests explored (the program gives it):
                // every state, those the run has not been in faint; the
                // one now highlighted. In red, what the run took that the
                // tests never found: the image's answer (the exploration's
                // mock comics have no image, a gap this view showed).
                let nodes = try await browser.run(
                    "return [...document.querySelectorAll('#diagram .node text')].map(e => e.textContent).sort()")
                #expect(nodes as? [String] == ["idle", "loading", "not found", "showing"])
                let unseen = try await browser.run(
                    "return [...document.querySelectorAll('#diagram .node.unseen text')].map(e => e.textContent)")
                #expect(unseen as? [String] == ["not found"])
                #expect(
                    try await browser.run("return document.querySelectorAll('#diagram .node.unexplored').length")
                        as? Int == 0)
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#diagram tspan.unexplored')].some(e => e.textContent.includes('didLoadImage'))"
                )
                let unexplored = try await browser.run(
                    "return [...document.querySelectorAll('#diagram tspan.unexplored')].map(e => e.textContent.trim())")
                #expect(
                    (unexplored as? [String])?.allSatisfy { $0.hasPrefix("didLoadImage") } == true,
                    "\(String(describing: unexplored))")
                #expect(
                    try await browser.run("return document.querySelectorAll('#diagram .edge.unseen').length > 0")
                        as? Bool == true)
                let current = try await browser.run(
                    "return document.querySelector('#diagram .node.current text')?.textContent")
                #expect(current as? String == "showing")
                let steps = try await browser.run("return document.querySelectorAll('#steps li').length") as? Int
                #expect((steps ?? 0) >= 4, "steps: \(String(describing: steps))")
                // Between runs: the parent's lane and the run's, its outputs.
                let lanes = try await browser.run(
                    "return [...document.querySelectorAll('#sequence th')].map(e => e.textContent.split(' · ')[0])")
                #expect(lanes as? [String] == ["Main", "Comics"])
                #expect(
                    try await browser.run("return document.querySelectorAll('#sequence td.output').length > 0")
                        as? Bool == true)
                try WebDriver.saveArtifact(try await browser.screenshot(), as: "inspector.png")

                // Back, a step at a time, to when #420 was shown.
                var earlier = false
                for _ in 0..<12 where !earlier {
                    try await browser.click("#back")
                    earlier =
                        try await browser.run("return \(Self.text("state")).includes('number: 420')") as? Bool
                        ?? false
                }
                #expect(earlier, "stepping back never showed #420")
                #expect(!(try await browser.text("#where")).contains("live"))
                #expect(
                    try await browser.run("return document.querySelector('#steps li.current') !== null") as? Bool
                        == true)
                // Comics' events are not Codable (their answers must not be
                // made elsewhere): instead of export links, the page says
                // what export needs.
                #expect(try await browser.text("#export-hint") == "to export, make Comics.Event Codable")

                try await tmux.send(keys: "q")
                try await tmux.waitFor("EXITED 0")
            }
        } cleanup: {
            await browser.quit()
            await server.stop()
        }
    }
}
