// A minimal PNG encoder and the drawing of the fixture images: comics of
// three panels, a few hundred pixels wide, drawn by code from the comic's
// number (stick figures, a speech bubble, the ground, a sun or a leaf). The
// encoder writes 8-bit RGB images whose pixels are compressed with zlib
// (compress-nio): line art on white takes a few kilobytes.

import CompressNIO
import NIOCore

/// An 8-bit RGB image in memory, row by row, three bytes a pixel.
struct RGBImage: Equatable, Sendable {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// `width * height * 3` bytes: red, green, blue, left to right, top to bottom.
    private(set) var pixels: [UInt8]

    /// An image filled with one colour.
    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        var pixels = [UInt8]()
        pixels.reserveCapacity(self.width * self.height * 3)
        for _ in 0..<(self.width * self.height) {
            pixels.append(fill.0)
            pixels.append(fill.1)
            pixels.append(fill.2)
        }
        self.pixels = pixels
    }

    /// Sets one pixel; coordinates outside the image are ignored.
    mutating func set(x: Int, y: Int, to colour: (UInt8, UInt8, UInt8)) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return }
        let offset = (y * width + x) * 3
        pixels[offset] = colour.0
        pixels[offset + 1] = colour.1
        pixels[offset + 2] = colour.2
    }

    /// The colour of one pixel (black outside the image).
    func colour(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return (0, 0, 0) }
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// Fills the rectangle from (`x`, `y`), `width` × `height`.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, with colour: (UInt8, UInt8, UInt8)) {
        for row in y..<(y + max(height, 0)) {
            for column in x..<(x + max(width, 0)) { set(x: column, y: row, to: colour) }
        }
    }

    /// A dot of `thickness` pixels centred on (`x`, `y`).
    mutating func dot(x: Int, y: Int, thickness: Int, colour: (UInt8, UInt8, UInt8)) {
        let half = thickness / 2
        fill(x: x - half, y: y - half, width: thickness, height: thickness, with: colour)
    }

    /// A straight line (Bresenham's), `thickness` pixels wide.
    mutating func line(
        from start: (Int, Int), to end: (Int, Int), thickness: Int = 3, colour: (UInt8, UInt8, UInt8) = (0, 0, 0)
    ) {
        var (x, y) = start
        let dx = abs(end.0 - x)
        let dy = -abs(end.1 - y)
        let stepX = x < end.0 ? 1 : -1
        let stepY = y < end.1 ? 1 : -1
        var error = dx + dy
        while true {
            dot(x: x, y: y, thickness: thickness, colour: colour)
            if x == end.0 && y == end.1 { break }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
    }

    /// An ellipse's outline centred on (`x`, `y`), or the ellipse filled.
    mutating func ellipse(
        x centreX: Int, y centreY: Int, radiusX: Int, radiusY: Int, thickness: Int = 3,
        colour: (UInt8, UInt8, UInt8) = (0, 0, 0), filled: Bool = false
    ) {
        let steps = max(radiusX, radiusY) * 8
        var previous: (Int, Int)?
        for step in 0...steps {
            let angle = Double(step) / Double(steps) * 2 * Double.pi
            let point = (
                centreX + Int((Double(radiusX) * cosine(angle)).rounded()),
                centreY + Int((Double(radiusY) * sine(angle)).rounded())
            )
            if filled {
                line(from: (centreX, centreY), to: point, thickness: 2, colour: colour)
            } else if let previous {
                line(from: previous, to: point, thickness: thickness, colour: colour)
            }
            previous = point
        }
    }
}

/// The sine of `angle` (radians), by its Taylor series around the nearest
/// multiple of π: enough for drawing, without Foundation.
func sine(_ angle: Double) -> Double {
    let turns = (angle / Double.pi).rounded()
    let x = angle - turns * Double.pi
    let x2 = x * x
    let value = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
    return Int(turns) % 2 == 0 ? value : -value
}

/// The cosine of `angle` (radians).
func cosine(_ angle: Double) -> Double {
    sine(angle + Double.pi / 2)
}

