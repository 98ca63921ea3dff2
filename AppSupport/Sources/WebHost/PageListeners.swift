// Who a session tells when what its pages show changes: its open pages and
// the first page waiting for a settled state. Behind a lock, not on the
// session's actor, so that a change is told where it happens — a shared
// run (a meeting's room) publishing on its own isolation tells each of its
// viewers' pages at once, without a task and an actor hop per viewer.

import Foundation
import Synchronization

/// What an open page of a session is sent.
enum PageSignal: Sendable {
    /// The state changed: push the content of this version.
    case changed(version: Int)
    /// Nothing changed: write a comment, so that a closed page is noticed.
    case ping
    /// The server is stopping: tell the page, whose stream ends next.
    case stopping
    /// Too many pages of the session are open and this is the oldest: tell
    /// the page it no longer follows the app; its stream ends next.
    case replaced
}

/// The listeners of one session, its version and whether it has ended or
/// is stopping; every method may be called from any isolation.
final class PageListeners: Sendable {
    private struct Listener {
        var continuation: AsyncStream<PageSignal>.Continuation
        var isPage: Bool
    }

    private struct State {
        var listeners: [UUID: Listener] = [:]
        var version = 0
        var changedAt: Int64 = 0
        /// The open pages, oldest first.
        var pageOrder: [UUID] = []
        var pageWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var hasEnded = false
        var isStopping = false

        /// How many pages are open.
        var openPages: Int { pageOrder.count }

        /// The waiters for the number of pages now open, released by the
        /// caller once out of the lock.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = openPages
            let ready = pageWaiters.filter { $0.count == count }.map(\.continuation)
            pageWaiters.removeAll { $0.count == count }
            return ready
        }
    }

    private let state = Mutex(State())
    /// The most pages open at once; a page beyond it replaces the oldest.
    let maxOpenPages: Int

    /// The listeners of a session that keeps at most `maxOpenPages` pages
    /// open (at least 1).
    init(maxOpenPages: Int = .max) {
        self.maxOpenPages = max(maxOpenPages, 1)
    }

    /// Counts the changes told: the id of each pushed page.
    var version: Int { state.withLock { $0.version } }
    /// When the state last changed, in microseconds since 1970, if pushes
    /// are stamped (``PushTiming``); else 0.
    var changedAt: Int64 { state.withLock { $0.changedAt } }
    /// How many pages are open (their event streams).
    var openPages: Int { state.withLock { $0.openPages } }
    /// Whether the session has ended.
    var hasEnded: Bool { state.withLock { $0.hasEnded } }

    /// A stream of what a listener is to be sent, until ``remove(_:)`` or
    /// ``end()``; a page (`isPage`) is counted among the open pages, and
    /// one beyond ``maxOpenPages`` replaces the oldest (told
    /// ``PageSignal/replaced``, then its stream ends). A listener that has
    /// not read holds at most its latest signal.
    func listen(isPage: Bool) -> (id: UUID, stream: AsyncStream<PageSignal>) {
        let (stream, continuation) = AsyncStream<PageSignal>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        typealias Added = (added: Bool, ready: [CheckedContinuation<Void, Never>], replaced: Listener?)
        let added = state.withLock { state -> Added in
            guard !state.hasEnded else { return (false, [], nil) }
            state.listeners[id] = Listener(continuation: continuation, isPage: isPage)
            guard isPage else { return (true, [], nil) }
            var replaced: Listener?
            if state.pageOrder.count >= maxOpenPages {
                let oldest = state.pageOrder.removeFirst()
                replaced = state.listeners.removeValue(forKey: oldest)
            }
            state.pageOrder.append(id)
            return (true, state.readyWaiters(), replaced)
        }
        if let replaced = added.replaced {
            replaced.continuation.yield(.replaced)
            replaced.continuation.finish()
        }
        for waiter in added.ready { waiter.resume() }
        guard added.added else {
            continuation.finish()
            return (id, stream)
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return (id, stream)
    }

    /// The listener `id` is gone (its page closed, or it stopped waiting).
    func remove(_ id: UUID) {
        let removed = state.withLock { state -> (Listener, [CheckedContinuation<Void, Never>])? in
            guard let listener = state.listeners.removeValue(forKey: id) else { return nil }
            guard listener.isPage else { return (listener, []) }
            state.pageOrder.removeAll { $0 == id }
            return (listener, state.readyWaiters())
        }
        guard let (listener, ready) = removed else { return }
        listener.continuation.finish()
        for waiter in ready { waiter.resume() }
    }

    /// What the pages show changed: a new version, told to every listener
    /// (nothing once the session ended or the server is stopping).
    func changed() {
        let now = PushTiming.isOn ? PushTiming.now() : 0
        state.withLock { state in
            guard !state.isStopping, !state.hasEnded else { return }
            state.version += 1
            state.changedAt = now
            for listener in state.listeners.values {
                listener.continuation.yield(.changed(version: state.version))
            }
        }
    }

    /// Tells every open page that the server is stopping; nothing else is
    /// told them afterwards.
    func tellStopping() {
        state.withLock { state in
            state.isStopping = true
            for listener in state.listeners.values where listener.isPage {
                listener.continuation.yield(.stopping)
            }
        }
    }

    /// Sends every open page a ping.
    func ping() {
        state.withLock { state in
            for listener in state.listeners.values where listener.isPage {
                listener.continuation.yield(.ping)
            }
        }
    }

    /// Returns once exactly `count` pages are open.
    func waitForOpenPages(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isNow = state.withLock { state in
                guard state.openPages != count else { return true }
                state.pageWaiters.append((count, continuation))
                return false
            }
            if isNow { continuation.resume() }
        }
    }

    /// The session has ended: every listener's stream ends, none is added.
    func end() {
        let ended = state.withLock { state -> ([Listener], [CheckedContinuation<Void, Never>])? in
            guard !state.hasEnded else { return nil }
            state.hasEnded = true
            let listeners = Array(state.listeners.values)
            state.listeners.removeAll()
            state.pageOrder.removeAll()
            return (listeners, state.readyWaiters())
        }
        guard let (listeners, ready) = ended else { return }
        for listener in listeners { listener.continuation.finish() }
        for waiter in ready { waiter.resume() }
    }
}
