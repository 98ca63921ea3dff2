// The intents of one state of the app, for every renderer: Main's own go
// through Main's proxy, the children's through the handles in Main's state,
// each refused once the state it was made from has moved on.

import ComicsScene
import FavouritesScene
import Oak

extension Main {
    /// The part of the state that decides which of Main's own intents are
    /// valid.
    public struct Scope: Hashable, Sendable {
        /// The scene shown.
        public var scene: Scene
        /// Whether help is shown.
        public var isHelpShown: Bool
        /// Whether a number is being typed.
        public var isTyping: Bool
    }

    /// The scope of `state`.
    public static func scope(of state: State) -> Scope {
        Scope(scene: state.scene, isHelpShown: state.isHelpShown, isTyping: state.prompt != nil)
    }
}

/// The intents a view of one state of the app offers.
public struct MainIntents {
    /// Main's own intents.
    public var main: Intents<Main, Main.Scope>
    /// The Comics feature's intents, sent to its run through its handle.
    public var comics: Intents<Comics, Comics.Phase>?
    /// The Favourites feature's intents, while it runs.
    public var favourites: Intents<Favourites, Favourites.State>?

    /// The intents of a view of `state`, sent through `proxy` (Main's) and
    /// the children's handles in `state`; each checks itself against the
    /// state `current` reads, the latest the run reported.
    public init(for state: Main.State, proxy: Main.Proxy, current: @escaping () -> Main.State) {
        main = Intents(for: state, proxy: proxy, scope: Main.scope(of:), current: current)
        comics = state.comics.map { child in
            Intents(for: state.comicsState, proxy: child.proxy, scope: Comics.scope(of:)) { current().comicsState }
        }
        favourites = state.favourites.map { child in
            Intents(for: state.favouritesState, proxy: child.proxy, scope: Favourites.scope(of:)) {
                current().favouritesState
            }
        }
    }

    /// Opens comic `number` from the favourites' list: offered while the
    /// list is shown, for a comic number (from 1).
    public func openComic(_ number: Int, _ state: Main.State) -> Intent<Main.Event>? {
        guard favouritesModel(state) != nil, Comic.numbers.contains(number) else { return nil }
        return main(.openComic(number))
    }

    /// The Comics feature's model of `state`, while its scene is shown and
    /// the feature runs: no Comics intent is offered from another scene.
    public func comicsModel(_ state: Main.State) -> ComicsModel? {
        guard state.scene == .comics else { return nil }
        return comics.map { Comics.model(of: state.comicsState, intents: $0) }
    }

    /// The Favourites feature's model of `state`, while its scene is shown
    /// (the feature runs exactly then).
    public func favouritesModel(_ state: Main.State) -> FavouritesModel? {
        guard state.scene == .favourites else { return nil }
        return favourites.map { Favourites.model(of: state.favouritesState, intents: $0) }
    }
}
