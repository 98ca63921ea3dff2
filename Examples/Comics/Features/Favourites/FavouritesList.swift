// The favourites one process shows, kept once: a shared run that reads the
// list, follows every change made to it (by any session, or another
// process on the same database), and is read by every session's
// Favourites feature. A change then costs one read and one publication,
// which every page that shows the list hears at once — not a copy and a
// run's update per session.

import Oak
import Synchronization

/// The list of favourites, one run for every session of a process that has
/// the same port (``FavouritesEnv/list``).
public enum FavouritesList: EffectTransducer {
    /// The list's state: what every session shows.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// The list, or why there is none.
        public internal(set) var phase: Favourites.Phase

        /// The state before the list is read: loading.
        public init(phase: Favourites.Phase = .loading) {
            self.phase = phase
        }
    }

    /// What happens to the list.
    public enum Event: Equatable, Sendable {
        /// Read the list (again) and follow its changes.
        case load
        /// The list was read.
        case didLoad([Favourite])
        /// The list could not be read.
        case didFail(FavouritesError)
        /// A session removed favourite `n`: shown at once, before the
        /// change feed confirms it (or where there is none, as in tests).
        case didRemove(Int)
    }

    /// Every sender waits until its event is taken (a session's removal
    /// is shown before the session says it is done), and many senders at
    /// once — a thousand sessions pressing "Try again" — wait for room
    /// rather than fail.
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// Where the list comes from.
    public struct Env: Sendable {
        /// Every favourite, newest first.
        public var all: @Sendable () async throws(FavouritesError) -> [Favourite]
        /// The favourites after every change.
        public var changes: @Sendable () -> AsyncStream<[Favourite]>
    }

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .load:
            state.phase = .loading
            return .combine(reload(), watch())
        case .didLoad(let favourites):
            state.phase = .list(favourites)
        case .didFail(let error):
            // A list shown stays shown: the feed reads it again.
            if case .list = state.phase { break }
            state.phase = .unavailable(error)
        case .didRemove(let number):
            if case .list(let favourites) = state.phase {
                state.phase = .list(favourites.filter { $0.number != number })
            }
        }
        return nil
    }

    /// Follows the changes others make (another session, another
    /// process): each new list arrives as `.didLoad`.
    static func watch() -> Self.Effect {
        Effect(id: "watch") { env, input in
            for await favourites in env.changes() {
                await input.send(.didLoad(favourites))
            }
        }
    }

    static func reload() -> Self.Effect {
        Effect(id: "load") { env, input in
            let favourites: [Favourite]
            do throws(FavouritesError) {
                favourites = try await env.all()
            } catch {
                await input.send(.didFail(error))
                return
            }
            await input.send(.didLoad(favourites))
        }
    }
}

/// The favourites list of a process (``FavouritesList``, run once): its
/// ``run`` is the one copy every session's Favourites feature reads. The
/// run starts with the first session that attaches (reading the list then,
/// not at launch) and ends with ``close()``.
public final class SharedFavourites: Sendable {
    /// The list's run: read its state (observable), send it events.
    public let run: SharedRun<FavouritesList>

    private let env: FavouritesList.Env
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// The list `all` reads and `changes` follows, not read until a
    /// session attaches.
    public init(
        all: @escaping @Sendable () async throws(FavouritesError) -> [Favourite],
        changes: @escaping @Sendable () -> AsyncStream<[Favourite]>
    ) {
        env = FavouritesList.Env(all: all, changes: changes)
        run = SharedRun(initialState: FavouritesList.State(), proxy: FavouritesList.Proxy(bufferSize: 64))
    }

    /// The list's run, started (reading the list) by the first session
    /// that attaches.
    public func attach() -> SharedRun<FavouritesList> {
        task.withLock { task in
            guard task == nil else { return }
            let run = self.run
            let env = self.env
            task = Task {
                async let ending: Void = { _ = try? await run.run(env: env) }()
                await run.proxy.send(.load)
                await ending
            }
        }
        return run
    }

    /// Ends the list's run (no more reads, the change feed let go of) and
    /// returns once it has ended; nothing to do when no session attached.
    public func close() async {
        guard let running = task.withLock({ $0 }) else { return }
        run.proxy.cancel()
        await running.value
    }
}