/// PNG encoding: signature, IHDR, one IDAT (zlib, stored deflate blocks), IEND.
enum PNG {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG file of an image: 8-bit truecolour, no interlace, filter type 0 on every row.
    static func encode(_ image: RGBImage) -> [UInt8] {
        var header = [UInt8]()
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        // Bit depth 8, colour type 2 (RGB), compression 0, filter 0, no interlace.
        header += [8, 2, 0, 0, 0]

        var scanlines = [UInt8]()
        let rowLength = image.width * 3
        scanlines.reserveCapacity(image.height * (rowLength + 1))
        for row in 0..<image.height {
            scanlines.append(0)  // Filter type None.
            scanlines += image.pixels[(row * rowLength)..<((row + 1) * rowLength)]
        }

        var file = signature
        file += chunk("IHDR", header)
        file += chunk("IDAT", zlib(scanlines))
        file += chunk("IEND", [])
        return file
    }

    /// A chunk: length, type, data, and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream (RFC 1950) of `data`, compressed; stored uncompressed
    /// should zlib fail.
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var buffer = ByteBuffer(bytes: data)
        guard let compressed = try? buffer.compress(with: .zlib()) else { return zlibStored(data) }
        return Array(compressed.readableBytesView)
    }

    /// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, BTYPE 00).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78: deflate with a 32 KB window; FLG 0x01: no dictionary, fastest level, check bits.
        var stream: [UInt8] = [0x78, 0x01]
        let maximumBlock = 65_535
        var start = 0
        repeat {
            let end = min(start + maximumBlock, data.count)
            let length = UInt16(end - start)
            stream.append(end == data.count ? 1 : 0)  // BFINAL, and BTYPE 00 (stored).
            stream += [UInt8(length & 0xFF), UInt8(length >> 8)]
            stream += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        stream += bigEndian(adler32(data))
        return stream
    }

    /// The Adler-32 checksum (RFC 1950).
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// The CRC-32 of ISO 3309 and PNG (polynomial 0xEDB88320, reflected).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The drawing of a fixture comic: three framed panels with stick figures in
/// poses chosen by the number, a speech bubble, the ground, a sun or a leaf
/// in the comic's own colour, and the number in the corner.
enum FixtureImage {
    /// Width of every fixture image.
    static let width = 600
    /// Height of every fixture image.
    static let height = 200

    private static let ink: (UInt8, UInt8, UInt8) = (24, 24, 24)
    private static let paper: (UInt8, UInt8, UInt8) = (255, 255, 255)

    /// The image of comic `number`.
    static func draw(_ number: Int) -> RGBImage {
        let n = abs(number)
        let accent = (UInt8((n * 73 + 40) % 200), UInt8((n * 151 + 90) % 200), UInt8((n * 199 + 10) % 200))
        var image = RGBImage(width: width, height: height, fill: paper)
        let panelWidth = (width - 4 * 8) / 3
        for panel in 0..<3 {
            let left = 8 + panel * (panelWidth + 8)
            drawPanel(panel, of: n, accent: accent, left: left, width: panelWidth, on: &image)
        }
        drawNumber(n, on: &image)
        return image
    }

    /// One panel: its frame, the ground, a figure (two in the middle panel
    /// of an even number), and the panel's own detail.
    private static func drawPanel(
        _ panel: Int, of n: Int, accent: (UInt8, UInt8, UInt8), left: Int, width: Int, on image: inout RGBImage
    ) {
        let top = 8
        let bottom = height - 8
        // The frame.
        image.line(from: (left, top), to: (left + width, top), thickness: 3, colour: ink)
        image.line(from: (left + width, top), to: (left + width, bottom), thickness: 3, colour: ink)
        image.line(from: (left + width, bottom), to: (left, bottom), thickness: 3, colour: ink)
        image.line(from: (left, bottom), to: (left, top), thickness: 3, colour: ink)
        // The ground.
        let ground = bottom - 22
        image.line(from: (left + 4, ground), to: (left + width - 4, ground), thickness: 2, colour: ink)

        let seed = n * 7 + panel * 13
        let figureX = left + width / 3 + (seed % 5) * 6
        drawFigure(x: figureX, feet: ground, pose: seed, on: &image)
        if panel == 1, n % 2 == 0 {
            drawFigure(x: left + width * 3 / 4, feet: ground, pose: seed + 3, on: &image)
        }
        switch panel {
        case 0:
            // A speech bubble over the figure, with three lines of "text".
            let bubbleX = figureX + 34
            image.ellipse(x: bubbleX, y: top + 34, radiusX: 46, radiusY: 22, thickness: 2, colour: ink)
            image.line(from: (bubbleX - 22, top + 52), to: (figureX + 6, ground - 82), thickness: 2, colour: ink)
            for line in 0..<3 {
                let length = 50 - line * 10 - (seed + line) % 12
                image.line(
                    from: (bubbleX - 28, top + 24 + line * 9), to: (bubbleX - 28 + length, top + 24 + line * 9),
                    thickness: 2, colour: (110, 110, 110))
            }
        case 1:
            // A sun in the comic's colour.
            image.ellipse(x: left + width - 30, y: top + 28, radiusX: 14, radiusY: 14, colour: accent, filled: true)
        default:
            // A leaf on a stem, in the comic's colour.
            let stemX = left + width - 40
            image.line(from: (stemX, ground), to: (stemX - 6, ground - 60), thickness: 3, colour: ink)
            image.ellipse(x: stemX - 6, y: ground - 78, radiusX: 12, radiusY: 20, colour: accent, filled: true)
        }
    }

