// A value as the inspector shows it: one line a stored property, nested
// values indented, a type that describes itself (URL, Date, UUID) as its
// description rather than its internals, long collections cut short.

/// Renders values as indented text, one line a property, for a line diff.
enum StateText {
    /// The most items of a collection shown.
    static let items = 50
    /// The deepest nesting shown.
    static let depth = 12

    /// `value` as lines: its type, then its properties.
    static func render(_ value: Any) -> String {
        var lines: [String] = []
        lines.reserveCapacity(16)
        append(value, label: nil, indent: 0, to: &lines)
        return lines.joined(separator: "\n")
    }

    private static func append(_ value: Any, label: String?, indent: Int, to lines: inout [String]) {
        let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first?.value {
                append(wrapped, label: label, indent: indent, to: &lines)
            } else {
                lines.append(prefix + "nil")
            }
            return
        case .enum:
            guard !(value is CustomStringConvertible), !(value is CustomDebugStringConvertible) else { break }
            guard let payload = mirror.children.first else {
                lines.append(prefix + ".\(value)")
                return
            }
            lines.append(prefix + ".\(payload.label ?? "?")")
            guard indent < depth else { return }
            let inner = Mirror(reflecting: payload.value)
            if inner.displayStyle == .tuple {
                for (index, child) in inner.children.enumerated() {
                    append(
                        child.value, label: child.label.map(tupleLabel) ?? "\(index)", indent: indent + 1, to: &lines)
                }
            } else {
                append(payload.value, label: nil, indent: indent + 1, to: &lines)
            }
            return
        case .struct, .class, .tuple:
            guard !(value is CustomStringConvertible) || mirror.displayStyle == .tuple else { break }
            lines.append(prefix + (mirror.displayStyle == .tuple ? "" : "\(type(of: value))"))
            guard indent < depth else { return }
            for (index, child) in mirror.children.enumerated() {
                append(child.value, label: child.label.map(tupleLabel) ?? "\(index)", indent: indent + 1, to: &lines)
            }
            return
        case .collection, .set, .dictionary:
            let count = mirror.children.count
            lines.append(prefix + "\(count) item" + (count == 1 ? "" : "s"))
            guard indent < depth else { return }
            for (index, child) in mirror.children.prefix(items).enumerated() {
                if mirror.displayStyle == .dictionary, let pair = Mirror(reflecting: child.value).children.first,
                    let element = Mirror(reflecting: child.value).children.dropFirst().first
                {
                    append(element.value, label: describe(pair.value), indent: indent + 1, to: &lines)
                } else {
                    append(child.value, label: "[\(index)]", indent: indent + 1, to: &lines)
                }
            }
            if count > items { lines.append(String(repeating: "  ", count: indent + 1) + "… \(count - items) more") }
            return
        default:
            break
        }
        lines.append(prefix + describe(value))
    }

    /// The most characters of a line kept.
    static let lineLength = 2_000

    /// A leaf: strings quoted, anything else as it describes itself, on
    /// one line of at most ``lineLength`` characters.
    private static func describe(_ value: Any) -> String {
        let text = clipped(value is String || value is Substring ? "\"\(value)\"" : "\(value)", to: lineLength)
        return text.contains("\n") ? text.replacingOccurrences(of: "\n", with: "⏎") : text
    }

    /// `text`, or its first `length` characters and how many more there
    /// were: an entry stays small whatever a value holds.
    static func clipped(_ text: String, to length: Int) -> String {
        guard text.utf8.count > length,
            let end = text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex)
        else { return text }
        return text[..<end] + "… (\(text.count - length) more characters)"
    }

    /// A tuple's label (`.0` for an unlabelled element).
    private static func tupleLabel(_ label: String) -> String {
        label.hasPrefix(".") ? String(label.dropFirst()) : label
    }
}

extension StateText {
    /// An event, output or error as an entry's text: its description, cut
    /// at 4,000 characters.
    static func described(_ value: some Any) -> String {
        clipped(String(describing: value), to: 4_000)
    }
}
