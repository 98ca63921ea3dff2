/// How strictly a ``TransducerTester`` checks a run.
public enum Exhaustivity: Equatable, Sendable {
    /// Every state change, every received event, every output and every
    /// operation must be asserted; anything left over fails the test. The
    /// default.
    case on
    /// Only what the test asserts is checked: a state assertion checks the
    /// fields it sets, `receive` skips events until one matches, and events,
    /// outputs and operations left over are not failures. With
    /// `showSkippedAssertions`, what was skipped is reported as known issues,
    /// so that a test run lists it without failing.
    case off(showSkippedAssertions: Bool)

    /// Non-exhaustive, without reporting what was skipped.
    public static var off: Self { .off(showSkippedAssertions: false) }
}
