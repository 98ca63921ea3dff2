import API
import FixtureServer
import Testing

@Suite struct FixtureCatalogTests {
    let base = "http://fixture.test"

    @Test func latestIs420() throws {
        #expect(FixtureCatalog.latestNumber == 420)
        let latest = try #require(FixtureCatalog.comic(420, imageBase: base))
        #expect(latest.num == 420)
    }

    @Test(arguments: [404, 0, -1, 421, Int.min, Int.max])
    func missingNumbersHaveNoComicAndNoImage(number: Int) {
        #expect(FixtureCatalog.comic(number, imageBase: base) == nil)
        #expect(FixtureCatalog.png(for: number) == nil)
        #expect(!FixtureCatalog.exists(number))
    }

    @Test func everyOtherNumberFrom1To420HasAComicWithItsNumberAndImage() throws {
        for number in 1...420 where number != 404 {
            let comic = try #require(FixtureCatalog.comic(number, imageBase: base))
            #expect(comic.num == number)
            #expect(comic.img == "\(base)/comics/\(number).png")
            #expect(comic.safe_title == comic.title)
            #expect(!comic.title.isEmpty && !comic.alt.isEmpty)
        }
    }

    @Test func aTrailingSlashInTheImageBaseIsIgnored() throws {
        let comic = try #require(FixtureCatalog.comic(5, imageBase: base + "/"))
        #expect(comic.img == "\(base)/comics/5.png")
    }

    @Test func theCatalogIsDeterministic() {
        for number in [1, 7, 13, 42, 100, 420] {
            #expect(FixtureCatalog.comic(number, imageBase: base) == FixtureCatalog.comic(number, imageBase: base))
            #expect(FixtureCatalog.png(for: number) == FixtureCatalog.png(for: number))
        }
        #expect(FixtureCatalog.comic(17, imageBase: base)?.title == "The Lonely Acorn")
        #expect(FixtureCatalog.comic(1, imageBase: base)?.title == "The Patient Acorn")
    }

    @Test func titlesAreDistinct() {
        let titles = (1...420).compactMap { FixtureCatalog.comic($0, imageBase: base)?.title }
        #expect(titles.count == 419)
        #expect(Set(titles).count == titles.count)
    }

    @Test func datesAreValidAndInPublicationOrder() throws {
        let first = try #require(FixtureCatalog.comic(1, imageBase: base))
        #expect([first.year, first.month, first.day] == ["2010", "1", "4"])
        let second = try #require(FixtureCatalog.comic(2, imageBase: base))
        #expect([second.year, second.month, second.day] == ["2010", "1", "6"])
        var previous = (0, 0, 0)
        for number in 1...420 {
            guard let comic = FixtureCatalog.comic(number, imageBase: base) else { continue }
            let date = (Int(comic.year) ?? 0, Int(comic.month) ?? 0, Int(comic.day) ?? 0)
            #expect((1...12).contains(date.1))
            #expect((1...31).contains(date.2))
            #expect(date > previous, "comic \(number)")
            previous = date
        }
    }

    @Test func comic7HasNonASCIIText() throws {
        let comic = try #require(FixtureCatalog.comic(FixtureCatalog.Special.nonASCII, imageBase: base))
        #expect(FixtureCatalog.Special.nonASCII == 7)
        #expect(comic.title.unicodeScalars.contains { !$0.isASCII })
        #expect(comic.alt.contains("é") && comic.alt.contains("日本語") && comic.alt.contains("🐿️"))
    }

    @Test func comic13HasTerminalEscapeSequences() throws {
        let comic = try #require(FixtureCatalog.comic(FixtureCatalog.Special.escapeSequences, imageBase: base))
        #expect(FixtureCatalog.Special.escapeSequences == 13)
        #expect(comic.title == "\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{1B}[2J\u{1B}[H Alert")
        #expect(comic.alt.unicodeScalars.contains("\u{1B}"))
        #expect(comic.alt.unicodeScalars.contains("\u{9B}"))
    }

    @Test func comic42HasAHugeAltText() throws {
        let comic = try #require(FixtureCatalog.comic(FixtureCatalog.Special.hugeAltText, imageBase: base))
        #expect(FixtureCatalog.Special.hugeAltText == 42)
        #expect(comic.alt.utf8.count == 64 * 1024)
        #expect(FixtureCatalog.hugeAltTextLength == 64 * 1024)
    }

    @Test func comics66And67HaveMarkupInTheirTitles() {
        #expect(FixtureCatalog.comic(66, imageBase: base)?.title == #"<script>alert("x")</script>"#)
        #expect(FixtureCatalog.comic(67, imageBase: base)?.title == #"Say "cheese" & <b>"#)
        #expect(FixtureCatalog.Special.scriptTitle == 66)
        #expect(FixtureCatalog.Special.quoteTitle == 67)
    }

    /// Comic-sized: three panels a person can look at, a few hundred
    /// pixels wide, yet a few kilobytes each (compressed line art).
    @Test(arguments: [1, 2, 3, 4, 7, 13, 42, 99, 403, 405, 420])
    func imagesAreComicSizedRGBPNGsOfAFewKilobytes(number: Int) throws {
        let bytes = try #require(FixtureCatalog.png(for: number))
        let png = try CheckedPNG(bytes)
        #expect(png.width == 600)
        #expect(png.height == 200)
        #expect(png.bitDepth == 8)
        #expect(png.colourType == 2)
        #expect(png.chunkTypes == ["IHDR", "IDAT", "IEND"])
        #expect(png.scanlines.count == 200 * (1 + 600 * 3))
        for row in 0..<200 {
            #expect(png.scanlines[row * (1 + 600 * 3)] == 0, "filter type of row \(row)")
        }
        #expect(bytes.count < 16 * 1024, "\(bytes.count) bytes")
    }

    @Test func imagesDifferFromComicToComic() {
        let images = (1...60).compactMap { FixtureCatalog.png(for: $0) }
        #expect(images.count == 60)
        #expect(Set(images).count == 60)
    }

    @Test func theCheckerRejectsADamagedPNG() throws {
        var bytes = try #require(FixtureCatalog.png(for: 1))
        bytes[40] ^= 0x01
        #expect(throws: CheckedPNG.Failure.self) { try CheckedPNG(bytes) }
    }
}
