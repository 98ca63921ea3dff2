// Colours a view asks for by their RGB value, drawn with the nearest colour
// the terminal has: one of xterm's 256 where it has them, else one of the
// 8 basic ones.

/// A colour, as red, green and blue.
public struct TerminalColor: Equatable, Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// A colour.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black.
    public static let black = TerminalColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = TerminalColor(red: 255, green: 255, blue: 255)

    /// The colours a terminal offers.
    enum Palette {
        /// xterm's 256 colours: 16 system colours, a 6 × 6 × 6 cube and 24
        /// greys (only the cube and the greys are used: their values are
        /// fixed, the system colours' are the user's).
        case xterm256
        /// The 8 basic colours.
        case basic8
    }

    /// The index of the nearest colour of `palette`.
    func index(in palette: Palette) -> Int16 {
        switch palette {
        case .xterm256: xterm256Index
        case .basic8: basicIndex
        }
    }

    /// The nearest of the cube's colours or of the greys.
    var xterm256Index: Int16 {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) } ?? 0
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grey = min(max((average - 8 + 5) / 10, 0), 23)
        let greyValue = 8 + 10 * grey
        if distance(to: (greyValue, greyValue, greyValue)) < distance(to: cube) {
            return Int16(232 + grey)
        }
        return Int16(16 + 36 * r + 6 * g + b)
    }

    /// The basic colour of the same hue: black or white for a grey, else
    /// the colour of the channels in the upper half of its range (a pink
    /// is magenta, not the white it is nearest to). ncurses's `COLOR_*`
    /// numbering: bit 0 red, 1 green, 2 blue.
    var basicIndex: Int16 {
        let channels = [Int(red), Int(green), Int(blue)]
        let (low, high) = (channels.min() ?? 0, channels.max() ?? 0)
        guard high - low >= 48 else { return (low + high) / 2 >= 128 ? 7 : 0 }
        let middle = (low + high) / 2
        var index: Int16 = 0
        for (bit, value) in channels.enumerated() where value >= middle { index |= 1 << bit }
        return index
    }

    private func distance(to other: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (Int(red) - other.0, Int(green) - other.1, Int(blue) - other.2)
        return dr * dr + dg * dg + db * db
    }
}

/// A foreground and a background, as the terminal's colour numbers.
struct ColorPairKey: Hashable {
    var foreground: Int16
    var background: Int16
}
