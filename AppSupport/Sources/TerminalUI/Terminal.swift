// The terminal, through ncursesw: raw keys decoded (arrows, Enter), minimal
// redraws (ncurses compares the new screen with the old), resizing, suspending
// on Ctrl-Z as a shell's job control expects, plain ASCII where the locale
// cannot show other characters, and the terminal restored on quit, Ctrl-C
// and crash signals (SIGTERM and SIGHUP stop the app through the front end).

import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the terminal cannot be used for a full-screen program.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// ncurses does not know the terminal type (`TERM`).
    case unknownType(String)
    /// The terminal cannot place the cursor (`TERM=dumb`, a plain log
    /// window): a full screen cannot be drawn on it.
    case cannotPlaceCursor(String)

    /// What went wrong and what to do in the terminal (an app adds what it
    /// offers instead, such as a web server or text commands).
    public var description: String {
        switch self {
        case .notATerminal:
            "Standard input and output must be a terminal for the full-screen program."
        case .unknownType(let type):
            "The terminal type \"\(type)\" is unknown here; set TERM to your terminal's type (such as xterm-256color)."
        case .cannotPlaceCursor(let type):
            "This terminal (TERM=\(type)) cannot place the cursor, so the full-screen program cannot draw on it; "
                + "run it in a terminal that can, such as xterm (TERM=xterm-256color)."
        }
    }
}

/// The screen of the process's terminal. Use one at a time, on the main
/// actor.
@MainActor
public final class Terminal {
    private var screen: OpaquePointer?
    private var isActive = false
    /// The terminal's protocol for inline images, if it has one.
    public let imageProtocol = InlineImageProtocol.detect()
    private var drawnImage: CanvasImage?
    /// Whether the locale can show characters beyond ASCII; when it cannot,
    /// every other character is drawn as an ASCII stand-in of the same
    /// width.
    public private(set) var isUnicode = true
    /// The colour pairs made for ``Style/colored(_:on:)`` styles; pairs 1
    /// and 2 are the error and accent colours.
    private var colorPairs: [ColorPairKey: Int16] = [:]

    /// Whether standard input and output are a terminal.
    public nonisolated static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// A terminal, not yet started.
    public init() {}

