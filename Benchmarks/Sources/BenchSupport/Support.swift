import CBenchSupport
import DequeModule
import Oak

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Suite settings

/// How the suite runs: full measurement, or the smoke mode that CI uses
/// (`OAK_BENCH_SMOKE=1`): one short iteration of every benchmark, smaller N,
/// no warm-up, nothing checked.
public enum Suite {
    /// Set by the environment variable `OAK_BENCH_SMOKE` (any value but `0`).
    public static let isSmoke: Bool = {
        guard let value = getenv("OAK_BENCH_SMOKE") else { return false }
        return String(cString: value) != "0"
    }()

    /// `n` for a full run, `n / 10` (at least 100) in smoke mode.
    public static func size(_ n: Int) -> Int {
        isSmoke ? max(100, n / 10) : n
    }
}

/// Reads the malloc interposer's call counter (package-benchmark preloads
/// it and counts while a malloc metric is measured); `nil` without it.
public enum MallocCounter {
    typealias GetStats =
        @convention(c) (
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?,
            UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?, UnsafeMutablePointer<Int64>?
        ) -> Void

    static let getStats: GetStats? = {
        #if os(Linux)
        let handle = dlopen(nil, RTLD_NOW)
        guard let symbol = dlsym(handle, "malloc_interposer_get_stats") else { return nil }
        return unsafeBitCast(symbol, to: GetStats.self)
        #else
        return nil
        #endif
    }()

    /// malloc calls counted so far.
    public static func count() -> Int? {
        guard let getStats else { return nil }
        var mallocs: Int64 = 0
        var other = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        getStats(&mallocs, &other.0, &other.1, &other.2, &other.3, &other.4)
        return Int(mallocs)
    }
}

// MARK: - The counter every workload updates

/// The state of the counter transducers and of their floors.
public struct CounterState: Terminable, Sendable, Equatable {
    /// The counter.
    public var count = 0
    /// How many events have been processed.
    public var processed = 0
    /// The run ends once `limit` events have been processed.
    public let limit: Int

    /// A counter at zero that ends after `limit` events.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Whether `limit` events have been processed.
    public var isTerminal: Bool { processed >= limit }
}

/// The events of the counter.
public enum CounterEvent: Sendable {
    case increment
    case decrement
}

/// The update shared by Oak's transducers and the floors. Never inlined, so
/// that neither side can fold it into its loop.
@inline(never)
public func counterUpdate(_ state: inout CounterState, _ event: CounterEvent) -> Int {
    switch event {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    }
    state.processed &+= 1
    return state.count
}

// MARK: - The floor's lock: the same kind Oak uses

/// A value protected by a `pthread_mutex_t` sharing one allocation with it,
/// exactly as Oak's internal `LockedState` does on Linux.
public final class FloorLock<Value>: @unchecked Sendable {
    @usableFromInline
    final class Buffer: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointers { _, lock in
                _ = pthread_mutex_destroy(lock)
            }
        }
    }

    @usableFromInline
    let buffer: ManagedBuffer<Value, pthread_mutex_t>

    /// A lock protecting `initial`.
    public init(_ initial: Value) {
        buffer = Buffer.create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(lock, nil)
        }
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try buffer.withUnsafeMutablePointers { value, lock in
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

// MARK: - Floor (b): a minimal lock-protected queue with one consumer

/// Thrown by ``FloorQueue/send(_:)`` when the queue holds `capacity` items.
public struct FloorQueueFull: Error {
    /// The error.
    @inlinable public init() {}
}

/// The minimal bounded FIFO a consumer task drains: a `Deque` and the parked
/// consumer's continuation behind one pthread mutex. No cancellation, no
/// stop request, no registry: the floor Oak's channel is measured against.
public final class FloorQueue<Element: Sendable>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var buffer: Deque<Element> = []
        @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
        @usableFromInline init() {}
    }

    /// How many elements the queue holds at most.
    public let capacity: Int
    @usableFromInline let state: FloorLock<State>

    /// An empty queue for at most `capacity` elements.
    public init(capacity: Int) {
        self.capacity = capacity
        state = FloorLock(State())
    }

    /// Enqueues `element`, waking the consumer if it is parked.
    @inlinable
    public func send(_ element: Element) throws(FloorQueueFull) {
        let capacity = self.capacity
        let (accepted, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
            guard state.buffer.count < capacity else { return (false, nil) }
            state.buffer.append(element)
            let waiter = state.waiter
            state.waiter = nil
            return (true, waiter)
        }
        guard accepted else { throw FloorQueueFull() }
        waiter?.resume()
    }

    /// Takes the next element, if any.
    @inlinable
    public func poll() -> Element? {
        state.withLock { $0.buffer.popFirst() }
    }

    /// Parks the consumer until an element arrives.
    @inlinable
    public func wait(isolation: isolated (any Actor)? = #isolation) async {
        await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if !state.buffer.isEmpty { return true }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
    }
}

// MARK: - A one-slot mailbox: a continuation resumed from another task

/// Hands one value at a time from one task to another: `put` resumes the
/// parked taker, or leaves the value for the next `take`.
public final class Mailbox<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var value: Value?
        @usableFromInline var waiter: UnsafeContinuation<Value, Never>?
        @usableFromInline init() {}
    }

    @usableFromInline let state = FloorLock(State())

    /// An empty mailbox.
    public init() {}

    /// Hands `value` to the parked taker, or leaves it for the next `take`.
    @inlinable
    public func put(_ value: Value) {
        let waiter = state.withLock { state -> UnsafeContinuation<Value, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.value = value
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// Takes the value, parking until one is put.
    @inlinable
    public func take(isolation: isolated (any Actor)? = #isolation) async -> Value {
        await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Value, Never>) in
            let ready = state.withLock { state -> Value? in
                if let value = state.value {
                    state.value = nil
                    return value
                }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }
}

// MARK: - Countdown

/// Resumes its waiter once `arrive()` has been called `count` times.
public final class Countdown: @unchecked Sendable {
    struct State {
        var remaining: Int
        var waiter: UnsafeContinuation<Void, Never>?
    }

    let state: FloorLock<State>

    /// A countdown that needs `count` arrivals.
    public init(_ count: Int) {
        state = FloorLock(State(remaining: count))
    }

    /// Counts one arrival; the last one resumes the waiter.
    public func arrive() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Suspends until every arrival has been counted.
    public func wait() async {
        await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.remaining <= 0 { return true }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
    }
}

// MARK: - Clocks and memory

/// CLOCK_MONOTONIC in nanoseconds.
@inlinable
public func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// Spins for `nanoseconds` without sleeping.
public func spin(nanoseconds: UInt64) {
    let end = monotonicNanos() &+ nanoseconds
    while monotonicNanos() < end {}
}

/// Memory probes for W5.
public enum Memory {
    /// The resident set size of the process, from `/proc/self/statm`.
    public static func residentBytes() -> Int {
        #if os(Linux)
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let fields = bytes[0..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    /// Bytes in use by malloc (glibc `mallinfo2`).
    public static func heapInUse() -> Int { Int(cbench_heap_in_use()) }

    /// Returns free heap pages to the system (`malloc_trim(0)`).
    public static func trim() { cbench_heap_trim() }
}
