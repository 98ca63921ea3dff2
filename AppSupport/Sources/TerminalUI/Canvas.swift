// What a terminal view draws: lines of styled text, cut to the screen's
// width. Pure values, so views are tested without a terminal; `Terminal`
// draws them with ncurses. Every text is made plain (`plainText`) here, at
// the last step before the screen: nothing from the network reaches the
// terminal with its control characters or escape sequences.

import Common

/// How a span of text looks.
public enum Style: Equatable, Hashable, Sendable {
    /// Plain text.
    case normal
    /// Bold: titles.
    case bold
    /// Dimmed: hints and secondary text.
    case dim
    /// Reversed: the selected row, the status bar.
    case reverse
    /// An error (red where the terminal has colours).
    case error
    /// An accent (a favourite's star; yellow where the terminal has colours).
    case accent
    /// Text in a colour on a background colour (a stand-up's theme), drawn
    /// with the nearest colours the terminal has; reversed where it has
    /// none.
    case colored(TerminalColor, on: TerminalColor)
}

/// A piece of one line in one style.
public struct Span: Equatable, Sendable {
    /// The text, plain (no control characters): what is set is made plain,
    /// as the initialiser makes it.
    public var text: String {
        get { plain }
        set { plain = newValue.plainText }
    }
    /// How it looks.
    public var style: Style

    /// The text, made plain when it was given.
    private var plain: String

    /// A span; `text` is made plain.
    public init(_ text: String, _ style: Style = .normal) {
        self.plain = text.plainText
        self.style = style
    }
}

/// One line of the screen.
public struct Line: Equatable, Sendable {
    /// Its spans, left to right.
    public var spans: [Span]

    /// A line of spans.
    public init(_ spans: [Span] = []) {
        self.spans = spans
    }

    /// A line of one span.
    public init(_ text: String, _ style: Style = .normal) {
        self.spans = [Span(text, style)]
    }

    /// The line's text without styles.
    public var text: String { spans.map(\.text).joined() }
}

/// A screenful of lines, drawn top to bottom; the last line is the status
/// bar when one is set.
public struct Canvas: Equatable, Sendable {
    /// Columns available.
    public var width: Int
    /// Rows available.
    public var height: Int
    /// The lines, from the top.
    public var lines: [Line] = []
    /// The bottom line (keys, prompts), if any.
    public var status: Line?
    /// The terminal's protocol for inline images, if it has one: views
    /// place an image only then, and show its address otherwise.
    public var imageProtocol: InlineImageProtocol?
    /// The image placed on the canvas, if any.
    public var image: CanvasImage?
    /// How many lines at the top stay when the lines scroll (the title
    /// bar).
    public var pinnedLines = 1
    /// How many lines the lines below the pinned ones are scrolled by:
    /// set by the front end, whose keys scroll a canvas taller than the
    /// screen (``maxScroll``).
    public var scroll = 0

