// The Favourites feature in a terminal: a list with a selection, and the
// keys valid now.

import FavouritesFeature
import Oak
import TerminalUI

/// Draws a ``FavouritesModel`` and maps keys to its intents.
public enum FavouritesTerminalView {
    /// Draws `model` on `canvas`.
    public static func render(_ model: FavouritesModel, on canvas: inout Canvas) {
        canvas.add("Favourites", .bold)
        canvas.skip()
        switch model.state.phase {
        case .loading:
            canvas.add("Reading your favourites…", .dim)
        case .unavailable(let error):
            // The terminal's user owns the files: where and why, in full.
            canvas.addWrapped("Favourites are not available: \(error.detail ?? error.description)", .error)
        case .list(let favourites) where favourites.isEmpty:
            canvas.add("No favourites yet: press f on a comic to keep it.", .dim)
        case .list(let favourites):
            // A window of the list that keeps the selection on screen.
            let visible = max(canvas.height - canvas.lines.count - 4, 1)
            let first = min(max(model.state.selection - visible + 1, 0), max(favourites.count - visible, 0))
            for index in first..<min(first + visible, favourites.count) {
                let favourite = favourites[index]
                let text = "#\(favourite.number)  \(favourite.title)"
                canvas.add(text, index == model.state.selection ? .reverse : .normal)
            }
            if favourites.count > visible {
                canvas.add("\(model.state.selection + 1) of \(favourites.count)", .dim)
            }
        }
        if let notice = model.state.notice {
            canvas.skip()
            canvas.add(notice, .accent)
        }
    }

    /// The keys valid for `model`, each performing one of its intents.
    @MainActor
    public static func bindings(_ model: FavouritesModel) -> [KeyBinding] {
        model.intents.map { offered in
            let intent = offered.intent
            let (keys, label): ([Key], String) =
                switch offered.kind {
                case .up: ([.up, .character("k")], "up")
                case .down: ([.down, .character("j")], "down")
                case .open: ([.enter], "open")
                case .remove: ([.character("d")], "remove")
                case .reload: ([.character("t")], "retry")
                }
            return KeyBinding(keys, label, intent: intent)
        }
    }
}