    /// A stick figure standing on `feet` at `x`, its arms and legs as `pose`
    /// says.
    private static func drawFigure(x: Int, feet: Int, pose: Int, on image: inout RGBImage) {
        let hip = (x, feet - 40)
        let neck = (x, feet - 80)
        image.ellipse(x: x, y: feet - 92, radiusX: 12, radiusY: 12, thickness: 3, colour: ink)
        image.line(from: neck, to: hip, colour: ink)
        // Legs: apart, or one step forward.
        let stride = 10 + pose % 4 * 3
        image.line(from: hip, to: (x - stride, feet), colour: ink)
        image.line(from: hip, to: (x + stride, feet), colour: ink)
        // Arms: down, up, or one raised.
        let shoulder = (x, feet - 70)
        switch pose % 3 {
        case 0:
            image.line(from: shoulder, to: (x - 18, feet - 48), colour: ink)
            image.line(from: shoulder, to: (x + 18, feet - 48), colour: ink)
        case 1:
            image.line(from: shoulder, to: (x - 20, feet - 96), colour: ink)
            image.line(from: shoulder, to: (x + 20, feet - 96), colour: ink)
        default:
            image.line(from: shoulder, to: (x - 18, feet - 48), colour: ink)
            image.line(from: shoulder, to: (x + 22, feet - 92), colour: ink)
        }
    }

    /// 3×5 bitmaps of the digits, five rows of three bits, top row in the high bits.
    private static let digits: [[UInt8]] = [
        [0b111, 0b101, 0b101, 0b101, 0b111], [0b010, 0b110, 0b010, 0b010, 0b111],
        [0b111, 0b001, 0b111, 0b100, 0b111], [0b111, 0b001, 0b111, 0b001, 0b111],
        [0b101, 0b101, 0b111, 0b001, 0b001], [0b111, 0b100, 0b111, 0b001, 0b111],
        [0b111, 0b100, 0b111, 0b101, 0b111], [0b111, 0b001, 0b001, 0b001, 0b001],
        [0b111, 0b101, 0b111, 0b101, 0b111], [0b111, 0b101, 0b111, 0b001, 0b111],
    ]

    /// Writes the number in black on a white box in the top-left corner, each font pixel 3×3.
    private static func drawNumber(_ number: Int, on image: inout RGBImage) {
        let text = String(number).compactMap(\.wholeNumberValue)
        let scale = 3
        let boxWidth = text.count * 4 * scale + scale
        let boxHeight = 5 * scale + 2 * scale
        image.fill(x: 12, y: 12, width: boxWidth, height: boxHeight, with: (255, 255, 255))
        for (position, digit) in text.enumerated() {
            for (row, bits) in digits[digit].enumerated() {
                for column in 0..<3 where bits >> (2 - column) & 1 == 1 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = 12 + scale + (position * 4 + column) * scale + dx
                            let y = 12 + scale + row * scale + dy
                            image.set(x: x, y: y, to: (0, 0, 0))
                        }
                    }
                }
            }
        }
    }
}
