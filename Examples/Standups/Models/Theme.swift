// The sixteen colour themes of Scrumdinger: a main colour for cards and
// progress, and the accent (black or white) that reads on it.

/// A stand-up's colours.
public enum Theme: String, CaseIterable, Equatable, Hashable, Codable, Sendable, Identifiable {
    case bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy, purple, seafoam,
        sky, tan, teal, yellow

    /// Its name, as stored.
    public var id: String { rawValue }

    /// "Bubblegum".
    public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The main colour.
    public var mainColor: RGB {
        switch self {
        case .bubblegum: RGB(0xF5, 0xA3, 0xD0)
        case .buttercup: RGB(0xFF, 0xE5, 0x8A)
        case .indigo: RGB(0x3D, 0x2C, 0x8D)
        case .lavender: RGB(0xCF, 0xB9, 0xF5)
        case .magenta: RGB(0xA6, 0x20, 0x7A)
        case .navy: RGB(0x1F, 0x2A, 0x5C)
        case .orange: RGB(0xF5, 0x9E, 0x42)
        case .oxblood: RGB(0x6B, 0x1E, 0x2C)
        case .periwinkle: RGB(0x8A, 0x9B, 0xF5)
        case .poppy: RGB(0xF2, 0x5C, 0x54)
        case .purple: RGB(0x8B, 0x3F, 0xD9)
        case .seafoam: RGB(0xBF, 0xE8, 0xD9)
        case .sky: RGB(0x6E, 0xC5, 0xF5)
        case .tan: RGB(0xC9, 0xA5, 0x7A)
        case .teal: RGB(0x2F, 0x8F, 0x9D)
        case .yellow: RGB(0xFF, 0xD2, 0x3F)
        }
    }

    /// The text colour that reads on ``mainColor``: white on the dark
    /// themes, black on the others (as Scrumdinger).
    public var accentColor: RGB {
        switch self {
        case .indigo, .magenta, .navy, .oxblood, .purple: RGB(0xFF, 0xFF, 0xFF)
        default: RGB(0x00, 0x00, 0x00)
        }
    }
}

/// A colour as 8-bit red, green and blue.
public struct RGB: Equatable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// A colour.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// "#F5A3D0", for a page's style.
    public var description: String {
        "#"
            + [red, green, blue].map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }
}
