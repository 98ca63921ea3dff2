import Clocks
import Foundation
import Oak
import Observation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The error a failing operation of ``HostProbe`` throws.
struct HostBoom: Error, Equatable {}

/// An effect transducer whose operations report that they started and that
/// they were cancelled, and whose time is a `TestClock`.
enum HostProbe: EffectTransducer {
    struct State: Terminable, Sendable {
        var count = 0
        var isFinished = false
        var isTerminal: Bool { isFinished }
    }

    enum Event {
        case increment
        /// Starts an operation that waits 10 s on the clock, then sends
        /// `.workDone`.
        case startWork
        /// Starts an operation that waits, without a clock, until it is
        /// cancelled.
        case startIdle
        case workDone
        /// Starts an operation that throws ``HostBoom``.
        case fail
        /// Reaches the terminal state.
        case finish
    }

    struct Env: Sendable {
        var clock: TestClock<Duration>
        var effects: EffectLog
        /// Kept alive by the run (its closure holds the environment), so its
        /// release tells that the run's task is gone.
        var token: LifetimeToken? = nil
    }

    /// The output is the count after each update.
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, Int) {
        switch event {
        case .increment:
            state.count += 1
            return (nil, state.count)
        case .startWork:
            return (
                Effect(id: "work") { env, input in
                    env.effects.record(.started)
                    do {
                        try await env.clock.sleep(for: .seconds(10))
                    } catch {
                        env.effects.record(.cancelled)
                        throw error
                    }
                    try input.send(.workDone)
                }, state.count
            )
        case .startIdle:
            return (
                Effect { env, _ in
                    env.effects.record(.started)
                    await waitUntilCancelled()
                    env.effects.record(.cancelled)
                }, state.count
            )
        case .workDone:
            state.count += 10
            return (nil, state.count)
        case .fail:
            return (Effect { _, _ in throw HostBoom() }, state.count)
        case .finish:
            state.isFinished = true
            return (nil, state.count)
        }
    }

    static func env(clock: TestClock<Duration> = TestClock(), token: LifetimeToken? = nil) -> Env {
        Env(clock: clock, effects: EffectLog(), token: token)
    }
}

