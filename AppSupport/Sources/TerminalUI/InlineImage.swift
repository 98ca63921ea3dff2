// Images drawn in the terminal itself, where the terminal has a protocol
// for it: kitty's graphics protocol, or iTerm2's inline images. Detected
// from the environment the terminal sets; elsewhere (tmux, a plain xterm)
// views show the image's address instead.

import Foundation

/// A terminal's protocol for inline images.
public enum InlineImageProtocol: Equatable, Sendable {
    /// kitty's graphics protocol (also WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (also WezTerm).
    case iTerm2

    /// The protocol the terminal described by `environment` understands,
    /// or `nil`. Inside tmux or screen, none: they do not pass images on.
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> InlineImageProtocol? {
        if environment["TMUX"] != nil || (environment["TERM"] ?? "").hasPrefix("screen") { return nil }
        if environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
            || environment["TERM_PROGRAM"] == "ghostty"
        {
            return .kitty
        }
        if environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" {
            return .iTerm2
        }
        return nil
    }

    /// The bytes that draw `png` at the cursor, `columns` × `rows` cells.
    public func sequence(png: [UInt8], columns: Int, rows: Int) -> String {
        let encoded = Data(png).base64EncodedString()
        switch self {
        case .kitty:
            // Sent in chunks of at most 4096 bytes; `m=1` says more follow.
            var chunks: [Substring] = []
            var rest = Substring(encoded)
            while !rest.isEmpty {
                chunks.append(rest.prefix(4096))
                rest = rest.dropFirst(4096)
            }
            if chunks.isEmpty { return "" }
            var result = ""
            for (index, chunk) in chunks.enumerated() {
                let more = index < chunks.count - 1 ? 1 : 0
                let control = index == 0 ? "a=T,f=100,c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "m=\(more)"
                result += "\u{1B}_G\(control);\(chunk)\u{1B}\\"
            }
            return result
        case .iTerm2:
            return "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);"
                + "preserveAspectRatio=1:\(encoded)\u{07}"
        }
    }

    /// The bytes that remove every image this protocol drew (kitty keeps
    /// images on a layer of their own until deleted; iTerm2's are text cells
    /// that the next redraw overwrites).
    public var clearSequence: String {
        switch self {
        case .kitty: "\u{1B}_Ga=d,q=2\u{1B}\\"
        case .iTerm2: ""
        }
    }
}

/// Whether `bytes` start with the PNG signature: only PNG images are sent
/// to a terminal.
public func isPNG(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
}
