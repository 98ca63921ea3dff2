// The parts of a page that a push may replace alone (`HTML.part`), and a
// page's content split at them (`PageParts`), so that the host sends an open
// page only the parts that changed — a meeting's clock, not the meeting.

extension HTML {
    /// A part of a page that changes on its own — a clock, a counter, a
    /// transcript — marked so that the host can push it alone: once a page
    /// is open, a change inside parts only sends those parts; any other
    /// change sends the whole page again.
    ///
    /// ```swift
    /// "<p>Elapsed \(HTML.part("elapsed", "\(minutes):\(seconds)"))</p>"
    /// // <p>Elapsed <oak-part data-key="elapsed">1:05</oak-part></p>
    /// ```
    ///
    /// The key names the part on the page: give each part of a page its own
    /// (letters, digits, `-` and `_`). Parts do not nest: a part inside a
    /// part makes the page push whole. The element (`oak-part`) takes no
    /// room of its own (`display: contents`).
    public static func part(_ key: String, _ content: HTML) -> HTML {
        "<oak-part data-key=\"\(key)\">\(content)</oak-part>"
    }
}

/// A page's content split at its parts (``HTML/part(_:_:)``): the markup
/// between them (the frame) and each part, in order.
///
/// Only hashes are kept, so that an open page remembers what it was sent
/// in a few words per part: ``changedParts(since:)`` compares them.
public struct PageParts: Sendable {
    /// One part: its key, the hash of its markup, and where its markup
    /// (the whole `oak-part` element) lies in the content.
    struct Part: Sendable {
        var key: String
        var hash: Int
        var range: Range<String.Index>
    }

    /// The hash of the frame: the content with every part's inside left out.
    let frame: Int
    let parts: [Part]

    static let opening = "<oak-part data-key=\""
    static let closing = "</oak-part>"

    /// Splits `content`; `nil` when its parts are malformed (a part inside
    /// a part, a part not closed, two parts with one key), and the page
    /// is then always sent whole.
    public init?(_ content: String) {
        var frame = Hasher()
        var parts: [Part] = []
        var keys: Set<String> = []
        var rest = content.startIndex
        while let start = content[rest...].firstRange(of: Self.opening) {
            guard let keyEnd = content[start.upperBound...].firstIndex(of: "\""),
                let close = content[keyEnd...].firstRange(of: Self.closing)
            else { return nil }
            let inner = content[keyEnd..<close.lowerBound]
            // Nested parts are not parts.
            guard !inner.contains(Self.opening) else { return nil }
            let key = String(content[start.upperBound..<keyEnd])
            guard keys.insert(key).inserted else { return nil }
            frame.combine(content[rest..<start.lowerBound])
            frame.combine(key)
            var hash = Hasher()
            hash.combine(inner)
            parts.append(Part(key: key, hash: hash.finalize(), range: start.lowerBound..<close.upperBound))
            rest = close.upperBound
        }
        frame.combine(content[rest...])
        self.frame = frame.finalize()
        self.parts = parts
    }

    /// Whether the page has parts at all.
    public var isEmpty: Bool { parts.isEmpty }

    /// The ranges, in this split's content, of the parts that differ from
    /// `previous`: empty when nothing changed; `nil` when more than parts
    /// changed (the frame, or which parts there are), and the page must be
    /// sent whole.
    public func changedParts(since previous: PageParts) -> [Range<String.Index>]? {
        guard frame == previous.frame, parts.count == previous.parts.count else { return nil }
        var changed: [Range<String.Index>] = []
        for (part, before) in zip(parts, previous.parts) {
            guard part.key == before.key else { return nil }
            if part.hash != before.hash { changed.append(part.range) }
        }
        return changed
    }
}
