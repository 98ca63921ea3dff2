import Testing
import WebUI

@Suite("Renderings shared between sessions")
struct WebRenderCacheTests {
    struct Meeting: Hashable, Sendable { var elapsed: Int }
    struct List: Hashable, Sendable { var elapsed: Int }

    @Test func whatIsShownAlikeIsRenderedOnce() {
        let cache = WebRenderCache()
        var renders = 0
        func page(_ key: Meeting) -> String {
            WebContext(sharingThrough: cache).shared(key) {
                renders += 1
                return "<p>\(key.elapsed)</p>"
            }.rendered
        }
        #expect(page(Meeting(elapsed: 1)) == "<p>1</p>")
        #expect(page(Meeting(elapsed: 1)) == "<p>1</p>")
        #expect(page(Meeting(elapsed: 2)) == "<p>2</p>")
        #expect(renders == 2)
        #expect(cache.counts == (hits: 1, misses: 2))
    }

    @Test func keysOfTwoViewsNeverMeet() {
        let cache = WebRenderCache()
        let context = WebContext(sharingThrough: cache)
        #expect(context.shared(Meeting(elapsed: 1)) { "meeting" }.rendered == "meeting")
        #expect(context.shared(List(elapsed: 1)) { "list" }.rendered == "list")
    }

    @Test func theOldestRenderingsGoFirst() {
        let cache = WebRenderCache(capacity: 2)
        let context = WebContext(sharingThrough: cache)
        for elapsed in 1...3 { _ = context.shared(Meeting(elapsed: elapsed)) { "\(elapsed)" } }
        #expect(cache.count == 2)
        var rendered: [Int] = []
        for elapsed in [3, 2, 1] {
            _ = context.shared(Meeting(elapsed: elapsed)) {
                rendered.append(elapsed)
                return ""
            }
        }
        #expect(rendered == [1])  // 1 was the oldest
        #expect(cache.count == 2)
    }

    @Test func theOldestGoFirstWhateverTheTypeOfTheirKeys() {
        let cache = WebRenderCache(capacity: 2)
        let context = WebContext(sharingThrough: cache)
        _ = context.shared(Meeting(elapsed: 1)) { "meeting" }
        _ = context.shared(List(elapsed: 1)) { "list" }
        _ = context.shared(List(elapsed: 2)) { "list 2" }
        #expect(cache.count == 2)
        var rendered: [String] = []
        _ = context.shared(List(elapsed: 1)) {
            rendered.append("list")
            return ""
        }
        _ = context.shared(Meeting(elapsed: 1)) {
            rendered.append("meeting")
            return ""
        }
        #expect(rendered == ["meeting"])  // the meeting was the oldest
        #expect(cache.count == 2)
    }

    @Test func aContextThatKeepsBindingsAlwaysRenders() {
        let context = WebContext(token: "t")
        var renders = 0
        for _ in 1...2 {
            _ = context.shared(Meeting(elapsed: 1)) {
                renders += 1
                return context.button("Next", key: "next")
            }
        }
        #expect(renders == 2)
    }

    @Test func aSharedPageGetsEachSessionsTokenAsItIsSent() {
        let context = WebContext(sharingThrough: WebRenderCache())
        let typed = "oak-token \u{1}oak-token\u{1} <b>"
        let page = context.shared(Meeting(elapsed: 1)) {
            "\(context.button("Next", key: "next"))<p>\(typed)</p>\(context.microphone("mic"))"
        }.rendered
        #expect(!page.contains("value=\"t1\""))
        let first = WebRenderCache.page(page, token: "\("t1")")
        let second = WebRenderCache.page(page, token: "\("t\"2")")
        #expect(first.contains("name=\"token\" value=\"t1\"") && first.contains("data-token=\"t1\""))
        #expect(second.contains("name=\"token\" value=\"t&quot;2\""))
        // Text typed by a user cannot make a placeholder: its control
        // characters are dropped as it is escaped.
        #expect(first.contains("<p>oak-token oak-token &lt;b&gt;</p>"))
        #expect(!first.contains("\u{1}"))
        #expect(WebRenderCache.page("<p>no form</p>", token: "\("t1")") == "<p>no form</p>")
    }
}