/// Suspends until the current task is cancelled.
func waitUntilCancelled() async {
    let waiter = Locked<(isCancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let isCancelled = waiter.withLock { state in
                if !state.isCancelled { state.continuation = continuation }
                return state.isCancelled
            }
            if isCancelled { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiter.withLock { state in
            state.isCancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// A pure transducer that ends on `.stop`; its output is the count.
enum HostTally: Transducer {
    struct State: Terminable, Sendable {
        var count = 0
        var isStopped = false
        var isTerminal: Bool { isStopped }
    }
    enum Event { case add(Int), stop }
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> Int {
        switch event {
        case .add(let amount): state.count += amount
        case .stop: state.isStopped = true
        }
        return state.count
    }
}

/// A transducer whose `send` waits until the event has been processed.
enum HostLockstep: Transducer {
    typealias Proxy = SyncSuspendingProxy<Event>
    struct State: NonTerminal { var values: [Int] = [] }
    enum Event { case value(Int) }

    static func update(_ state: inout State, event: Event) {
        switch event {
        case .value(let value): state.values.append(value)
        }
    }
}

/// What the operations of ``HostProbe`` did, with a way to wait for it.
final class EffectLog: Sendable {
    enum Entry: Equatable, Sendable { case started, cancelled }

    private let entries = Locked<[Entry]>([])
    private let started = HostSignal()

    func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
        if entry == .started { started.fire() }
    }

    var all: [Entry] { entries.withLock { $0 } }

    /// Returns once `count` operations have started.
    func waitUntilStarted(count: Int = 1) async {
        await started.wait(untilFired: count)
    }
}

/// Counts how often it fired and lets tasks wait until it fired often enough.
final class HostSignal: Sendable {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var count: Int { state.withLock { $0.count } }

    func fire() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func wait(untilFired count: Int) async {
        await withCheckedContinuation { continuation in
            let isReady = state.withLock { state in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isReady { continuation.resume() }
        }
    }
}

/// Counts the instances of itself that are alive.
final class LifetimeToken: Sendable {
    private let counter: LifetimeCounter

    init(_ counter: LifetimeCounter) {
        self.counter = counter
        counter.alive.withLock { $0 += 1 }
    }

    deinit {
        counter.alive.withLock { $0 -= 1 }
    }
}

/// How many ``LifetimeToken``s made with it are alive.
final class LifetimeCounter: Sendable {
    let alive = Locked(0)
    var count: Int { alive.withLock { $0 } }
}

/// Records every call of a completion callback and lets a test wait for the
/// first one.
@MainActor
final class CompletionLog<Output> {
    private(set) var results: [Result<Output, any Error>] = []
    private let called = HostSignal()

    /// The callback to give to a host.
    var callback: (Result<Output, any Error>) -> Void {
        { [self] result in
            results.append(result)
            called.fire()
        }
    }

    /// The first result, once the callback has been called.
    func first() async -> Result<Output, any Error> {
        await called.wait(untilFired: 1)
        return results[0]
    }

    /// The error of the first result, or `nil` for a success.
    func firstError() async -> (any Error)? {
        if case .failure(let error) = await first() { return error }
        return nil
    }
}

/// Runs `action` and returns once `host.state` has been written.
///
/// Observation reports a change before the new value is stored; the waiting
/// test resumes on the main actor after the write has completed.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
func stateChange<T>(
    of host: ObservableTransducer<T>,
    after action: () throws -> Void
) async throws {
    let changed = HostSignal()
    withObservationTracking {
        _ = host.state
    } onChange: {
        changed.fire()
    }
    try action()
    await changed.wait(untilFired: 1)
}

/// Resident memory of this process in bytes, from `/proc/self/statm`, after
/// giving freed heap memory back to the system; `nil` where there is no
/// `/proc`.
func residentMemory() -> Int? {
    #if canImport(Glibc)
    // glibc's malloc_trim, which the Glibc module does not export.
    if let symbol = dlsym(nil, "malloc_trim") {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
    return pages * sysconf(Int32(_SC_PAGESIZE))
    #else
    return nil
    #endif
}

/// Whether the C symbol `name` is linked into this process.
func isLinked(_ name: String) -> Bool {
    #if canImport(Glibc)
    dlsym(nil, name) != nil
    #else
    false
    #endif
}

/// Whether this test process runs under ThreadSanitizer or AddressSanitizer,
/// whose allocators keep freed memory on purpose.
let isSanitized = isLinked("__tsan_init") || isLinked("__asan_init")

/// Runs the Swift Testing test `test` of this test binary in a child
/// process, alone, with `environment` added (and Swift Testing's cache of
/// error backtraces off, so that a memory measurement sees Oak alone), and
/// records an issue unless it passed. Awaits the child without blocking a
/// thread of the cooperative pool; what it printed goes to a file.
func runInChildProcess(
    _ test: String, environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    #if os(Linux)
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("oak-child-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    let output = try FileHandle(forWritingTo: log)
    defer { try? output.close() }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    child.arguments = ["--testing-library", "swift-testing", "--filter", test]
    child.environment = ProcessInfo.processInfo.environment
        .merging(environment) { $1 }
        .merging(["SWT_SWIFT_ERROR_BACKTRACING_ENABLED": "0"]) { $1 }
    child.standardOutput = output
    child.standardError = output
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        // Resumed exactly once: by the termination handler, or by the failed
        // launch (then the handler never runs).
        child.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try child.run() } catch {
            child.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    #expect(status == 0, "the child process failed:\n\(printed)", sourceLocation: sourceLocation)
    #expect(printed.contains("\(test)() passed"), "\(printed)", sourceLocation: sourceLocation)
    #endif
}
