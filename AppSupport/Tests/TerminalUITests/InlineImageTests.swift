// Inline images: which terminals get them, and the bytes that draw them.

import Foundation
import TerminalUI
import Testing

@Suite("Inline images")
struct InlineImageTests {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 5_000)

    @Test func detectedFromWhatTheTerminalSets() {
        #expect(InlineImageProtocol.detect(environment: ["KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(InlineImageProtocol.detect(environment: ["TERM": "xterm-kitty"]) == .kitty)
        #expect(InlineImageProtocol.detect(environment: ["TERM_PROGRAM": "iTerm.app"]) == .iTerm2)
        #expect(InlineImageProtocol.detect(environment: ["LC_TERMINAL": "iTerm2"]) == .iTerm2)
        #expect(InlineImageProtocol.detect(environment: ["TERM": "xterm-256color"]) == nil)
        // tmux does not pass images on: its link is shown instead.
        #expect(InlineImageProtocol.detect(environment: ["TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/t,1,0"]) == nil)
    }

    @Test func kittyGetsTheImageInChunksOfAtMost4096Bytes() {
        let sequence = InlineImageProtocol.kitty.sequence(png: png, columns: 40, rows: 12)
        let chunks = sequence.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        #expect(chunks.count == 2)
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=100,c=40,r=12,C=1,q=2,m=1;"))
        #expect(chunks[1].hasPrefix("\u{1B}_Gm=0;"))
        let payload = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";") ?? $0.startIndex)...]) }
        #expect(payload.allSatisfy { $0.utf8.count <= 4096 })
        #expect(Data(base64Encoded: payload.joined()) == Data(png))
    }

    @Test func iTerm2GetsOneSequence() {
        let sequence = InlineImageProtocol.iTerm2.sequence(png: png, columns: 40, rows: 12)
        #expect(sequence.hasPrefix("\u{1B}]1337;File=inline=1;size=\(png.count);width=40;height=12;"))
        #expect(sequence.hasSuffix("\u{07}"))
    }

    @Test func aCanvasPlacesAPNGOnlyWhereImagesAreShown() {
        var plain = Canvas(width: 80, height: 30)
        let placedOnPlain = plain.place(png: png, columns: 40, rows: 12)
        #expect(!placedOnPlain)
        #expect(plain.image == nil)

        var kitty = Canvas(width: 80, height: 30)
        kitty.imageProtocol = .kitty
        kitty.add("title")
        let placedNotAPNG = kitty.place(png: [1, 2, 3], columns: 40, rows: 12)
        #expect(!placedNotAPNG)
        let placed = kitty.place(png: png, columns: 40, rows: 12)
        #expect(placed)
        #expect(kitty.image?.row == 1)
        #expect(kitty.lines.count == 13)
    }
}