    /// An empty canvas of the screen's size.
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
    }

    /// Appends a line.
    public mutating func add(_ line: Line) {
        lines.append(line)
    }

    /// Appends one line of text in one style.
    public mutating func add(_ text: String, _ style: Style = .normal) {
        lines.append(Line(text, style))
    }

    /// Appends an empty line.
    public mutating func skip() {
        lines.append(Line())
    }

    /// Places the PNG image `png` at the current line, `columns` × `rows`
    /// cells (blank lines keep its place), if the terminal shows images and
    /// there is room; returns whether it was placed.
    @discardableResult
    public mutating func place(png: [UInt8], columns: Int, rows: Int) -> Bool {
        let room = height - 2 - lines.count
        guard imageProtocol != nil, isPNG(png), room >= 4 else { return false }
        let rows = min(rows, room)
        image = CanvasImage(png: png, row: lines.count, columns: min(columns, width), rows: rows)
        lines.append(contentsOf: Array(repeating: Line(), count: rows))
        return true
    }

    /// Appends `text` wrapped at word boundaries to the canvas's width,
    /// at most `maxLines` lines (the last one ends with "…" when cut).
    public mutating func addWrapped(_ text: String, _ style: Style = .normal, maxLines: Int = .max) {
        // One line more than shown tells whether the text was cut.
        let wrapped = Self.wrap(text.plainText, width: width, maxLines: maxLines == .max ? .max : maxLines + 1)
        for (index, line) in wrapped.prefix(maxLines).enumerated() {
            if index == maxLines - 1, wrapped.count > maxLines {
                lines.append(Line(Self.truncate(line + " …", width: width), style))
            } else {
                lines.append(Line(line, style))
            }
        }
    }

    /// The rows for the lines: all but the status bar's.
    var bodyHeight: Int { max(status == nil ? height : height - 1, 0) }

    /// The lines that scroll, below the pinned ones.
    private var scrolling: ArraySlice<Line> { lines.dropFirst(pinnedLines) }

    /// How many rows the lines that scroll may have on screen.
    private var scrollingRows: Int { max(bodyHeight - min(pinnedLines, lines.count), 0) }

    /// The furthest the lines can scroll: 0 when they fit. Taller lines
    /// show a marker row at each cut ("more above", "more below"), so the
    /// content rows are fewer than the rows.
    public var maxScroll: Int {
        let count = scrolling.count
        guard count > scrollingRows else { return 0 }
        // At the end: a marker above, the rest content.
        return max(count - max(scrollingRows - 1, 1), 0)
    }

    /// The rows as they appear on screen: `height` lines of text, the
    /// status bar last, each cut to `width` columns. Lines taller than the
    /// screen show from ``scroll`` on, and every cut is marked: a row says
    /// there is more above or below, and which keys show it.
    public var rows: [Line] {
        var rows = Array(lines.prefix(min(pinnedLines, bodyHeight)))
        let room = scrollingRows
        let count = scrolling.count
        if count <= room {
            rows += scrolling
        } else if room > 0 {
            let offset = min(max(scroll, 0), maxScroll)
            let above = offset > 0
            // Room for content between the markers.
            var content = room - (above ? 1 : 0)
            let below = offset + content < count
            if below { content -= 1 }
            if above { rows.append(Line("  ↑ \(offset) more above · PgUp ↑", .dim)) }
            rows += scrolling.dropFirst(offset).prefix(max(content, 0))
            if below {
                rows.append(Line("  ↓ \(count - offset - max(content, 0)) more below · PgDn ↓", .dim))
            }
        }
        while rows.count < bodyHeight { rows.append(Line()) }
        if let status { rows.append(status) }
        return rows.map { Self.cut($0, width: width) }
    }

    /// The scroll after `key`, when the canvas is taller than the screen
    /// and `key` scrolls it (↑ ↓ a line, PgUp PgDn a screenful, Home End
    /// to either end); `nil` when it does not.
    public func scroll(after key: Key) -> Int? {
        let limit = maxScroll
        guard limit > 0 else { return nil }
        let page = max(scrollingRows - 2, 1)
        let current = min(max(scroll, 0), limit)
        switch key {
        case .up: return max(current - 1, 0)
        case .down: return min(current + 1, limit)
        case .pageUp: return max(current - page, 0)
        case .pageDown: return min(current + page, limit)
        case .home: return 0
        case .end: return limit
        default: return nil
        }
    }

    /// The screen as plain text, one row per line (for tests and for
    /// output that is not a terminal).
    public var plainText: String {
        rows.map { $0.text.trimmingTrailingSpaces }.joined(separator: "\n")
    }

    /// Splits `text` into lines of at most `width` columns, at spaces where
    /// possible; stops after `maxLines` lines.
    public static func wrap(_ text: String, width: Int, maxLines: Int = .max) -> [String] {
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if lines.count >= maxLines { return Array(lines.prefix(maxLines)) }
            let wordWidth = TextWidth.columns(of: word)
            if currentWidth > 0, currentWidth + 1 + wordWidth > width {
                lines.append(current)
                current = ""
                currentWidth = 0
            }
            if wordWidth > width {
                // A word longer than a line: cut it.
                var rest = Substring(word)
                while TextWidth.columns(of: rest) > width {
                    var head = truncate(String(rest), width: width, ellipsis: false)
                    // A character wider than the line still takes a line
                    // of its own: the loop always moves on.
                    if head.isEmpty, let first = rest.first { head = String(first) }
                    lines.append(head)
                    rest = rest.dropFirst(max(head.count, 1))
                }
                current = String(rest)
                currentWidth = TextWidth.columns(of: rest)
                continue
            }
            if currentWidth > 0 {
                current += " "
                currentWidth += 1
            }
            current += word
            currentWidth += wordWidth
        }
        if !current.isEmpty { lines.append(current) }
        return Array(lines.prefix(maxLines))
    }

    /// `text` cut to `width` columns, ending with "…" when cut.
    public static func truncate(_ text: String, width: Int, ellipsis: Bool = true) -> String {
        guard TextWidth.columns(of: text) > width else { return text }
        var result = ""
        var used = 0
        let limit = ellipsis ? width - 1 : width
        for character in text {
            let columns = TextWidth.columns(of: String(character))
            if used + columns > limit { break }
            result.append(character)
            used += columns
        }
        return ellipsis ? result + "…" : result
    }

    static func cut(_ line: Line, width: Int) -> Line {
        var spans: [Span] = []
        var used = 0
        for span in line.spans {
            let columns = TextWidth.columns(of: span.text)
            if used + columns <= width {
                spans.append(span)
                used += columns
            } else {
                let room = width - used
                if room > 0 { spans.append(Span(truncate(span.text, width: room), span.style)) }
                break
            }
        }
        return Line(spans)
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// An image placed on a canvas: drawn by the terminal's image protocol over
/// blank lines kept for it.
public struct CanvasImage: Equatable, Sendable {
    /// The PNG's bytes.
    public var png: [UInt8]
    /// The first row it covers.
    public var row: Int
    /// Its width in cells.
    public var columns: Int
    /// Its height in cells.
    public var rows: Int
}
