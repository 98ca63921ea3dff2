// Keys as views see them, decoded by ncurses from what the terminal sends,
// and what a key does in the state shown.

import Oak

/// A key the user pressed.
public enum Key: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A printable character.
    case character(Character)
    /// An arrow key.
    case left, right, up, down
    /// Return or Enter.
    case enter
    /// Escape.
    case escape
    /// Backspace.
    case backspace
    /// Delete (the character at the cursor).
    case delete
    /// Tab: the next field.
    case tab
    /// Shift-Tab: the previous field.
    case backTab
    /// Home and End: the start and end of a line.
    case home, end
    /// Page Up and Page Down: a screenful back or on.
    case pageUp, pageDown
    /// A control key other than those above: Ctrl-N is `.control("n")`.
    case control(Character)
    /// Ctrl-C (read as a key: the terminal is in raw mode).
    case interrupt
    /// Ctrl-Z (read as a key: the terminal is in raw mode). The front end
    /// suspends the program, as a shell's job control expects.
    case suspend
    /// The terminal changed size.
    case resize

    /// How a help screen names the key: "←", "q", "Enter".
    public var description: String {
        switch self {
        case .character(let character): String(character)
        case .left: "←"
        case .right: "→"
        case .up: "↑"
        case .down: "↓"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .control(let character): "Ctrl-\(character.uppercased())"
        case .interrupt: "Ctrl-C"
        case .suspend: "Ctrl-Z"
        case .resize: "resize"
        }
    }
}

/// A key a view offers in the current state, with what it does.
public struct KeyBinding {
    /// The keys that do it.
    public var keys: [Key]
    /// What it does, for the help screen and the status bar: "next".
    public var label: String
    /// Whether the status bar lists it (the help screen lists every one).
    public var isShownInStatusBar: Bool
    /// Does it, on the main actor (the terminal's), and returns once it is
    /// done: the front end reads the next key after that.
    public var action: @MainActor () async -> Void

    /// A binding that does `action`.
    public init(
        _ keys: [Key], _ label: String, inStatusBar: Bool = true, action: @escaping @MainActor () async -> Void
    ) {
        self.keys = keys
        self.label = label
        self.isShownInStatusBar = inStatusBar
        self.action = action
    }

    /// A binding that performs `intent` and returns once the run has
    /// processed it (Oak's `Intent.perform(isolation:)`), so that the next key is read in
    /// the state the intent led to.
    @MainActor
    public init<Event>(_ keys: [Key], _ label: String, inStatusBar: Bool = true, intent: Intent<Event>) {
        self.init(keys, label, inStatusBar: inStatusBar) { await intent.perform() }
    }

    /// "←/p previous"
    public var summary: String {
        keys.map(\.description).joined(separator: "/") + " " + label
    }
}
