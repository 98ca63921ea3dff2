// Helpers of the Oak-spelling tests. The tests themselves are written the way
// code written against Oak 0.34 is written: only Oak's spellings, no
// project-specific API.

import Oak
import Observation

/// Collects values on the actor that uses it and lets a test wait for a
/// number of them without sleeping.
actor Collector<Value: Sendable> {
    private(set) var values: [Value] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []

    func append(_ value: Value) {
        values.append(value)
        let ready = waiters.filter { $0.count <= values.count }
        waiters.removeAll { $0.count <= values.count }
        for waiter in ready { waiter.continuation.resume(returning: values) }
    }

    /// Returns the values once there are at least `count`.
    func wait(for count: Int) async -> [Value] {
        if values.count >= count { return values }
        return await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

/// A one-shot signal: `wait()` returns once `open()` was called.
actor Latch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// A global actor for tests that run transducers off the main actor.
@globalActor
actor TestGlobalActor {
    static let shared = TestGlobalActor()
}

/// Runs `action` and returns once `host.state` has been written, as an app
/// observes it (Observation).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
func stateChange<T>(of host: ObservableTransducer<T>, after action: () throws -> Void) async throws {
    let changed = Latch()
    withObservationTracking {
        _ = host.state
    } onChange: {
        Task { await changed.open() }
    }
    try action()
    await changed.wait()
}
