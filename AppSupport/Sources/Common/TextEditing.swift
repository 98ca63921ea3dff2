// Editing a line of text with a cursor, as a value: what a terminal's text
// field does with the keys typed, kept in a feature's state so that the
// field's text and cursor are state like any other (a web page sends the
// whole value instead).

/// One edit of a line of text at a cursor.
public enum TextEdit: Equatable, Hashable, Sendable {
    /// Inserts text at the cursor, made plain (escape sequences and control
    /// characters dropped, line breaks and tabs turned into spaces).
    case insert(String)
    /// Deletes the character before the cursor.
    case deleteBackward
    /// Deletes the character at the cursor.
    case deleteForward
    /// Moves the cursor one character left.
    case left
    /// Moves the cursor one character right.
    case right
    /// Moves the cursor to the start.
    case home
    /// Moves the cursor to the end.
    case end
}

/// A line of text and a cursor, the number of characters before it.
public struct EditableText: Equatable, Hashable, Sendable {
    /// The text.
    public var text: String
    /// Characters before the cursor, `0...text.count`.
    public var cursor: Int

    /// `text` with the cursor at `cursor` (clamped), by default at the end.
    public init(_ text: String, cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(cursor ?? text.count, 0), text.count)
    }

    /// Applies `edit`, keeping the text at most `limit` characters (an
    /// insertion is cut to fit).
    public mutating func apply(_ edit: TextEdit, limit: Int = .max) {
        cursor = min(max(cursor, 0), text.count)
        switch edit {
        case .insert(let inserted):
            // Plain text: no escape sequence or control character, line
            // breaks and tabs as spaces (see `plainText`).
            let clean = inserted.plainText
            let room = max(limit - text.count, 0)
            let kept = String(clean.prefix(room))
            guard !kept.isEmpty else { return }
            let index = text.index(text.startIndex, offsetBy: cursor)
            text.insert(contentsOf: kept, at: index)
            cursor += kept.count
        case .deleteBackward:
            guard cursor > 0 else { return }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .deleteForward:
            guard cursor < text.count else { return }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .left:
            cursor = max(cursor - 1, 0)
        case .right:
            cursor = min(cursor + 1, text.count)
        case .home:
            cursor = 0
        case .end:
            cursor = text.count
        }
    }
}
