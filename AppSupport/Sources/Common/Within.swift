// A limit on how long to wait for work that may not end when cancelled (a
// statement on a connection the server killed, a store that does not
// answer while a process stops): the caller gets on at the limit.

import Synchronization

/// The value of `body`, or `nil` when `limit` passed first.
///
/// Returns at `limit` even when `body` does not end when it is cancelled: a
/// task group would wait for it, so `body` runs in a task of its own, which
/// is cancelled at the limit (or when the caller is cancelled) and left to
/// end on its own.
///
/// ```swift
/// if await within(.seconds(2), { await meetings.stop() }) == nil {
///     logger.error("The meetings did not stop within 2 seconds.")
/// }
/// ```
public func within<Value: Sendable, Failure: Error>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws(Failure) -> Value
) async throws(Failure) -> Value? {
    let work = Task { () async -> Result<Value, Failure> in
        do throws(Failure) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
    let race = Race()
    let finished = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            race.waiter.withLock { $0 = continuation }
            Task {
                _ = await work.value
                race.end(finished: true)
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                race.end(finished: false)
            }
            race.timer.withLock { $0 = timer }
        }
    } onCancel: {
        work.cancel()
    }
    race.timer.withLock { $0 }?.cancel()
    guard finished else {
        work.cancel()
        return nil
    }
    return try await work.value.get()
}

/// The work against a timer (``within(_:_:)``): whichever ends first
/// resumes the waiter, once.
private final class Race: Sendable {
    let waiter = Mutex<CheckedContinuation<Bool, Never>?>(nil)
    let timer = Mutex<Task<Void, Never>?>(nil)

    func end(finished: Bool) {
        waiter.withLock { $0.take() }?.resume(returning: finished)
    }
}
