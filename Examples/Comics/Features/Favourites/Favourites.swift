// The Favourites feature: the list of kept comics, newest first; move the
// selection, open one (the parent shows it), remove one. The list is the
// process's (FavouritesList, one shared run every session reads); a
// session keeps only its selection and notice.

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

    /// The feature's state: the session's selection and notice; the list
    /// itself is the process's one copy (``FavouritesList``), read through
    /// ``list``.
    public struct State: NonTerminal, Equatable, Sendable {
        /// The process's list, once this session has attached to it.
        public internal(set) var list: SharedRun<FavouritesList>?
        /// The row the user chose (``selection`` keeps it within the list).
        var chosen: Int
        /// A message about the last intent.
        public internal(set) var notice: String?

        /// The state before the feature starts: loading.
        public init() {
            chosen = 0
        }

        /// A state showing `phase` from a list of its own (not run), for
        /// tests and previews.
        init(phase: Phase, selection: Int = 0, notice: String? = nil) {
            self.list = SharedRun(initialState: FavouritesList.State(phase: phase))
            self.chosen = selection
            self.notice = notice
        }

        /// What the session shows now, read once from the list: every
        /// other view of the state below is made from it, so that one
        /// reading shows one list.
        public var shown: Shown { Shown(phase: list?.state.phase ?? .loading, chosen: chosen, notice: notice) }

        /// What the feature shows: the list's phase, loading until this
        /// session has attached to it.
        public var phase: Phase { shown.phase }

        /// The favourites shown.
        public var favourites: [Favourite] { shown.favourites }

        /// The selected row: the one chosen, or the last when the list got
        /// shorter since.
        public var selection: Int { shown.selection }

        /// The selected favourite, if any.
        public var selected: Favourite? { shown.selected }
    }

    /// What a session shows at one moment (``State/shown``), as a value:
    /// what a stale page's intents are checked against, and what a
    /// rendering is kept by (the state holds the list's run, which changes
    /// without the state changing).
    public struct Shown: Hashable, Sendable {
        /// The list, or why there is none.
        public let phase: Phase
        /// The selected row: the one chosen, kept within the list.
        public let selection: Int
        /// A message about the last intent.
        public let notice: String?

        init(phase: Phase, chosen: Int, notice: String?) {
            self.phase = phase
            let count = if case .list(let favourites) = phase { favourites.count } else { 0 }
            self.selection = min(chosen, max(count - 1, 0))
            self.notice = notice
        }

        /// The favourites shown.
        public var favourites: [Favourite] {
            if case .list(let favourites) = phase { favourites } else { [] }
        }

        /// The selected favourite, if any.
        public var selected: Favourite? {
            let favourites = favourites
            return favourites.indices.contains(selection) ? favourites[selection] : nil
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
            /// The session is attached to the process's list.
            case attached(SharedRun<FavouritesList>)
            /// Removing one failed.
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
            // The first time, attach to the process's list (the first
            // session to attach starts reading it); then, read it again (a
            // list that could not be read: "retry").
            if let list = state.list {
                return (Effect(id: "reload") { _, _ in await list.proxy.send(.load) }, .changed(state))
            }
            return (
                Effect(id: "attach") { env, input in try input.send(.attached(env.list.attach())) }, .changed(state)
            )
        case .up:
            state.chosen = max(state.selection - 1, 0)
        case .down:
            let shown = state.shown
            state.chosen = min(shown.selection + 1, max(shown.favourites.count - 1, 0))
        case .open:
            if let selected = state.selected { return (nil, .open(selected.number)) }
        case .remove:
            guard let selected = state.selected, let list = state.list else { break }
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
                    // Shown by every session at once (before this one says
                    // it is done); the change feed confirms it.
                    await list.proxy.send(.didRemove(number))
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
        case .attached(let list):
            state.list = list
        case .didFail(let error):
            state.notice = error.description
        case .didRemove(let number):
            state.notice = "Removed #\(number)."
        }
    }
}

extension Favourites.Event {
    /// The session is attached to the process's list.
    static func attached(_ list: SharedRun<FavouritesList>) -> Self {
        .answer(Favourites.Answer(kind: .attached(list)))
    }

    /// Removing one failed.
    static func didFail(_ error: FavouritesError) -> Self { .answer(Favourites.Answer(kind: .didFail(error))) }

    /// A favourite was removed.
    static func didRemove(_ number: Int) -> Self { .answer(Favourites.Answer(kind: .didRemove(number))) }
}
