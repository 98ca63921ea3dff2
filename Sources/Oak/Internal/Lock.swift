// The lock the run's storage uses: a value behind a platform mutex.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value protected by a platform lock: `os_unfair_lock` on Apple platforms,
/// `pthread_mutex_t` elsewhere. The platform is told by `canImport(Darwin)`,
/// not `canImport(os)`: a Linux client may have a module of its own named
/// `os` (a stand-in for Apple's), which must not switch the lock.
///
/// `Synchronization.Mutex` would be the natural choice, but it requires
/// macOS 15 / iOS 18 and the package supports macOS 13 / iOS 16. The lock and
/// the value share one heap allocation (`ManagedBuffer`), so the lock has a
/// stable address as the platform APIs require.
///
/// A struct around the buffer, so that using it costs one allocation.
///
/// `Sendable` when the value is (see the extension below); a type that keeps
/// a non-`Sendable` value in one states its own safety argument.
@usableFromInline
struct LockedState<Value> {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline
    final class Buffer: ManagedBuffer<Value, Primitive> {
        deinit {
            withUnsafeMutablePointers { _, lock in
                #if canImport(Darwin)
                _ = lock.deinitialize(count: 1)
                #else
                _ = pthread_mutex_destroy(lock)
                #endif
            }
        }
    }

    @usableFromInline
    let buffer: ManagedBuffer<Value, Primitive>

    @usableFromInline
    init(_ initial: Value) {
        buffer = Buffer.create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            _ = pthread_mutexattr_init(&attributes)
            #if canImport(Glibc)
            // Adaptive: a contended lock spins briefly before it sleeps in
            // the kernel. The sections it guards are a few dozen
            // instructions, so a waiter usually gets it while spinning.
            _ = pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            #endif
            _ = pthread_mutex_init(lock, &attributes)
            _ = pthread_mutexattr_destroy(&attributes)
            #endif
        }
    }

    /// The value, read without taking the lock. Only for a value with one
    /// writer, read by that writer between its own writes (it never races
    /// with itself; other readers take the lock, and reads do not race
    /// with reads).
    @inlinable
    var unlockedValueOfTheOneWriter: Value {
        buffer.withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Complexity: O(1) plus the cost of `body`; uncontended, one lock and
    ///   one unlock.
    @inlinable
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try buffer.withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }
}

/// Safety (`@unchecked Sendable`): the protected value is `Sendable` and only
/// reachable inside `withLock`, which holds the lock for the whole closure.
extension LockedState: @unchecked Sendable where Value: Sendable {}
