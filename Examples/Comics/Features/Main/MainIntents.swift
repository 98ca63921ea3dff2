// The intents of one state of the app, for every renderer: Main's own go
// through Main's proxy, the children's through the handles in Main's state,
// each refused once the state it was made from has moved on.

import ComicsFeature
import FavouritesFeature
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
    public var favourites: Intents<Favourites, Favourites.Shown>?
    /// The Comics feature's state these intents were made from.
    let comicsState: Comics.State?
    /// The Favourites feature's state these intents were made from.
    let favouritesState: Favourites.State?

    /// The intents of a view of `state`, sent through `proxy` (Main's) and
    /// the children's handles in `state`; Main's check themselves against
    /// the state `current` reads, the latest the run wrote, the children's
    /// against their own state now (``Child/state``).
    public init(for state: Main.State, proxy: Main.Proxy, current: @escaping () -> Main.State) {
        main = Intents(for: state, proxy: proxy, scope: Main.scope(of:), current: current)
        comicsState = state.comics?.state
        favouritesState = state.favourites?.state
        comics = state.comics.map { Intents(for: $0, scope: Comics.scope(of:)) }
        favourites = state.favourites.map { Intents(for: $0, scope: Favourites.scope(of:)) }
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
        guard let comics, let comicsState else { return nil }
        return Comics.model(of: comicsState, intents: comics)
    }

    /// The Favourites feature's model of `state`, while its scene is shown
    /// (the feature runs exactly then).
    public func favouritesModel(_ state: Main.State) -> FavouritesModel? {
        guard state.scene == .favourites, let favouritesState else { return nil }
        return favouritesModel(state, showing: favouritesState.shown)
    }

    /// The Favourites feature's model of `state` showing `shown`, a
    /// snapshot of what its session shows the view took before (`nil`:
    /// the feature does not run).
    public func favouritesModel(_ state: Main.State, showing shown: Favourites.Shown?) -> FavouritesModel? {
        guard state.scene == .favourites else { return nil }
        guard let favourites, let shown else { return nil }
        return Favourites.model(showing: shown, intents: favourites)
    }
}
