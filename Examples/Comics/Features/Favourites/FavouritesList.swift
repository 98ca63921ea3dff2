// The favourites one process shows, kept once: a shared run that reads the
// list, follows every change made to it (by any session, or another
// process on the same database), and is read by every session's
// Favourites feature. A change then costs one read and one publication,
// which every page that shows the list hears at once — not a copy and a
// run's update per session.

import Oak

/// The list of favourites, one run for every session of a process that has
/// the same port (``FavouritesEnv/list``, started by the first session that
/// attaches).
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
