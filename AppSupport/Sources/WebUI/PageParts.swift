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

    static let opening = Array("<oak-part data-key=\"".utf8)
    static let closing = Array("</oak-part>".utf8)

    /// Splits `content`; `nil` when its parts are malformed (a part inside
    /// a part, a part not closed, two parts with one key), and the page
    /// is then always sent whole.
    ///
    /// Every open page splits every push: the work is done on the content's
    /// UTF-8 bytes, and hashes its bytes as they are (no Unicode
    /// normalisation: the host renders the same text the same way).
    public init?(_ content: String) {
        var contiguous = content
        contiguous.makeContiguousUTF8()
        let split = contiguous.utf8.withContiguousStorageIfAvailable { Self.split($0) } ?? nil
        guard let (frame, found) = split else { return nil }
        let utf8 = content.utf8
        self.frame = frame
        self.parts = found.map { part in
            let lower = utf8.index(utf8.startIndex, offsetBy: part.bytes.lowerBound)
            let upper = utf8.index(utf8.startIndex, offsetBy: part.bytes.upperBound)
            return Part(key: part.key, hash: part.hash, range: lower..<upper)
        }
    }

    /// The frame's hash and the parts (their byte ranges) of `bytes`, or
    /// `nil` when its parts are malformed.
    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (frame: Int, parts: [(key: String, hash: Int, bytes: Range<Int>)])? {
        var frame = Hasher()
        var parts: [(key: String, hash: Int, bytes: Range<Int>)] = []
        var keys: Set<String> = []
        var rest = 0
        func combine(_ hasher: inout Hasher, _ range: Range<Int>) {
            hasher.combine(range.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
        }
        while let start = find(opening, in: bytes, within: rest..<bytes.count) {
            let keyStart = start + opening.count
            guard let keyEnd = bytes[keyStart...].firstIndex(of: UInt8(ascii: "\"")),
                let close = find(closing, in: bytes, within: keyEnd..<bytes.count),
                // Nested parts are not parts.
                find(opening, in: bytes, within: keyEnd..<close) == nil
            else { return nil }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]), as: UTF8.self)
            guard keys.insert(key).inserted else { return nil }
            combine(&frame, rest..<start)
            frame.combine(key)
            var hash = Hasher()
            combine(&hash, keyEnd..<close)
            parts.append((key, hash.finalize(), start..<(close + closing.count)))
            rest = close + closing.count
        }
        combine(&frame, rest..<bytes.count)
        return (frame.finalize(), parts)
    }

    /// Where `pattern` first starts in `bytes` within `range`, if it does.
    private static func find(
        _ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, within range: Range<Int>
    )
        -> Int?
    {
        guard let first = pattern.first, range.count >= pattern.count else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - pattern.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
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
