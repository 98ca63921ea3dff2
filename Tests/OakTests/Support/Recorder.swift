/// A thread-safe list of values, for collecting what callbacks and effects see.
///
/// Guarded by ``Locked`` (an `NSLock`) rather than `Synchronization.Mutex`,
/// which ThreadSanitizer cannot see on Linux.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] { storage.withLock { $0 } }
}
