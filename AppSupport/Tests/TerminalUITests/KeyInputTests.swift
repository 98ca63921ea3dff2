// Keys as the terminal sends them in raw mode, text fields that take the
// keys that edit a line before the screen's bindings, and themed colours
// drawn with the nearest colour a terminal has.

import CNcurses
import Common
import Testing

@testable import TerminalUI

@Suite("Keys, text fields and colours")
@MainActor
struct KeyInputTests {
    @Test func controlCharactersAreKeysAndEveryOtherCharacterIsTyped() {
        #expect(Terminal.characterKey(9) == .tab)
        #expect(Terminal.characterKey(13) == .enter)
        #expect(Terminal.characterKey(127) == .backspace)
        #expect(Terminal.characterKey(3) == .interrupt)
        #expect(Terminal.characterKey(26) == .suspend)
        #expect(Terminal.characterKey(14) == .control("n"))
        #expect(Terminal.characterKey(0) == nil)
        #expect(Terminal.characterKey(0x9B) == nil, "a C1 control character (CSI) is never typed")
        #expect(Terminal.characterKey(0xE9) == .character("é"))
        #expect(Terminal.characterKey(0x65E5) == .character("日"))
        #expect(Terminal.functionKey(KEY_BTAB) == .backTab)
        #expect(Terminal.functionKey(KEY_DC) == .delete)
        #expect(Terminal.functionKey(KEY_HOME) == .home)
        #expect(Terminal.functionKey(KEY_F0 + 5) == nil)
    }

    @Test func aFocusedTextFieldTakesTypedCharactersBeforeTheBindings() async {
        var edits: [TextEdit] = []
        var quit = 0
        let bindings = [
            KeyBinding([.character("q")], "quit") { quit += 1 },
            KeyBinding([.escape], "cancel") { quit += 10 },
        ]
        let field = TextFieldInput { edits.append($0) }
        let form = Screen(canvas: Canvas(width: 10, height: 3), bindings: bindings, textField: field)
        for key: Key in [.character("q"), .backspace, .delete, .left, .home, .end, .right] {
            #expect(await form.handle(key))
        }
        #expect(edits == [.insert("q"), .deleteBackward, .deleteForward, .left, .home, .end, .right])
        #expect(quit == 0)
        #expect(await form.handle(.escape))
        #expect(quit == 10)
        #expect(!(await form.handle(.tab)), "a key nothing uses")

        let list = Screen(canvas: Canvas(width: 10, height: 3), bindings: bindings)
        #expect(await list.handle(.character("q")))
        #expect(quit == 11)
    }

    @Test func themedColoursAreDrawnWithTheNearestColourTheTerminalHas() {
        // xterm's cube: pure colours land on their corner; greys on the ramp.
        #expect(TerminalColor(red: 255, green: 0, blue: 0).xterm256Index == 196)
        #expect(TerminalColor(red: 0, green: 0, blue: 255).xterm256Index == 21)
        #expect(TerminalColor.black.xterm256Index == 16)
        #expect(TerminalColor(red: 128, green: 128, blue: 128).xterm256Index == 244)
        // Scrumdinger's "bubblegum" (a pink) on 8 colours is magenta.
        #expect(TerminalColor(red: 237, green: 143, blue: 232).basicIndex == Int16(COLOR_MAGENTA))
        #expect(TerminalColor(red: 250, green: 250, blue: 245).basicIndex == Int16(COLOR_WHITE))
        #expect(TerminalColor.black.basicIndex == Int16(COLOR_BLACK))
        #expect(TerminalColor(red: 255, green: 214, blue: 79).basicIndex == Int16(COLOR_YELLOW))
        #expect(TerminalColor(red: 20, green: 40, blue: 200).basicIndex == Int16(COLOR_BLUE))
    }
}
