// The Favourites feature in a web page, rendered on the server: the list
// with an Open button per comic (opening is the parent's intent, which
// shows the comic), the selection with the intents the model offers on it,
// or why there is no list. It renders the same `FavouritesModel` as the
// terminal view; titles are made plain and interpolated, so escaped.

import Common
import FavouritesFeature
import Oak
import WebUI

/// Renders a ``FavouritesModel`` as HTML.
public enum FavouritesWebView {
    /// The key an Open button posts, followed by `:` and the comic's
    /// number. Its intent is the parent's (Main's `openComic`): a page opens
    /// any comic of the list, not only the selected one.
    public static let openComicKey = "main.openComic"

    /// The list's style rules.
    public static let style = """
        ul.favourites { list-style: none; padding: 0; }
        ul.favourites li { display: flex; gap: .5rem; align-items: center; }

        """

    /// The key a form of the intent of `kind` posts, e.g.
    /// `favourites.reload`.
    public static func key(_ kind: FavouritesModel.Kind) -> String {
        switch kind {
        case .up: "favourites.up"
        case .down: "favourites.down"
        case .open: "favourites.open"
        case .remove: "favourites.remove"
        case .reload: "favourites.reload"
        }
    }

    /// The Favourites scene for `model`, its forms bound in `context`; each
    /// row's Open button is bound to `open` of its comic's number (the
    /// parent's intent).
    public static func render<Event>(
        _ model: FavouritesModel, open: @escaping (Int) -> Intent<Event>?, context: WebContext
    ) -> HTML {
        let state = model.state
        let body: HTML
        switch state.phase {
        case .loading:
            body = "<p class=\"dim\" id=\"favourites-loading\" role=\"status\">Reading your favourites…</p>"
        case .unavailable(let error):
            // What happened, never where: the page's reader does not own the
            // server's files (the server's log has the detail).
            body = """
                <p class="error" id="favourites-error" role="alert">Favourites are not available: \
                \(error.description.plainText)</p>
                """
        case .list(let favourites) where favourites.isEmpty:
            body = """
                <p class="dim" id="favourites-empty">No favourites yet: open a comic and press \
                “☆ Favourite” to keep it.</p>
                """
        case .list(let favourites):
            let rows = favourites.indices.map { index in
                row(favourites[index], isSelected: index == state.selection, open: open, context: context)
            }
            body = "<ul class=\"favourites\" id=\"favourites-list\">\n\(HTML.join(rows, separator: "\n"))\n</ul>"
        }
        // The model's own intents, but Open: each row has its own.
        let buttons = model.intents.filter { $0.kind != .open }.map { offered in
            context.button(
                label(offered.kind, selected: state.selected), key: key(offered.kind), intent: offered.intent,
                isPrimary: offered.kind == .reload)
        }
        let actions: HTML? =
            buttons.isEmpty ? nil : "<div class=\"actions\" id=\"favourites-actions\">\(HTML.join(buttons))</div>\n"
        let notice: HTML? = state.notice.map {
            "<p class=\"notice\" id=\"favourites-notice\" role=\"status\">\($0.plainText)</p>\n"
        }
        return """
            <section class="favourites-scene" id="favourites">
            <h2>Favourites</h2>
            \(body)
            \(actions)\(notice)</section>
            """
    }

    /// One favourite: its number, its title and an Open button; the
    /// selected one is marked.
    static func row<Event>(
        _ favourite: Favourite, isSelected: Bool, open: @escaping (Int) -> Intent<Event>?, context: WebContext
    ) -> HTML {
        let selected: HTML? = isSelected ? " class=\"selected\" aria-current=\"true\"" : nil
        return """
            <li data-number="\(favourite.number)"\(selected)><span class="number">#\(favourite.number)</span> \
            <span class="title">\(favourite.title.plainText)</span> \
            \(context.button("Open", key: "\(openComicKey):\(favourite.number)", intent: open(favourite.number)))</li>
            """
    }

    /// The label of the button for `kind`; `selected` is the favourite the
    /// selection intents act on.
    static func label(_ kind: FavouritesModel.Kind, selected: Favourite?) -> String {
        switch kind {
        case .up: "↑ Select previous"
        case .down: "↓ Select next"
        case .open: selected.map { "Open #\($0.number)" } ?? "Open"
        case .remove: selected.map { "Remove #\($0.number)" } ?? "Remove"
        case .reload: "Try again"
        }
    }
}
