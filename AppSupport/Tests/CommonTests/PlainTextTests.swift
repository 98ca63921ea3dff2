// Text from the network or from storage made plain: what a terminal or a
// page would obey (escape sequences, controls, bidirectional overrides) is
// gone, field by field.

import Common
import Testing

@Suite("Plain text")
struct PlainTextTests {
    @Test func escapeSequencesAndControlsAreDroppedWhole() {
        #expect("\u{1B}]0;pwned\u{07}\u{1B}[31mRed".plainText == "Red")
        #expect("a\tb\nc\u{7F}d\u{9B}31me".plainText == "a b cde")
    }

    @Test func bidirectionalOverridesAreDropped() {
        // U+202E would show "evil.exe" reversed after it; the isolates
        // and embeddings too.
        #expect("invoice\u{202E}exe.pdf".plainText == "invoiceexe.pdf")
        for scalar in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let control = String(UnicodeScalar(UInt32(scalar))!)
            #expect("a\(control)b".plainText == "ab", "U+\(String(scalar, radix: 16, uppercase: true))")
        }
        // Letters of right-to-left scripts stay.
        #expect("שלום Ada".plainText == "שלום Ada")
    }

    @Test func eachFieldIsCleanedBeforeTheyAreJoined() {
        // An attendee's name ends inside an unterminated OSC sequence.
        let names = ["Ada\u{1B}]0;title", "Grace", "Linus"]
        #expect(names.plainJoined(separator: ", ") == "Ada, Grace, Linus")
        // Joined first, the sequence would have swallowed the others.
        #expect(names.joined(separator: ", ").plainText == "Ada")
    }
}
