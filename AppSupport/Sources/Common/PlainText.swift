// Text that came from the network, made safe to show: every renderer (the
// terminal, a web page) draws only what this leaves.

extension String {
    /// The text with every control character and escape sequence removed
    /// (ANSI CSI and OSC sequences whole, other C0/C1 controls and DEL
    /// dropped), tabs and line breaks turned into spaces, and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069) dropped: a name cannot show the text after it
    /// reversed ("Trojan Source").
    ///
    /// A title such as `"\u{1B}]0;pwned\u{07}\u{1B}[31mRed"` becomes
    /// `"Red"`: it cannot move a terminal's cursor, change its colours or
    /// set its window title.
    public var plainText: String {
        var result = String.UnicodeScalarView()
        var scalars = unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: skip the whole sequence
                skipEscapeSequence(&scalars)
            case 0x9B:  // CSI (C1)
                skipUntilFinalByte(&scalars)
            case 0x9D:  // OSC (C1)
                skipUntilStringTerminator(&scalars)
            case 0x09, 0x0A, 0x0D:
                result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}

private func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
    guard let next = scalars.next() else { return }
    switch next {
    case "[": skipUntilFinalByte(&scalars)
    case "]", "P", "X", "^", "_": skipUntilStringTerminator(&scalars)
    default: break  // a two-character sequence such as ESC c: both dropped
    }
}

/// Skips a CSI sequence's parameters up to and including its final byte
/// (0x40–0x7E).
private func skipUntilFinalByte(_ scalars: inout String.UnicodeScalarView.Iterator) {
    while let scalar = scalars.next() {
        if (0x40...0x7E).contains(scalar.value) { return }
    }
}

/// Skips an OSC/DCS string up to BEL or ESC \ (or the end).
private func skipUntilStringTerminator(_ scalars: inout String.UnicodeScalarView.Iterator) {
    while let scalar = scalars.next() {
        if scalar.value == 0x07 || scalar.value == 0x9C { return }
        if scalar.value == 0x1B {
            _ = scalars.next()
            return
        }
    }
}

extension Sequence<String> {
    /// The texts, each made plain (``Swift/String/plainText``) on its own,
    /// joined by `separator`: one text's unterminated escape sequence
    /// cannot swallow the texts after it, as it would if they were joined
    /// first (names from storage, joined into a line).
    public func plainJoined(separator: String) -> String {
        map(\.plainText).joined(separator: separator)
    }
}
