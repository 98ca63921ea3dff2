import CustomDump
import Oak

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservableTransducer {
    /// Waits until `condition` holds of the host's state, without polling:
    /// it is checked again whenever the state changes, or something it read
    /// of a child's or a shared run's state (`Child.state`) does.
    ///
    /// For tests of a host as an app drives it (keys pressed on a screen
    /// made from the host); a test of the transducer itself uses
    /// ``TransducerTester/wait(until:timeout:isolation:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// let host = ObservableTransducer<Main>(initialState: Main.State(), env: .mock)
    /// await host.wait { $0.comics?.state.phase == .showing(.mock(10)) }
    /// ```
    ///
    /// - Parameters:
    ///   - condition: What must hold of the state.
    ///   - timeout: How long to wait before failing the test at the line of
    ///     the call, with the state last seen.
    ///   - fileID: Where a failure is reported: the caller's file by default.
    ///   - filePath: The caller's file path by default.
    ///   - line: The caller's line by default.
    ///   - column: The caller's column by default.
    /// - Returns: Whether the condition held in time.
    @discardableResult
    public func wait(
        until condition: @escaping (Transducer.State) -> Bool,
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> Bool {
        let (changes, changed) = AsyncStream<Bool>.makeStream(bufferingPolicy: .unbounded)
        // The bound: the only thing here that waits for real time.
        let limit = Task {
            try? await Task.sleep(for: timeout)
            changed.yield(false)
        }
        defer { limit.cancel() }
        var iterator = changes.makeAsyncIterator()
        while true {
            let holds = withStateTracking {
                condition(state)
            } onChange: {
                changed.yield(true)
            }
            if holds { return true }
            guard await iterator.next() == true else { break }
        }
        CallSite(fileID, filePath, line, column).fail(
            "The condition did not hold of the host's state within \(timeout). The last state:\n\n"
                + String(customDumping: state).indent(by: 4))
        return false
    }
}
