// Load beside a test: threads that keep every core busy while a part of a
// property test runs, so that the operating system preempts the run, its
// senders and its canceller at arbitrary instructions, as on a loaded server
// or phone. Timing windows that a quiet machine never opens are then
// exercised by `swift test`.
//
// The threads are plain threads, outside Swift's cooperative pool: they
// take processor time from the pool's threads without taking its threads.

import Foundation
import Synchronization

/// Runs `body` while one busy thread per processor spins beside it (when
/// `loaded`), and stops them before it returns.
func withBusyLoad<Value>(
    _ loaded: Bool, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
) async rethrows -> Value {
    guard loaded else { return try await body() }
    let load = BusyLoad()
    defer { load.stop() }
    return try await body()
}

/// Busy threads, one per processor, spinning until ``stop()``.
final class BusyLoad: Sendable {
    private let running = Atomic<Bool>(true)

    init() {
        for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
            let thread = Thread { [self] in
                var sink = 0
                while running.load(ordering: .relaxed) {
                    for value in 0..<2_000 { sink &+= value &* value }
                }
                blackHole(sink)
            }
            thread.start()
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
    }
}

/// Keeps a computed value alive so the compiler does not remove the work.
@inline(never)
func blackHole<T>(_ value: T) {}
