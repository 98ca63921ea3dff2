// What open pages that show the same share: one split per content and one
// event per transition, whatever the number of pages, within bounds; and a
// session's listeners, told of a change from any isolation.

import NIOCore
import Testing
import WebUI

@testable import WebHost

@Suite("Shared pushes")
struct SharedPushesTests {
    static func page(clock: String, speaker: String = "Ann") -> String {
        let html: HTML =
            "<h2>\(speaker)</h2><p>\(HTML.part("clock", "\(clock)"))</p><p>\(HTML.part("left", "4:00"))</p>"
        return html.rendered
    }

    static func text(_ push: SharedPushes.Push) -> String? {
        guard case .event(let bytes) = push else { return nil }
        return String(buffer: bytes)
    }

    @Test func pagesThatShowTheSameShareOneSplitAndOneEvent() throws {
        let pushes = SharedPushes()
        // Ten pages, each rendering its own copy of the same two contents.
        var events: Set<String> = []
        for _ in 0..<10 {
            let before = pushes.split(Self.page(clock: "0:01"))
            events.insert(try #require(Self.text(pushes.push(from: before, toContent: Self.page(clock: "0:02")))))
        }
        #expect(pushes.counts == (splits: 2, pushes: 1))
        #expect(events == ["data: <oak-part data-key=\"clock\">0:02</oak-part>\n\n"])
    }

    @Test func aPageIsSentWholeFirstOnAChangeOutsideItsPartsAndNothingWhenNothingChanged() throws {
        let pushes = SharedPushes()
        let first = pushes.split(Self.page(clock: "0:01"))
        #expect(
            Self.text(pushes.push(from: nil, toContent: Self.page(clock: "0:01")))?.hasPrefix(
                "event: page\ndata: <h2>Ann</h2>") == true)
        let otherSpeaker = Self.page(clock: "0:01", speaker: "Bo")
        #expect(
            Self.text(pushes.push(from: first, toContent: otherSpeaker))?.hasPrefix("event: page\ndata: <h2>Bo</h2>")
                == true)
        guard case .nothing = pushes.push(from: first, toContent: Self.page(clock: "0:01")) else {
            Issue.record("The same content again sends nothing.")
            return
        }
        // Malformed parts (one inside another): always whole.
        let nested = "<oak-part data-key=\"a\"><oak-part data-key=\"b\">1</oak-part></oak-part>"
        let malformed = pushes.split(nested)
        #expect(malformed.parts == nil)
        #expect(
            Self.text(pushes.push(from: malformed, toContent: nested + " "))
                == "event: page\ndata: \(nested) \n\n")
    }

    @Test func whatIsKeptIsBoundedInNumberAndInBytes() {
        let pushes = SharedPushes(capacity: 4, maxBytes: 4_000)
        var previous: SharedPushes.Split?
        for second in 0..<100 {
            let content = Self.page(clock: "0:\(second)")
            let split = pushes.split(content)
            _ = pushes.push(from: previous, to: split, content: content)
            previous = split
        }
        #expect(pushes.counts.splits == 4)
        #expect(pushes.counts.pushes == 4)
        // A content larger than a quarter of the bytes is split for its page
        // alone; what is kept stays within the bytes.
        let large = String(repeating: "x", count: 1_001)
        let once = pushes.split(large)
        #expect(pushes.split(large) !== once)
        var memo = BoundedMemo<Int, Int>(capacity: 10, maxCost: 100)
        for key in 0..<10 { memo.keep(key, for: key, cost: 20) }
        #expect(memo.count == 5)
        #expect(memo[9] == 9 && memo[5] == 5 && memo[4] == nil)
    }

    @Test func aSplitNamesItsContentAlsoOnceItIsNoLongerKept() throws {
        // A page keeps the split it was sent; after that split left the
        // memo, the same content split again is another split, and the
        // transitions from the kept one stay right.
        let pushes = SharedPushes(capacity: 1)
        let first = pushes.split(Self.page(clock: "0:01"))
        _ = pushes.split(Self.page(clock: "0:02"))
        let again = pushes.split(Self.page(clock: "0:01"))
        #expect(again !== first && again.serial != first.serial)
        guard case .nothing = pushes.push(from: first, to: again, content: Self.page(clock: "0:01")) else {
            Issue.record("Equal contents send nothing.")
            return
        }
        #expect(
            Self.text(pushes.push(from: first, toContent: Self.page(clock: "0:03")))?.contains("0:03") == true)
    }
}

