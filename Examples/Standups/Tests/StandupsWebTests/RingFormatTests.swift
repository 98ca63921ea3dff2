// The meeting's ring draws its arcs with numbers to one decimal, written
// without Foundation's formatting (it is drawn at every tick of every
// meeting): the text `String(format: "%.1f")` gives, but for a negative
// zero, written as zero, and a value exactly halfway, rounded away from
// zero (0.25: "0.3"); a value that is not finite is drawn as zero
// instead of stopping the server.

import Testing

@testable import StandupsWebViews

@Suite("The meeting ring's numbers")
struct RingFormatTests {
    @Test(arguments: [
        (0.0, "0.0"), (0.2, "0.2"), (12.34, "12.3"), (12.36, "12.4"), (99.96, "100.0"), (100, "100.0"),
        (-0.04, "0.0"), (-0.06, "-0.1"), (-33.35, "-33.4"), (-66.6, "-66.6"), (0.25, "0.3"),
        (.nan, "0.0"), (.infinity, "0.0"), (-.infinity, "0.0"), (1e300, "1000000000.0"),
    ])
    func oneDecimal(value: Double, text: String) {
        #expect(MainWebView.Turn.format(value) == text)
    }
}
