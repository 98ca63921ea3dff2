// Pages rendered once and shared: what many sessions show alike (a
// meeting's room, a list of favourites) is rendered by the first session
// that needs it and reused by every other, whose token is put into the page
// only as it is sent.

import Synchronization

/// Renderings of what many sessions show alike, shared by every session of
/// a host (``WebContext/shared(_:render:)``): keyed by what they show,
/// bounded in number (the oldest go first).
///
/// A shared rendering carries no session's token: its forms carry
/// ``WebContext/tokenPlaceholder``, which the host replaces with the
/// session's token as it sends the page.
public final class WebRenderCache: Sendable {
    /// The renderings of one type of key: looked up by the key itself, not
    /// boxed in an `AnyHashable` (every open page of a room looks its
    /// rendering up at every tick). Used only under the cache's lock.
    private final class Renderings<Key: Hashable> {
        var values: [Key: HTML] = [:]
    }

    private struct Entries {
        /// The renderings of each type of key, by the key's type.
        var stores: [ObjectIdentifier: AnyObject] = [:]
        /// How to remove each kept rendering, oldest first (a ring of
        /// `capacity`: one entry per rendering kept).
        var order: [() -> Void] = []
        var next = 0
        var hits = 0
        var misses = 0

        mutating func store<Key: Hashable>(for _: Key.Type) -> Renderings<Key> {
            if let store = stores[ObjectIdentifier(Key.self)] as? Renderings<Key> { return store }
            let store = Renderings<Key>()
            stores[ObjectIdentifier(Key.self)] = store
            return store
        }
    }

    /// How many renderings are kept at most.
    public let capacity: Int
    private let entries = Mutex(Entries())

    /// A cache of at most `capacity` renderings (at least 1).
    public init(capacity: Int = 1_024) {
        self.capacity = max(capacity, 1)
    }

    /// The rendering of `key`, made by `render` if it is not kept.
    public func rendering<Key: Hashable & Sendable>(of key: Key, render: () -> HTML) -> HTML {
        if let kept = entries.withLock({ entries -> HTML? in
            let kept = entries.store(for: Key.self).values[key]
            if kept == nil { entries.misses += 1 } else { entries.hits += 1 }
            return kept
        }) {
            return kept
        }
        let rendered = render()
        entries.withLock { entries in
            let store = entries.store(for: Key.self)
            guard store.values.updateValue(rendered, forKey: key) == nil else { return }
            let remove: () -> Void = { [weak store] in store?.values[key] = nil }
            if entries.order.count < capacity {
                entries.order.append(remove)
            } else {
                entries.order[entries.next]()
                entries.order[entries.next] = remove
                entries.next = (entries.next + 1) % capacity
            }
        }
        return rendered
    }

    /// How many renderings were reused and how many made (for load tests).
    public var counts: (hits: Int, misses: Int) { entries.withLock { ($0.hits, $0.misses) } }

    /// How many renderings are kept.
    public var count: Int { entries.withLock { $0.order.count } }

    /// `page`, rendered to share, as the session whose token is `token`
    /// gets it: every ``WebContext/tokenPlaceholder`` replaced. `token` is
    /// markup (``WebContext/token``), escaped once for the session, not for
    /// every page it is sent.
    public static func page(_ page: String, token: HTML) -> String {
        var page = page
        page.makeContiguousUTF8()
        let result = page.utf8.withContiguousStorageIfAvailable { bytes -> [UInt8]? in
            let placeholder = placeholderBytes
            // Most pushes (a meeting's parts) have no form: nothing to replace.
            guard bytes.contains(placeholder[0]) else { return nil }
            let replacement = token.rendered.utf8
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 8 * replacement.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == placeholder[0], bytes[index...].starts(with: placeholder) {
                    result.append(contentsOf: replacement)
                    index += placeholder.count
                } else {
                    result.append(bytes[index])
                    index += 1
                }
            }
            return result
        }
        guard let result = result ?? nil else { return page }
        return String(decoding: result, as: UTF8.self)
    }

    /// ``WebContext/tokenPlaceholder``'s bytes.
    private static let placeholderBytes = Array(WebContext.tokenPlaceholder.rendered.utf8)
}
