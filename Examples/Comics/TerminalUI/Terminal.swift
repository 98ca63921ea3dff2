// The terminal, through ncursesw: raw keys decoded (arrows, Enter, resize),
// minimal redraws (ncurses compares the new screen with the old), and the
// terminal restored on quit, Ctrl-C, SIGTERM and crash signals.

import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The screen of the process's terminal. Use one at a time, on one actor.
@MainActor
public final class Terminal {
    private var isActive = false
    /// The terminal's protocol for inline images, if it has one.
    public let imageProtocol = InlineImageProtocol.detect()
    private var drawnImage: CanvasImage?

    /// Whether standard input and output are a terminal.
    public nonisolated static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// A terminal, not yet started.
    public init() {}

    /// Takes over the screen: raw keys, no echo, no cursor; installs the
    /// signal handlers that restore the terminal.
    public func start() {
        guard !isActive else { return }
        setlocale(LC_ALL, "")
        initscr()
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
        isActive = true
        Self.installSignalHandlers()
    }

    /// Gives the screen back as it was.
    public func stop() {
        guard isActive else { return }
        if drawnImage != nil, let imageProtocol { Self.emit(imageProtocol.clearSequence) }
        drawnImage = nil
        endwin()
        isActive = false
    }

    /// The screen's size in columns and rows.
    public var size: (width: Int, height: Int) {
        (Int(getmaxx(oak_stdscr())), Int(getmaxy(oak_stdscr())))
    }

    /// The next key pressed, or `nil` when none is waiting.
    public func readKey() -> Key? {
        let code = getch()
        switch code {
        case ERR: return nil
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_ENTER, 10, 13: return .enter
        case KEY_BACKSPACE, 127, 8, KEY_DC: return .backspace
        case KEY_RESIZE: return .resize
        case 3: return .interrupt
        case 27: return .escape
        case 32...126:
            guard let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        default: return nil
        }
    }

    /// Draws `canvas` (ncurses sends only what changed).
    public func draw(_ canvas: Canvas) {
        erase()
        for (row, line) in canvas.rows.enumerated() {
            move(Int32(row), 0)
            for span in line.spans {
                let attributes = Self.attributes(span.style)
                if attributes != 0 { attron(Int32(attributes)) }
                addstr(span.text)
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
        }
    }

    /// SIGTERM, SIGHUP and crash signals restore the terminal, then end the
    /// process as the signal would have. (Ctrl-C is a key in raw mode.)
    private static func installSignalHandlers() {
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(signalNumber) { received in
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
