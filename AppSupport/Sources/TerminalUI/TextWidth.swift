// How many columns a text takes on a terminal: East Asian wide characters
// and most emoji take two, combining marks none. A table of our own rather
// than `wcwidth`, whose answer depends on the process's locale.

/// Column widths of text on a terminal.
public enum TextWidth {
    /// The columns `text` takes.
    public static func columns(of text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// The columns one scalar takes: 0, 1 or 2.
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x20D0...0x20FF:
            0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x3FFFD:
            2
        default:
            1
        }
    }
}
