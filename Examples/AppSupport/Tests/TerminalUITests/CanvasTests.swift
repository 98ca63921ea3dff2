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
