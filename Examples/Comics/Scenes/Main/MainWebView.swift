// The whole app in a web page, rendered on the server: a header with the
// navigation, then the scene shown through its own web view. A posted form
// names an intent (`comics.next`); `perform` turns the name into that
// intent of the model of the current state and invokes it, so a form that
// makes no sense now does nothing. No feature logic here: only names to
// intents.

import ComicsScene
import Common
import FavouritesScene
import Foundation
import Oak
import WebUI

/// Renders the app as HTML and performs the intents its forms post.
public enum MainWebView {
    /// The intent name of the navigation to the comics.
    public static let showComicsIntent = "main.showComics"
    /// The intent name of the navigation to the favourites.
    public static let showFavouritesIntent = "main.showFavourites"
    /// The intent name that opens comic `number` (a favourite's Open).
    public static let openComicIntent = FavouritesWebView.openComicIntent

    /// Every intent name a form may post.
    public static let intentNames: [String] =
        [showComicsIntent, showFavouritesIntent, openComicIntent]
        + ComicsModel.Kind.allCases.map(ComicsWebView.intentName) + [ComicsWebView.goToIntent]
        + FavouritesWebView.kinds.map(FavouritesWebView.intentName)

    /// The page's content for `state`: the header, then the scene; the
    /// forms carry `context`'s token and name the intents of `intents`.
    public static func content(_ state: Main.State, intents: MainIntents, context: WebContext) -> HTML {
        let navigation = HTML.join([
            navigationButton("Comics", intent: showComicsIntent, isCurrent: state.scene == .comics, context),
            navigationButton(
                "Favourites", intent: showFavouritesIntent, isCurrent: state.scene == .favourites, context),
        ])
        let scene: HTML
        let name: String
        switch state.scene {
        case .comics:
            name = "comics"
            scene = intents.comicsModel(state).map { ComicsWebView.render($0, context: context) } ?? starting
        case .favourites:
            name = "favourites"
            scene = intents.favouritesModel(state).map { FavouritesWebView.render($0, context: context) } ?? starting
        }
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
        state.scene == .comics ? ComicsWebView.image(at: path, in: state.comicsState) : nil
    }

    /// The app's own style rules (after the web host's base style).
    public static let style = FavouritesWebView.style

    /// Invokes the intent named `name` (with `number`, for those that take
    /// one) of the model of `state`, made by `intents`: nil if no such
    /// intent is offered in `state` (an unknown name, a scene not shown, an
    /// action the state does not allow, a missing number),
    /// else what the intent did (``IntentResult/stale`` if the state has
    /// moved on since `state`).
    public static func perform(
        intent name: String, number: Int?, state: Main.State, intents: MainIntents
    ) -> IntentResult? {
        switch name {
        case showComicsIntent:
            return intents.main(.showComics)()
        case showFavouritesIntent:
            return intents.main(.showFavourites)()
        case openComicIntent:
            return number.flatMap { intents.openComic($0, state) }?()
        case ComicsWebView.goToIntent:
            return number.flatMap { intents.comicsModel(state)?.goTo($0) }?()
        default:
            if let kind = ComicsModel.Kind.allCases.first(where: { ComicsWebView.intentName($0) == name }) {
                return intents.comicsModel(state)?.intent(kind)?()
            }
            if let kind = FavouritesWebView.kinds.first(where: { FavouritesWebView.intentName($0) == name }) {
                return intents.favouritesModel(state)?.intent(kind)?()
            }
            return nil
        }
    }

    /// The scene while its feature has not started.
    static let starting: HTML = "<p class=\"dim\" id=\"starting\" role=\"status\">Starting…</p>"

    /// A navigation button; the scene shown is marked as current.
    static func navigationButton(_ label: String, intent: String, isCurrent: Bool, _ context: WebContext) -> HTML {
        let button = context.button(label, intent: intent)
        return isCurrent ? "<span class=\"current\" aria-current=\"page\">\(button)</span>" : button
    }

    /// The page's title: "Oak Comics · " and the comic shown, or the
    /// scene.
    public static func title(_ state: Main.State) -> String {
        let subtitle: String
        switch state.scene {
        case .comics:
            if let comic = state.comicsState.shownComic {
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
