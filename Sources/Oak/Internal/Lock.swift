#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value protected by a platform lock: `os_unfair_lock` on Apple platforms,
/// `pthread_mutex_t` elsewhere.
///
/// `Synchronization.Mutex` would be the natural choice, but it requires
/// macOS 15 / iOS 18 and the package supports macOS 13 / iOS 16. The lock and
/// the value share one heap allocation (`ManagedBuffer`), so the lock has a
/// stable address as the platform APIs require.
///
/// A struct around the buffer, so that using it costs one allocation.
///
/// Safety (`@unchecked Sendable`): the protected value is only reachable
/// inside `withLock`, which holds the lock for the whole closure.
@usableFromInline
struct LockedState<Value>: @unchecked Sendable {
    #if canImport(os)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline
    final class Buffer: ManagedBuffer<Value, Primitive> {
        deinit {
            withUnsafeMutablePointers { _, lock in
                #if canImport(os)
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
            #if canImport(os)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(lock, nil)
            #endif
        }
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Complexity: O(1) plus the cost of `body`; uncontended, one lock and
    ///   one unlock.
    @inlinable
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try buffer.withUnsafeMutablePointers { value, lock in
            #if canImport(os)
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
