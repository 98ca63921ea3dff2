// HTML that is safe by construction: text interpolated into it is escaped,
// only other HTML values are inserted as they are. Every web view builds
// its markup with it, so a title from the network cannot become markup.

/// A fragment of HTML.
///
/// Interpolating a `String` (or anything `CustomStringConvertible`) escapes
/// it; interpolating an `HTML` inserts it unchanged:
///
/// ```swift
/// let title = "<script>alert(1)</script>"
/// let page: HTML = "<h1>\(title)</h1>"
/// // <h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>
/// ```
///
/// Escaping covers text and attribute values in double quotes alike
/// (`&`, `<`, `>`, `"` and `'`), and drops control characters other than
/// tab and newline.
public struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup.
    public let rendered: String

    /// Markup written by the program, inserted as it is. Never pass text
    /// from the network here: interpolate it instead.
    public init(trusted markup: String) {
        rendered = markup
    }

    /// A literal, inserted as it is (it is part of the program).
    public init(stringLiteral value: String) {
        rendered = value
    }

    /// A literal with interpolations, each escaped unless it is `HTML`.
    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.markup
    }

    /// The markup.
    public var description: String { rendered }

    /// No markup.
    public static let empty = HTML(trusted: "")

    /// The fragments one after another.
    public static func join(_ fragments: [HTML], separator: HTML = .empty) -> HTML {
        HTML(trusted: fragments.map(\.rendered).joined(separator: separator.rendered))
    }

    /// Builds the markup of an interpolated literal.
    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        /// An empty builder, for a literal of that size.
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// The literal's text: part of the program, inserted as it is.
        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: String) {
            markup += HTML.escape(text)
        }

        /// A value: its description, escaped.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            markup += HTML.escape(value.description)
        }

        /// Markup: inserted as it is.
        public mutating func appendInterpolation(_ html: HTML) {
            markup += html.rendered
        }

        /// Optional markup: inserted when present.
        public mutating func appendInterpolation(_ html: HTML?) {
            markup += html?.rendered ?? ""
        }
    }

    /// `text` escaped for HTML text and double- or single-quoted attribute
    /// values; control characters other than tab and newline dropped.
    ///
    /// Every rendering of every page escapes its text: one pass over the
    /// UTF-8 bytes, and none more when nothing is to be escaped (most labels
    /// and keys). The control characters (Unicode's `Cc`) are U+0000–U+001F,
    /// U+007F and U+0080–U+009F; the last are two bytes, `C2 80`–`C2 9F`.
    public static func escape(_ text: String) -> String {
        var text = text
        text.makeContiguousUTF8()
        let escaped = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard let first = bytes.firstIndex(where: needsAttention) else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            result.append(contentsOf: bytes[..<first])
            var index = first
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "&"): result.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): result.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): result.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): result.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): result.append(contentsOf: "&#39;".utf8)
                case UInt8(ascii: "\t"), UInt8(ascii: "\n"): result.append(byte)
                case 0..<0x20, 0x7F: continue
                case 0xC2 where index < bytes.count && (0x80...0x9F).contains(bytes[index]):
                    index += 1
                default: result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
        return escaped.flatMap { $0 } ?? text
    }

    /// Whether a byte of UTF-8 may have to be escaped or dropped (`C2`
    /// leads U+0080–U+00BF, among them the C1 controls).
    private static func needsAttention(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"),
            0..<0x20, 0x7F, 0xC2:
            true
        default: false
        }
    }
}
