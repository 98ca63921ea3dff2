// The whole app in a web page, rendered on the server: a header with the
// navigation, then the scene shown through its own web view. Every form is
// bound to the intent of the model of the state it was rendered for, under
// a key (`comics.next`) the page posts; the host performs the binding a post
// names on the page of the current state, so a form that makes no sense now
// does nothing. No feature logic here, and no table from names to intents.

import ComicsFeature
import ComicsMain
import Common
import FavouritesFeature
import Foundation
import Oak
import WebUI

/// Renders the app as HTML, its forms bound to the intents they perform.
public enum MainWebView {
    /// The key of the navigation to the comics.
    public static let showComicsKey = "main.showComics"
    /// The key of the navigation to the favourites.
    public static let showFavouritesKey = "main.showFavourites"

    /// The key of a favourites page's content
    /// (``WebContext/shared(_:render:)``): what its session shows of the
    /// list, and nothing else of the session.
    struct FavouritesContent: Hashable, Sendable {
        /// What the session shows.
        let shown: Favourites.Shown
    }

    /// The page's content for `state`: the header, then the scene; the
    /// forms are bound in `context` to the intents of `intents`, made only
    /// when the content is rendered.
    ///
    /// A favourites page shows what its session shows of the list and
    /// nothing else of it: the content is rendered once for every session
    /// that shows the same (a thousand sessions, after the list changed),
    /// from one snapshot of the list, which is also its key.
    public static func content(
        _ state: Main.State, intents: @autoclosure () -> MainIntents, context: WebContext
    )
        -> HTML
    {
        switch state.scene {
        case .comics:
            let intents = intents()
            let scene = intents.comicsModel(state).map { ComicsWebView.render($0, context: context) } ?? starting
            return content(state, scene: scene, name: "comics", intents: intents, context: context)
        case .favourites:
            guard let shown = state.favourites?.state.shown else {
                return content(state, scene: starting, name: "favourites", intents: intents(), context: context)
            }
            return context.shared(FavouritesContent(shown: shown)) {
                let intents = intents()
                let scene =
                    intents.favouritesModel(state, showing: shown).map { model in
                        FavouritesWebView.render(model, open: { intents.openComic($0, state) }, context: context)
                    } ?? starting
                return content(state, scene: scene, name: "favourites", intents: intents, context: context)
            }
        }
    }

    /// The header, then `scene`, named `name`.
    static func content(
        _ state: Main.State, scene: HTML, name: String, intents: MainIntents, context: WebContext
    )
        -> HTML
    {
        let navigation = HTML.join([
            navigationButton(
                "Comics", key: showComicsKey, intent: intents.main(.showComics), isCurrent: state.scene == .comics,
                context),
            navigationButton(
                "Favourites", key: showFavouritesKey, intent: intents.main(.showFavourites),
                isCurrent: state.scene == .favourites, context),
        ])
        return """
            <header><nav><h1>Oak Comics</h1>\(navigation)</nav></header>
            <div class="scene" id="scene" data-scene="\(name)">
            \(scene)
            </div>
            """
    }

    /// The whole page for `state`, titled after the comic shown or the
    /// scene.
    public static func page(_ state: Main.State, intents: MainIntents, context: WebContext) -> HTML {
        WebPage.document(title: title(state), content: content(state, intents: intents, context: context))
    }

    /// The image at `path` the page of `state` shows, if any.
    public static func image(at path: String, in state: Main.State) -> Data? {
        guard state.scene == .comics, let comics = state.comics else { return nil }
        return ComicsWebView.image(at: path, in: comics.state)
    }

    /// The app's own style rules (after the web host's base style).
    public static let style = FavouritesWebView.style

    /// The scene while its feature has not started.
    static let starting: HTML = "<p class=\"dim\" id=\"starting\" role=\"status\">Starting…</p>"

    /// A navigation button; the scene shown is marked as current.
    static func navigationButton(
        _ label: String, key: String, intent: @autoclosure @escaping () -> Intent<Main.Event>, isCurrent: Bool,
        _ context: WebContext
    ) -> HTML {
        let button = context.button(label, key: key, intent: intent())
        return isCurrent ? "<span class=\"current\" aria-current=\"page\">\(button)</span>" : button
    }

    /// The page's title: "Oak Comics · " and the comic shown, or the
    /// scene.
    public static func title(_ state: Main.State) -> String {
        let subtitle: String
        switch state.scene {
        case .comics:
            if let comic = state.comics?.state.shownComic {
                let title = comic.title.plainText
                subtitle = title.isEmpty ? "#\(comic.number)" : title
            } else {
                subtitle = "comics"
            }
        case .favourites:
            subtitle = "favourites"
        }
        return "Oak Comics · " + subtitle
    }
}
