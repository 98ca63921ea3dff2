import Testing
import WebUI

@Suite("HTML escapes what it interpolates")
struct HTMLTests {
    @Test func textIsEscapedMarkupIsNot() {
        let title = "<script>alert(\"x\")</script> & 'y'"
        let bold: HTML = "<b>\(title)</b>"
        #expect(bold.rendered == "<b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</b>")
        let outer: HTML = "<p>\(bold)</p>"
        #expect(outer.rendered == "<p>\(bold.rendered)</p>")
    }

    @Test func controlCharactersAreDropped() {
        #expect(HTML.escape("a\u{1B}[31mb\u{07}\tc\nd") == "a[31mb\tc\nd")
    }

    @Test func aFormCarriesTheTokenAndTheKeyEscaped() {
        let form = WebContext(token: "t\"k").button("Next <", key: "comics.next:\"7")
        #expect(form.rendered.contains("name=\"token\" value=\"t&quot;k\""))
        #expect(form.rendered.contains("name=\"intent\" value=\"comics.next:&quot;7\""))
        #expect(form.rendered.contains(">Next &lt;</button>"))
    }
}
