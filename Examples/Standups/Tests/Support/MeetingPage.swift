// What the tests read of a pushed meeting page.

/// The seconds a pushed meeting page shows as elapsed, if it shows one.
public func elapsedSeconds(in page: String) -> Int? {
    guard let range = page.range(of: "data-elapsed=\"") else { return nil }
    return Int(page[range.upperBound...].prefix { $0.isNumber })
}