    /// Takes over the screen: raw keys, no echo, no cursor; installs the
    /// signal handlers that restore the terminal.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot show a full
    ///   screen; the terminal is left as it was.
    public func start() throws(TerminalError) {
        guard !isActive else { return }
        guard Self.isInteractive else { throw .notATerminal }
        setlocale(LC_ALL, "")
        isUnicode = oak_locale_is_utf8() != 0
        let type = Self.typeName
        guard let screen = oak_newterm() else { throw .unknownType(type) }
        guard oak_can_address_cursor() != 0 else {
            endwin()
            delscreen(screen)
            throw .cannotPlaceCursor(type)
        }
        self.screen = screen
        raw()
        noecho()
        keypad(oak_stdscr(), true)
        nodelay(oak_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        if has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_RED), -1)
            init_pair(2, Int16(COLOR_YELLOW), -1)
        }
        colorPairs = [:]
        isActive = true
        Self.installSignalHandlers()
    }

    /// Gives the screen back as it was.
    public func stop() {
        guard isActive else { return }
        if drawnImage != nil, let imageProtocol { Self.emit(imageProtocol.clearSequence) }
        drawnImage = nil
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        isActive = false
    }

    /// The screen's size in columns and rows.
    public var size: (width: Int, height: Int) {
        (Int(getmaxx(oak_stdscr())), Int(getmaxy(oak_stdscr())))
    }

    /// Takes the terminal's new size (after `SIGWINCH`); the next draw fills
    /// it.
    public func resize() {
        guard isActive else { return }
        var rows: Int32 = 0
        var columns: Int32 = 0
        oak_terminal_size(&rows, &columns)
        if rows > 0, columns > 0 { resizeterm(rows, columns) }
        invalidate()
    }

    /// Stops the program as Ctrl-Z does in a shell: the terminal is given
    /// back first, and taken over again (to be drawn anew) when the shell
    /// continues the program (`fg`). Returns then.
    public func suspend() {
        guard isActive else { return }
        if drawnImage != nil, let imageProtocol { Self.emit(imageProtocol.clearSequence) }
        drawnImage = nil
        def_prog_mode()
        endwin()
        // The default action of SIGTSTP stops the process here; SIGCONT
        // (the shell's `fg`) continues it after `raise` returns. The
        // signal is unblocked for that moment: the threads of a Swift
        // program on Linux may block it.
        let previous = signal(SIGTSTP, SIG_DFL)
        var stop = sigset_t()
        var mask = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &stop, &mask)
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        signal(SIGTSTP, previous)
        reset_prog_mode()
        invalidate()
    }

    /// Makes the next draw repaint every cell (the screen may have been
    /// changed behind ncurses's back).
    public func invalidate() {
        guard isActive else { return }
        clearok(oak_stdscr(), true)
        drawnImage = nil
    }

    /// The next key pressed, or `nil` when none is waiting. Never blocks
    /// longer than an escape sequence takes to arrive. Characters are read
    /// whole (`get_wch`): "é" or "日" typed in a UTF-8 terminal is one key.
    public func readKey() -> Key? {
        guard isActive else { return nil }
        while true {
            var character: wint_t = 0
            let kind = get_wch(&character)
            if kind == ERR { return nil }
            let code = Int32(bitPattern: UInt32(character))
            if kind == KEY_CODE_YES {
                if let key = Self.functionKey(code) { return key }
                continue  // a key no view uses: read the next one
            }
            if let key = Self.characterKey(code) { return key }
        }
    }

    /// The key of ncurses's function-key code `code`.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_BTAB: .backTab
        case KEY_RESIZE: .resize
        default: nil
        }
    }

    /// The key of character `code` read in raw mode: control characters
    /// are keys (Ctrl-C, Tab, Enter…), printable ones characters.
    static func characterKey(_ code: Int32) -> Key? {
        switch code {
        case 10, 13: return .enter
        case 127, 8: return .backspace
        case 9: return .tab
        case 3: return .interrupt
        case 26: return .suspend
        case 27: return .escape
        case 1...26:
            guard let letter = Unicode.Scalar(UInt32(code) + 96) else { return nil }
            return .control(Character(letter))
        case 0..<32, 0x7F..<0xA0:
            return nil  // other control characters: no view uses them
        default:
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// Rings the terminal's bell and flashes the screen (a visible bell,
    /// for a muted terminal or a user who cannot hear it). Does nothing
    /// while no terminal is started.
    public func ring() {
        guard isActive else { return }
        beep()
        flash()
    }

    /// Draws `canvas` (ncurses sends only what changed).
    public func draw(_ canvas: Canvas) {
        guard isActive else { return }
        erase()
        for (row, line) in canvas.rows.enumerated() {
            move(Int32(row), 0)
            for span in line.spans {
                let attributes = attributes(of: span.style)
                if attributes != 0 { attron(Int32(attributes)) }
                addstr(isUnicode ? span.text : ASCIIFallback.text(span.text))
                if attributes != 0 { attroff(Int32(attributes)) }
            }
        }
        if imageProtocol == .iTerm2, canvas.image != drawnImage {
            // iTerm2's images are cells ncurses believes blank: repaint
            // everything so that none of an old image stays.
            clearok(oak_stdscr(), true)
        }
        refresh()
        drawImage(canvas.image)
    }

    /// Draws `image` over the cells kept for it, when it differs from the
    /// one drawn last; the cursor is saved and restored around it, so that
    /// ncurses's idea of the screen stays right.
    private func drawImage(_ image: CanvasImage?) {
        guard let imageProtocol, image != drawnImage else { return }
        var output = imageProtocol.clearSequence
        if let image {
            output += "\u{1B}7\u{1B}[\(image.row + 1);1H"
            output += imageProtocol.sequence(png: image.png, columns: image.columns, rows: image.rows)
            output += "\u{1B}8"
        }
        Self.emit(output)
        drawnImage = image
    }

    private static func emit(_ text: String) {
        guard !text.isEmpty else { return }
        // Straight to the descriptor: ncurses has flushed its own output
        // (refresh) before this is called.
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result <= 0 { return }
            written += result
        }
    }

    private static func attributes(_ style: Style) -> Int32 {
        switch style {
        case .normal: 0
        case .bold: oak_attr_bold()
        case .dim: oak_attr_dim()
        case .reverse: oak_attr_reverse()
        case .error: has_colors() ? oak_color_pair(1) | oak_attr_bold() : oak_attr_bold()
        case .accent: has_colors() ? oak_color_pair(2) | oak_attr_bold() : oak_attr_bold()
        case .colored: oak_attr_reverse()  // drawn by `attributes(of:)` when the terminal has colours
        }
    }

    /// The attributes of `style` on this terminal: a colour pair of the
    /// nearest colours the terminal has for ``Style/colored(_:on:)`` (made
    /// on first use), else those of ``attributes(_:)``.
    private func attributes(of style: Style) -> Int32 {
        guard case .colored(let foreground, let background) = style, has_colors() else {
            return Self.attributes(style)
        }
        let palette = oak_colors() >= 256 ? TerminalColor.Palette.xterm256 : .basic8
        let key = ColorPairKey(
            foreground: foreground.index(in: palette), background: background.index(in: palette))
        if let pair = colorPairs[key] { return oak_color_pair(pair) }
        // Pairs 1 and 2 are taken; the rest are made as colours are used.
        let pair = Int16(colorPairs.count + 3)
        guard Int32(pair) < oak_color_pairs(), init_pair(pair, key.foreground, key.background) != ERR else {
            return oak_attr_reverse()
        }
        colorPairs[key] = pair
        return oak_color_pair(pair)
    }

    /// The terminal type, for messages.
    private static var typeName: String {
        getenv("TERM").map { String(cString: $0) } ?? "unset"
    }

    /// Crash signals restore the terminal, then end the process as the
    /// signal would have. (SIGTERM, SIGHUP and SIGINT stop the app as
    /// quitting does, through the front end's own sources; Ctrl-C and
    /// Ctrl-Z are keys in raw mode.)
    private static func installSignalHandlers() {
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(signalNumber) { received in
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}

/// ASCII stand-ins for what a non-UTF-8 locale cannot show, each as wide as
/// the character it replaces, so that the layout does not move.
public enum ASCIIFallback {
    /// `text` with every character beyond ASCII replaced: arrows, dots and
    /// stars by look-alikes, anything else by `?` (two for a wide one).
    public static func text(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
                continue
            }
            let columns = TextWidth.columns(of: scalar)
            guard columns > 0 else { continue }
            if columns == 1, let replacement = replacements[scalar] {
                result.unicodeScalars.append(replacement)
            } else {
                result += String(repeating: "?", count: columns)
            }
        }
        return result
    }

    private static let replacements: [Unicode.Scalar: Unicode.Scalar] = [
        "←": "<", "→": ">", "↑": "^", "↓": "v", "·": "-", "•": "*", "★": "*", "☆": "o", "…": "~", "—": "-",
        "–": "-", "▏": "|", "│": "|", "─": "-", "✓": "v", "✗": "x", "“": "\"", "”": "\"", "‘": "'", "’": "'",
        "é": "e", "è": "e", "ê": "e", "ë": "e", "á": "a", "à": "a", "â": "a", "ä": "a", "ó": "o", "ö": "o",
        "ô": "o", "ú": "u", "ü": "u", "í": "i", "ï": "i", "ç": "c", "ñ": "n", "ß": "s",
    ]
}
