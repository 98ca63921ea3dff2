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
        #expect(HTML.escape("\u{7F}x\u{85}y\u{9F}z\u{0}") == "xyz")
        #expect(HTML.escape("£ 5\u{A0}é ✓ 🍕") == "£ 5\u{A0}é ✓ 🍕")
        #expect(HTML.escape("plain") == "plain")
        #expect(HTML.escape("") == "")
    }

    @Test func escapingAgreesWithUnicodesDefinitionOfEveryCharacter() {
        // Every scalar of the first planes' samples, alone and among text:
        // the same as escaping scalar by scalar with Unicode's categories.
        func reference(_ text: String) -> String {
            var escaped = ""
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
        let scalars = (0..<0x800).compactMap(Unicode.Scalar.init) + ["\u{1F355}", "\u{FFFD}", "\u{2028}"]
        for scalar in scalars {
            let text = "a\(scalar)<\(scalar)\(scalar)b"
            #expect(HTML.escape(text) == reference(text), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func aFormCarriesTheTokenAndTheKeyEscaped() {
        let form = WebContext(token: "t\"k").button("Next <", key: "comics.next:\"7")
        #expect(form.rendered.contains("name=\"token\" value=\"t&quot;k\""))
        #expect(form.rendered.contains("name=\"intent\" value=\"comics.next:&quot;7\""))
        #expect(form.rendered.contains(">Next &lt;</button>"))
    }
}
