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
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.properties.generalCategory == .control { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
