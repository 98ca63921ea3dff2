// The Favourites feature: the list of kept comics, newest first; move the
// selection, open one (the parent shows it), remove one.

import Oak

/// The Favourites transducer.
public enum Favourites: EffectTransducer {
    /// What the feature shows.
    public enum Phase: Equatable, Hashable, Sendable {
        /// Reading the favourites.
        case loading
        /// The favourites, newest first.
        case list([Favourite])
        /// They could not be read.
        case unavailable(FavouritesError)
    }

    /// The feature's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// What the feature shows.
        public internal(set) var phase: Phase
        /// The selected row.
        public internal(set) var selection: Int
        /// A message about the last intent.
        public internal(set) var notice: String?

        /// The state before the feature starts: loading.
        public init() {
            self.init(phase: .loading)
        }

        /// A state; by default loading.
        init(phase: Phase = .loading, selection: Int = 0, notice: String? = nil) {
            self.phase = phase
            self.selection = selection
            self.notice = notice
        }

        /// The favourites shown.
        public var favourites: [Favourite] {
            if case .list(let favourites) = phase { favourites } else { [] }
        }

        /// The selected favourite, if any.
        public var selected: Favourite? {
            favourites.indices.contains(selection) ? favourites[selection] : nil
        }
    }

    /// What happens to the feature.
    public enum Event: Equatable, Sendable {
        /// Read the favourites (the feature's first event).
        case load
        /// Select the row above.
        case up
        /// Select the row below.
        case down
        /// Open the selected favourite.
        case open
        /// Remove the selected favourite.
        case remove
        /// The store's answer to one of the feature's effects. Only the
        /// feature makes answers: another module can pass one on, never
        /// fake one.
        case answer(Answer)
    }

    /// The store's answer to one of the feature's effects. Its cases are the
    /// feature's own: no other module can make or read one.
    public struct Answer: Equatable, Sendable {
        enum Kind: Equatable, Sendable {
            /// The favourites were read.
            case didLoad([Favourite])
            /// Reading or changing them failed.
            case didFail(FavouritesError)
            /// A favourite was removed.
            case didRemove(Int)
        }

        let kind: Kind
    }

    /// What the feature tells its parent.
    public enum Output: Equatable, Sendable {
        /// The state changed (or not): show it.
        case changed(State)
        /// Show comic `n`.
        case open(Int)
    }

    /// The port.
    public typealias Env = FavouritesEnv

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        switch event {
        case .load:
            state.phase = .loading
            return (.combine(reload(), watch()), .changed(state))
        case .up:
            state.selection = max(state.selection - 1, 0)
        case .down:
            state.selection = min(state.selection + 1, max(state.favourites.count - 1, 0))
        case .open:
            if let selected = state.selected { return (nil, .open(selected.number)) }
        case .remove:
            guard let selected = state.selected else { break }
            state.notice = nil
            let number = selected.number
            return (
                Effect(id: EffectID("remove \(number)")) { env, input in
                    do throws(FavouritesError) {
                        try await env.remove(number)
                    } catch {
                        try input.send(.didFail(error))
                        return
                    }
                    try input.send(.didRemove(number))
                }, .changed(state)
            )
        case .answer(let answer):
            answered(&state, answer.kind)
        }
        return (nil, .changed(state))
    }

    static func answered(_ state: inout State, _ answer: Answer.Kind) {
        switch answer {
        case .didLoad(let favourites):
            state.phase = .list(favourites)
            state.selection = min(state.selection, max(favourites.count - 1, 0))
        case .didFail(let error):
            if case .list = state.phase {
                state.notice = error.description
            } else {
                state.phase = .unavailable(error)
            }
        case .didRemove(let number):
            let remaining = state.favourites.filter { $0.number != number }
            state.phase = .list(remaining)
            state.selection = min(state.selection, max(remaining.count - 1, 0))
            state.notice = "Removed #\(number)."
        }
    }

    /// Follows the changes others make (another session of a server): each
    /// new list arrives as `.didLoad`, so the view stays current without a
    /// reload.
    static func watch() -> Self.Effect {
        Effect(id: "watch") { env, input in
            for await favourites in env.changes() {
                try input.send(.didLoad(favourites))
            }
        }
    }

    static func reload() -> Self.Effect {
        Effect(id: "load") { env, input in
            let favourites: [Favourite]
            do throws(FavouritesError) {
                favourites = try await env.all()
            } catch {
                try input.send(.didFail(error))
                return
            }
            try input.send(.didLoad(favourites))
        }
    }
}

extension Favourites.Event {
    /// The favourites were read.
    static func didLoad(_ favourites: [Favourite]) -> Self { .answer(Favourites.Answer(kind: .didLoad(favourites))) }

    /// Reading or changing them failed.
    static func didFail(_ error: FavouritesError) -> Self { .answer(Favourites.Answer(kind: .didFail(error))) }

    /// A favourite was removed.
    static func didRemove(_ number: Int) -> Self { .answer(Favourites.Answer(kind: .didRemove(number))) }
}
