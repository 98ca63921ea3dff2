// A minimal PNG encoder and the drawing of the fixture images. The encoder
// writes 8-bit RGB images with a zlib stream of stored (uncompressed) deflate
// blocks: simple, correct, and small enough for 64×48 pixels.

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
        file += chunk("IDAT", zlibStored(scanlines))
        file += chunk("IEND", [])
        return file
    }

    /// A chunk: length, type, data, and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
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

/// The drawing of a fixture comic: a pattern and two colours chosen by the number, and the number itself.
enum FixtureImage {
    /// Width of every fixture image.
    static let width = 64
    /// Height of every fixture image.
    static let height = 48

    /// The image of comic `number`.
    static func draw(_ number: Int) -> RGBImage {
        let n = abs(number)
        let background = (UInt8((n * 73 + 40) % 256), UInt8((n * 151 + 90) % 256), UInt8((n * 199 + 10) % 256))
        let foreground = (background.0 ^ 0xFF, background.1 ^ 0xC0, background.2 ^ 0x80)
        let size = 2 + (n / 4) % 6
        var image = RGBImage(width: width, height: height, fill: background)
        for y in 0..<height {
            for x in 0..<width {
                let on: Bool
                switch n % 4 {
                case 0: on = (y / size) % 2 == 0
                case 1: on = (x / size) % 2 == 0
                case 2: on = (x / size + y / size) % 2 == 0
                default: on = ((x + y) / size) % 2 == 0
                }
                if on { image.set(x: x, y: y, to: foreground) }
            }
        }
        drawNumber(n, on: &image)
        return image
    }

    /// 3×5 bitmaps of the digits, five rows of three bits, top row in the high bits.
    private static let digits: [[UInt8]] = [
        [0b111, 0b101, 0b101, 0b101, 0b111], [0b010, 0b110, 0b010, 0b010, 0b111],
        [0b111, 0b001, 0b111, 0b100, 0b111], [0b111, 0b001, 0b111, 0b001, 0b111],
        [0b101, 0b101, 0b111, 0b001, 0b001], [0b111, 0b100, 0b111, 0b001, 0b111],
        [0b111, 0b100, 0b111, 0b101, 0b111], [0b111, 0b001, 0b001, 0b001, 0b001],
        [0b111, 0b101, 0b111, 0b101, 0b111], [0b111, 0b101, 0b111, 0b001, 0b111],
    ]

    /// Writes the number in black on a white box in the top-left corner, each font pixel 2×2.
    private static func drawNumber(_ number: Int, on image: inout RGBImage) {
        let text = String(number).compactMap(\.wholeNumberValue)
        let scale = 2
        let boxWidth = text.count * 4 * scale + scale
        let boxHeight = 5 * scale + 2 * scale
        for y in 0..<boxHeight {
            for x in 0..<boxWidth {
                image.set(x: 2 + x, y: 2 + y, to: (255, 255, 255))
            }
        }
        for (position, digit) in text.enumerated() {
            for (row, bits) in digits[digit].enumerated() {
                for column in 0..<3 where bits >> (2 - column) & 1 == 1 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = 2 + scale + (position * 4 + column) * scale + dx
                            let y = 2 + scale + row * scale + dy
                            image.set(x: x, y: y, to: (0, 0, 0))
                        }
                    }
                }
            }
        }
    }
}
