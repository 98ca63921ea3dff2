// Drawing without a terminal: wrapping, cutting to the width, wide
// characters, and text from the network made harmless.

import TerminalUI
import Testing

@Suite("Canvas")
struct CanvasTests {
    @Test func escapeSequencesNeverReachTheScreen() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{1B}[2J\u{1B}[H Alert\u{9B}5A\r\nnext"
        let span = Span(hostile)
        #expect(span.text == "Red Alert  next")
        #expect(!span.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        // Text set afterwards is made plain too, and so is a line's.
        var changed = span
        changed.text = hostile
        #expect(changed == span)
        var line = Line("safe")
        line.spans.append(Span(hostile))
        line.spans[0].text += "\u{1B}[2J"
        #expect(line.text == "safe" + "Red Alert  next")
    }

    @Test func linesAreWrappedAtWordsAndCutToTheWidth() {
        #expect(Canvas.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(Canvas.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(Canvas.truncate("abcdefgh", width: 5) == "abcd…")
        var canvas = Canvas(width: 8, height: 3)
        canvas.add("a very long line")
        canvas.status = Line("keys", .reverse)
        #expect(canvas.plainText == "a very …\n\nkeys")
    }

    /// A title, then `count` numbered lines, on 20 × 8 with a status bar.
    static func tall(_ count: Int, scroll: Int = 0) -> Canvas {
        var canvas = Canvas(width: 30, height: 8)
        canvas.add(" Title", .reverse)
        for number in 1...count { canvas.add("line \(number)") }
        canvas.status = Line("keys", .reverse)
        canvas.scroll = scroll
        return canvas
    }

    @Test func aCanvasThatFitsIsDrawnWholeAndDoesNotScroll() {
        let canvas = Self.tall(6)
        #expect(canvas.maxScroll == 0)
        #expect(canvas.scroll(after: .pageDown) == nil)
        #expect(canvas.rows.map(\.text).dropLast().last?.hasPrefix("line 6") == true)
    }

    @Test func aTallCanvasShowsEveryCutAndScrolls() {
        // 7 rows above the status bar: the title, and 6 for 20 lines.
        let top = Self.tall(20)
        #expect(
            top.plainText.components(separatedBy: "\n") == [
                " Title", "line 1", "line 2", "line 3", "line 4", "line 5", "  ↓ 15 more below · PgDn ↓", "keys",
            ])
        let down = top.scroll(after: .down)
        #expect(down == 1)
        let middle = Self.tall(20, scroll: 1)
        #expect(
            middle.plainText.components(separatedBy: "\n") == [
                " Title", "  ↑ 1 more above · PgUp ↑", "line 2", "line 3", "line 4", "line 5",
                "  ↓ 15 more below · PgDn ↓", "keys",
            ])
        // The end: the last line shows, with a mark above only.
        let last = top.scroll(after: .end)
        #expect(last == top.maxScroll)
        let end = Self.tall(20, scroll: top.maxScroll)
        let rows = end.plainText.components(separatedBy: "\n")
        #expect(rows[1].hasPrefix("  ↑") && rows[6] == "line 20", "\(rows)")
        // Page by page, and back to the top; never past either end.
        #expect(top.scroll(after: .pageDown) == 4)
        #expect(end.scroll(after: .pageDown) == top.maxScroll)
        #expect(end.scroll(after: .home) == 0)
        #expect(top.scroll(after: .up) == 0)
        #expect(top.scroll(after: .character("x")) == nil)
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(TextWidth.columns(of: "日本") == 4)
        #expect(TextWidth.columns(of: "Café") == 4)
        #expect(TextWidth.columns(of: "🌳") == 2)
        #expect(Canvas.truncate("日本語です", width: 5) == "日本…")
    }

    @Test func aCharacterWiderThanTheLineStillMovesTheWrapOn() {
        #expect(Canvas.wrap("日本", width: 1) == ["日", "本"])
        // Combining marks take no column.
        #expect(TextWidth.columns(of: "a" + String(repeating: "\u{05B0}", count: 100)) == 1)
        #expect(Canvas.wrap("a" + String(repeating: "\u{05B0}", count: 100), width: 80).count == 1)
        #expect(TextWidth.columns(of: "🚀") == 2)
    }

    @Test func aLongAltTextIsCutToTheLinesItMayTake() {
        var canvas = Canvas(width: 20, height: 10)
        canvas.addWrapped(String(repeating: "word ", count: 100), maxLines: 3)
        #expect(canvas.lines.count == 3)
        #expect(canvas.lines[2].text.hasSuffix("…"))
    }
}
