// Reads what a child process writes to a pipe, on a thread of its own, with
// blocking reads: no Dispatch read source (`FileHandle.readabilityHandler`).
// On Linux, tearing down a pipe whose read end has a readability handler can
// leave libdispatch's epoll loop with a dangling registration, and the test
// process crashes later in `_dispatch_event_loop_drain` (swift-corelibs-
// foundation#5507): twice in this project's CI, in unrelated tests.

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reading of a pipe's read end until its end (every writer closed it),
/// each chunk handed to a closure as it comes.
///
/// ```swift
/// let output = Pipe()
/// process.standardOutput = output
/// let reading = PipeReader.start(output.fileHandleForReading) { chunk in log(chunk) }
/// try process.run()
/// …
/// await reading.end()
/// ```
///
/// The reading holds the handle until the end; nothing else may read it or
/// close it meanwhile.
public final class PipeReader: Sendable {
    private struct Waiting {
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let waiting = Mutex(Waiting())

    private init() {}

    /// Starts reading `handle` on a new thread: each chunk read goes to
    /// `chunk`, in order, on that thread; at the end of the pipe (or at a
    /// read that fails) `onEnd` is called there, and the thread ends.
    @discardableResult
    public static func start(
        _ handle: FileHandle, _ chunk: @escaping @Sendable (Data) -> Void,
        onEnd: @escaping @Sendable () -> Void = {}
    ) -> PipeReader {
        let reader = PipeReader()
        let thread = Thread {
            // `read(2)` itself: it returns what has come, where
            // `FileHandle.read(upToCount:)` waits for the whole count.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let descriptor = handle.fileDescriptor
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                chunk(Data(buffer[..<count]))
            }
            withExtendedLifetime(handle) {}
            onEnd()
            reader.finish()
        }
        thread.name = "oak-pipe-reader"
        thread.start()
        return reader
    }

    /// Whether the pipe has ended.
    public var hasEnded: Bool { waiting.withLock { $0.ended } }

    /// Returns once the pipe has ended and its last chunk was handed on.
    public func end() async {
        await withCheckedContinuation { continuation in
            let ended = waiting.withLock { waiting in
                if !waiting.ended { waiting.waiters.append(continuation) }
                return waiting.ended
            }
            if ended { continuation.resume() }
        }
    }

    private func finish() {
        let waiters = waiting.withLock { waiting in
            waiting.ended = true
            defer { waiting.waiters = [] }
            return waiting.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
