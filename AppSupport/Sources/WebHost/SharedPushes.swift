// What the open pages that show the same share: a content's split at its
// parts, and the event that takes a page from one content to the next. A
// meeting's ten viewers get the same parts at each tick, a thousand
// sessions the same favourites list: the split and the event are made by
// the first page that needs them and written by every other as they are.

import Foundation
import NIOCore
import Synchronization
import WebUI

/// The splits and events shared by the open pages of one host, bounded in
/// number and in bytes (the oldest go first).
final class SharedPushes: Sendable {
    /// What a page remembers of the content it was sent: its split at its
    /// parts (hashes and ranges; `nil`: malformed, sent whole), and a
    /// number that names the content among the splits kept (a
    /// transition's key). Not the content: a page that shows what no other
    /// does holds no copy of it.
    final class Split: Sendable {
        let parts: PageParts?
        let serial: UInt64

        init(parts: PageParts?, serial: UInt64) {
            self.parts = parts
            self.serial = serial
        }
    }

    /// What takes a page from one split to another: nothing (nothing it
    /// shows changed), or an event without its `id` line.
    enum Push: Sendable {
        case nothing
        case event(ByteBuffer)
    }

    private struct Transition: Hashable {
        var from: UInt64
        var to: UInt64
    }

    /// A content as a key: hashed and compared as UTF-8 bytes (a
    /// `String`'s own hashing normalises Unicode, several times slower on
    /// a page with any character beyond ASCII; the host renders the same
    /// text the same way).
    private struct ContentKey: Hashable {
        var content: String

        init(_ content: String) {
            self.content = content
            self.content.makeContiguousUTF8()
        }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = content.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
            if hashed == nil { hasher.combine(content) }
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            let equal = lhs.content.utf8.withContiguousStorageIfAvailable { left in
                rhs.content.utf8.withContiguousStorageIfAvailable { right in
                    guard left.count == right.count else { return false }
                    // No address: both are empty.
                    guard let first = left.baseAddress, let second = right.baseAddress, first != second else {
                        return true
                    }
                    return memcmp(first, second, left.count) == 0
                }
            }
            return (equal ?? nil) ?? lhs.content.utf8.elementsEqual(rhs.content.utf8)
        }
    }

    private struct Memo {
        var splits: BoundedMemo<ContentKey, Split>
        var pushes: BoundedMemo<Transition, Push>
        var serial: UInt64 = 0
    }

    private let memo: Mutex<Memo>

    /// Splits and pushes kept: at most `capacity` of each, of at most
    /// `maxBytes` of content each.
    init(capacity: Int = 512, maxBytes: Int = 4 << 20) {
        memo = Mutex(
            Memo(
                splits: BoundedMemo(capacity: capacity, maxCost: maxBytes),
                pushes: BoundedMemo(capacity: capacity, maxCost: maxBytes)))
    }

    /// The split of `content`: kept, or made and kept.
    func split(_ content: String) -> Split {
        let key = ContentKey(content)
        if let kept = memo.withLock({ $0.splits[key] }) { return kept }
        let parts = PageParts(key.content)
        return memo.withLock { memo in
            // Made meanwhile by another page: theirs, so that the
            // transitions of both are one.
            if let kept = memo.splits[key] { return kept }
            memo.serial &+= 1
            let split = Split(parts: parts, serial: memo.serial)
            memo.splits.keep(split, for: key, cost: content.utf8.count)
            return split
        }
    }

    /// What takes a page that was sent `previous` (`nil`: nothing yet) to
    /// `next`, the split of `content`: the changed parts alone (an unnamed
    /// event) when only parts changed, else the whole content (a `page`
    /// event). `content` may be another string than the one split, of the
    /// same bytes: the split's ranges are UTF-8 offsets into either.
    func push(from previous: Split?, to next: Split, content: String) -> Push {
        guard let previous else { return .event(Self.event(content, name: "page")) }
        let transition = Transition(from: previous.serial, to: next.serial)
        if let kept = memo.withLock({ $0.pushes[transition] }) { return kept }
        let push: Push
        if let parts = next.parts, let before = previous.parts, let changed = parts.changedParts(since: before) {
            push = changed.isEmpty ? .nothing : .event(Self.event(changed.map { content[$0] }.joined(), name: nil))
        } else {
            push = .event(Self.event(content, name: "page"))
        }
        let cost: Int
        switch push {
        case .nothing: cost = 0
        case .event(let bytes): cost = bytes.readableBytes
        }
        memo.withLock { $0.pushes.keep(push, for: transition, cost: cost) }
        return push
    }

    /// How many splits and pushes are kept (for tests).
    var counts: (splits: Int, pushes: Int) { memo.withLock { ($0.splits.count, $0.pushes.count) } }

    /// One Server-Sent Event whose data is `content`, without its `id`
    /// line: named `name` (`page`: the whole content), or unnamed (`nil`:
    /// a `message`, the changed parts — the event a meeting sends every
    /// second goes without the 13 bytes of a name).
    static func event(_ content: String, name: String?) -> ByteBuffer {
        // One pass over the bytes, each line led by "data: ", carriage
        // returns dropped; the runs between line breaks are copied whole.
        var content = content
        content.makeContiguousUTF8()
        var buffer = ByteBufferAllocator().buffer(capacity: content.utf8.count + 32)
        if let name { buffer.writeString("event: \(name)\n") }
        buffer.writeStaticString("data: ")
        let copied: Void? = content.utf8.withContiguousStorageIfAvailable { content in
            var start = 0
            for index in content.indices
            where content[index] == UInt8(ascii: "\n") || content[index] == UInt8(ascii: "\r") {
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: content[start..<index])))
                if content[index] == UInt8(ascii: "\n") { buffer.writeStaticString("\ndata: ") }
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: content[start...])))
        }
        if copied == nil {
            for byte in content.utf8 {
                switch byte {
                case UInt8(ascii: "\r"): continue
                case UInt8(ascii: "\n"): buffer.writeStaticString("\ndata: ")
                default: buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeStaticString("\n\n")
        return buffer
    }
}

/// Values kept by key, at most `capacity` of them and at most `maxCost`
/// in all: the oldest go first. A value that costs more than a quarter of
/// `maxCost` is not kept.
struct BoundedMemo<Key: Hashable, Value> {
    private var values: [Key: (value: Value, cost: Int)] = [:]
    /// The keys in the order they were kept: a ring of `capacity` slots,
    /// the oldest at `next` or after it.
    private var order: [Key?]
    private var next = 0
    private var cost = 0
    let maxCost: Int

    init(capacity: Int, maxCost: Int) {
        order = Array(repeating: nil, count: max(capacity, 1))
        self.maxCost = maxCost
    }

    var count: Int { values.count }

    subscript(key: Key) -> Value? { values[key]?.value }

    /// Keeps `value` for `key` (not kept already), unless it costs too much.
    mutating func keep(_ value: Value, for key: Key, cost: Int) {
        guard cost <= maxCost / 4, values[key] == nil else { return }
        evict(at: next)
        order[next] = key
        next = (next + 1) % order.count
        values[key] = (value, cost)
        self.cost += cost
        var oldest = next
        while self.cost > maxCost {
            evict(at: oldest)
            oldest = (oldest + 1) % order.count
        }
    }

    private mutating func evict(at slot: Int) {
        guard let key = order[slot] else { return }
        order[slot] = nil
        cost -= values.removeValue(forKey: key)?.cost ?? 0
    }
}