extension SharedPushes {
    /// The push from `previous` to `content`, split here.
    func push(from previous: Split?, toContent content: String) -> Push {
        push(from: previous, to: split(content), content: content)
    }
}

@Suite("A session's page listeners", .timeLimit(.minutes(1)))
struct PageListenersTests {
    @Test func changesToldFromManyTasksAtOnceLeaveEveryPageWithTheLatestVersion() async {
        let listeners = PageListeners()
        let pages = (0..<8).map { _ in listeners.listen(isPage: true) }
        #expect(listeners.openPages == 8)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<250 { listeners.changed() } }
            }
        }
        #expect(listeners.version == 2_000)
        // Each page holds at most one signal: the latest.
        listeners.end()
        for page in pages {
            var signals: [PageSignal] = []
            for await signal in page.stream { signals.append(signal) }
            guard signals.count == 1, case .changed(let version) = signals[0] else {
                Issue.record("A page that did not read holds the latest change only: \(signals)")
                continue
            }
            #expect(version == 2_000)
        }
        #expect(listeners.openPages == 0)
    }

    @Test func anEndedOrStoppingSessionTellsNothingAndTakesNoListener() async {
        let listeners = PageListeners()
        let page = listeners.listen(isPage: true)
        listeners.tellStopping()
        listeners.changed()
        #expect(listeners.version == 0)
        listeners.end()
        var signals: [PageSignal] = []
        for await signal in page.stream { signals.append(signal) }
        guard signals.count == 1, case .stopping = signals[0] else {
            Issue.record("Stopping is the last thing told: \(signals)")
            return
        }
        let late = listeners.listen(isPage: true)
        for await _ in late.stream { Issue.record("An ended session tells a late page nothing.") }
        #expect(listeners.openPages == 0)
    }

    /// A page opened beyond the limit replaces the oldest: that one is told
    /// so and its stream ends; a listener that is no page never counts.
    @Test func aPageBeyondTheLimitReplacesTheOldest() async {
        let listeners = PageListeners(maxOpenPages: 2)
        let first = listeners.listen(isPage: true)
        let waiter = listeners.listen(isPage: false)
        let second = listeners.listen(isPage: true)
        let third = listeners.listen(isPage: true)
        #expect(listeners.openPages == 2)
        var signals: [PageSignal] = []
        for await signal in first.stream { signals.append(signal) }
        guard signals.count == 1, case .replaced = signals[0] else {
            Issue.record("The oldest page is told it was replaced, then its stream ends: \(signals)")
            return
        }
        // Its end, told again (its connection closes): nothing more changes.
        listeners.remove(first.id)
        #expect(listeners.openPages == 2)
        listeners.changed()
        listeners.remove(second.id)
        #expect(listeners.openPages == 1)
        let fourth = listeners.listen(isPage: true)
        #expect(listeners.openPages == 2)
        listeners.end()
        for page in [third, waiter] {
            var signals: [PageSignal] = []
            for await signal in page.stream { signals.append(signal) }
            guard signals.count == 1, case .changed(version: 1) = signals[0] else {
                Issue.record("The pages still open and the waiter hear the change: \(signals)")
                continue
            }
        }
        for await signal in fourth.stream { Issue.record("Nothing was told after the fourth opened: \(signal)") }
    }

    @Test func aPageThatGoesAwayIsNoLongerCountedAndWaitersAreReleased() async {
        let listeners = PageListeners()
        async let two: Void = listeners.waitForOpenPages(2)
        let first = listeners.listen(isPage: true)
        _ = listeners.listen(isPage: false)
        let second = listeners.listen(isPage: true)
        await two
        async let one: Void = listeners.waitForOpenPages(1)
        listeners.remove(first.id)
        await one
        listeners.remove(second.id)
        #expect(listeners.openPages == 0)
    }
}
