// A shared run that starts with its first user: what every session of a
// server shows (a list, a provider), read when a session first needs it —
// not at launch, and not at all by a command that never shows it — and
// ended by the app when it stops.

import Oak
import Synchronization

/// An Oak `SharedRun` started by the first that attaches to it, with a
/// first event, and ended by ``close()``.
///
/// ```swift
/// let favourites = LazySharedRun(
///     SharedRun(initialState: FavouritesList.State(), proxy: FavouritesList.Proxy(bufferSize: 64)),
///     env: env, first: .load)
/// let list = favourites.attach()  // the first caller starts it and sends `.load`
/// ```
///
/// The run's proxy suspends its senders (`SyncSuspendingProxy`): the first
/// event is sent once the run has started, and many sessions sending at
/// once wait for room instead of failing.
public final class LazySharedRun<T: BaseTransducer & SendableMetatype>: Sendable
where
    T.State: Sendable, T.Output: Sendable, T.Env: Sendable, T.Event: Sendable,
    T.Proxy == SyncSuspendingProxy<T.Event>
{
    /// The run: read its state (observable), send it events.
    public let run: SharedRun<T>

    private let env: T.Env
    private let first: T.Event
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// `run`, to be run with `env` and sent `first` by the first
    /// ``attach()``.
    public init(_ run: SharedRun<T>, env: T.Env, first: T.Event) {
        self.run = run
        self.env = env
        self.first = first
    }

    /// The run, started (and sent the first event) by the first caller.
    public func attach() -> SharedRun<T> {
        task.withLock { task in
            guard task == nil else { return }
            let (run, env, first) = (self.run, self.env, self.first)
            task = Task {
                async let ending: Void = { _ = try? await run.run(env: env) }()
                await run.proxy.send(first)
                await ending
            }
        }
        return run
    }

    /// Whether ``attach()`` has started the run.
    public var hasStarted: Bool { task.withLock { $0 != nil } }

    /// Ends the run (its operations cancelled) and returns once it has
    /// ended; nothing to do when nobody attached. A later ``attach()``
    /// gets the ended run.
    public func close() async {
        guard let running = task.withLock({ $0 }) else { return }
        run.proxy.cancel()
        await running.value
    }
}
