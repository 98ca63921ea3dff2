// What any view of the Favourites feature shows and offers, the same in a
// terminal, a browser and SwiftUI.

import Oak

/// What a view of the Favourites feature shows and offers.
public struct FavouritesModel {
    /// What is shown: the session's state with the list as it was when
    /// the model was made (one rendering shows one list).
    public var state: Favourites.Shown
    /// The intents valid now, with their labels.
    public var intents: [(kind: Kind, intent: Intent<Favourites.Event>)]

    /// The things a user can do in the Favourites feature.
    public enum Kind: Equatable, Hashable, Sendable {
        /// Select the row above.
        case up
        /// Select the row below.
        case down
        /// Open the selected comic.
        case open
        /// Remove the selected comic.
        case remove
        /// Read the list again.
        case reload
    }

    /// The intent of `kind`, if it is valid now.
    public func intent(_ kind: Kind) -> Intent<Favourites.Event>? {
        intents.first { $0.kind == kind }?.intent
    }
}

extension Favourites {
    /// What decides which intents are valid: what the session shows (a
    /// page's intents are refused once the list it showed has changed).
    public static func scope(of state: State) -> Shown { state.shown }

    /// The model of `state`.
    public static func model(of state: State, intents: Intents<Favourites, Shown>) -> FavouritesModel {
        model(showing: state.shown, intents: intents)
    }

    /// The model of a session that shows `state` (one snapshot of the
    /// list: a view that has read it once renders and offers what it read).
    public static func model(showing state: Shown, intents: Intents<Favourites, Shown>) -> FavouritesModel {
        var offered: [(kind: FavouritesModel.Kind, intent: Intent<Event>)] = []
        switch state.phase {
        case .loading:
            break
        case .list(let favourites):
            if state.selection > 0 { offered.append((.up, intents(.up))) }
            if state.selection < favourites.count - 1 { offered.append((.down, intents(.down))) }
            if state.selected != nil {
                offered.append((.open, intents(.open)))
                offered.append((.remove, intents(.remove)))
            }
        case .unavailable:
            offered.append((.reload, intents(.load)))
        }
        return FavouritesModel(state: state, intents: offered)
    }
}
