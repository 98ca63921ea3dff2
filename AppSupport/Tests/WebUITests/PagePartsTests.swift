// A page's content split at its parts: what changed between two versions
// is the parts whose markup differs, as long as the rest (the frame) and
// the parts' keys and order are the same; malformed parts make the page
// whole.

import Testing
import WebUI

@Suite("Page parts")
struct PagePartsTests {
    static func page(clock: String, speaker: String = "Ann", title: String = "Daily") -> String {
        let html: HTML = """
            <h2>\(title)</h2><p>\(HTML.part("clock", "\(clock)"))</p>\
            <p>\(speaker) · \(HTML.part("left", "\(clock)!"))</p>
            """
        return html.rendered
    }

    @Test func aPartIsAnElementTheTextOfWhichIsEscaped() {
        #expect(HTML.part("clock", "\("<1:05>")").rendered == "<oak-part data-key=\"clock\">&lt;1:05&gt;</oak-part>")
    }

    @Test func onlyThePartsWhoseMarkupChangedAreTold() throws {
        let before = try #require(PageParts(Self.page(clock: "0:01")))
        let content = Self.page(clock: "0:02")
        let after = try #require(PageParts(content))
        let changed = try #require(after.changedParts(since: before))
        #expect(
            changed.map { String(content[$0]) } == [
                "<oak-part data-key=\"clock\">0:02</oak-part>", "<oak-part data-key=\"left\">0:02!</oak-part>",
            ])
        #expect(after.changedParts(since: after) == [])
        #expect(!after.isEmpty)
    }

    @Test func aChangeOutsideThePartsNeedsTheWholePage() throws {
        let before = try #require(PageParts(Self.page(clock: "0:01")))
        #expect(try #require(PageParts(Self.page(clock: "0:01", speaker: "Bo"))).changedParts(since: before) == nil)
        #expect(try #require(PageParts(Self.page(clock: "0:02", title: "Weekly"))).changedParts(since: before) == nil)
        let fewer = try #require(PageParts(HTML("<p>\(HTML.part("clock", "0:01"))</p>").rendered))
        #expect(fewer.changedParts(since: before) == nil)
        let renamed = HTML(
            "<h2>Daily</h2><p>\(HTML.part("time", "0:01"))</p><p>Ann · \(HTML.part("left", "0:01!"))</p>")
        #expect(try #require(PageParts(renamed.rendered)).changedParts(since: before) == nil)
    }

    @Test func malformedPartsMakeThePageWhole() {
        let nested = HTML.part("outer", "a\(HTML.part("inner", "b"))")
        #expect(PageParts(nested.rendered) == nil)
        #expect(PageParts("<oak-part data-key=\"open\">never closed") == nil)
        let twice = HTML("\(HTML.part("same", "1"))\(HTML.part("same", "2"))")
        #expect(PageParts(twice.rendered) == nil)
        #expect(PageParts("<p>no parts</p>")?.isEmpty == true)
    }

    @Test func textFromUsersCannotOpenOrCloseAPart() throws {
        let hostile = "</oak-part><oak-part data-key=\"x\">"
        let content = HTML("<p>\(hostile)</p>\(HTML.part("note", "\(hostile)"))").rendered
        let parts = try #require(PageParts(content))
        let previous = try #require(PageParts(HTML("<p>\(hostile)</p>\(HTML.part("note", "old"))").rendered))
        #expect(try #require(parts.changedParts(since: previous)).count == 1)
    }

    @Test func partsAreFoundInTextOfAnyScriptAndAtTheEdges() throws {
        let before = try #require(PageParts(Self.page(clock: "0:01", speaker: "Zoë 🎤", title: "日次")))
        let content = Self.page(clock: "0:02", speaker: "Zoë 🎤", title: "日次")
        let after = try #require(PageParts(content))
        let changed = try #require(after.changedParts(since: before))
        #expect(changed.map { String(content[$0]) }.first == "<oak-part data-key=\"clock\">0:02</oak-part>")
        // A part that is the whole content; an opening cut short at the end.
        let whole = HTML.part("all", "ü").rendered
        #expect(try #require(PageParts(whole)).changedParts(since: try #require(PageParts(whole))) == [])
        #expect(PageParts("<p>ü</p><oak-part data-key=\"") == nil)
        #expect(PageParts("<p>ü</p><oak-part data-k")?.isEmpty == true)
    }
}
