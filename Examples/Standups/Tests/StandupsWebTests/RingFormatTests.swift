// The meeting's ring draws its arcs with numbers to one decimal, written
// without Foundation's formatting (it is drawn at every tick of every
// meeting): the same text `String(format: "%.1f")` gives, but for a
// negative zero, which is written as zero.

import Testing

@testable import StandupsWebViews

@Suite("The meeting ring's numbers")
struct RingFormatTests {
    @Test(arguments: [
        (0.0, "0.0"), (0.2, "0.2"), (12.34, "12.3"), (12.36, "12.4"), (99.96, "100.0"), (100, "100.0"),
        (-0.04, "0.0"), (-0.06, "-0.1"), (-33.35, "-33.4"), (-66.6, "-66.6"),
    ])
    func oneDecimal(value: Double, text: String) {
        #expect(MainWebView.Turn.format(value) == text)
    }
}
