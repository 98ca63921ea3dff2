// A locale that cannot show characters beyond ASCII (LANG=C) gets ASCII
// stand-ins of the same width, so the layout does not move and no byte the
// terminal would draw as garbage reaches it.

import TerminalUI
import Testing

@Suite("ASCII fallback")
struct ASCIIFallbackTests {
    @Test func arrowsDotsAndStarsBecomeLookAlikes() {
        #expect(ASCIIFallback.text("Oak Comics · comics") == "Oak Comics - comics")
        #expect(ASCIIFallback.text("←/p previous  →/n next  ↑/↓ select") == "</p previous  >/n next  ^/v select")
        #expect(ASCIIFallback.text("#419 The Silver Lichen  ★ favourite…") == "#419 The Silver Lichen  * favourite~")
    }

    @Test func everyOtherCharacterBecomesQuestionMarksAsWideAsItWas() {
        let text = "日本 🙂 ∑"
        let fallback = ASCIIFallback.text(text)
        #expect(fallback == "???? ?? ?")
        #expect(TextWidth.columns(of: fallback) == TextWidth.columns(of: text))
        #expect(fallback.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func combiningMarksTakeNoColumnAndDisappear() {
        #expect(ASCIIFallback.text("e\u{301}") == "e")
    }
}
