import IssueReporting

/// Where a tester method was called: failures are reported there.
struct CallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Reports `message` as a test failure at this place.
    func fail(_ message: String) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reports `message` at this place as a known issue: listed, not failing.
    func note(_ message: String) {
        withExpectedIssue(message, fileID: fileID, filePath: filePath, line: line, column: column) {
            reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }
}
