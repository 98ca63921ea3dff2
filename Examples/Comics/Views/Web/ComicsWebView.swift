// The Comics feature in a web page, rendered on the server: the comic
// (title, number, date, image with its alt text), what is loading, the last
// notice or error, and a form bound to each intent the model offers now. It
// renders the same `ComicsModel` as the terminal view; an action the state
// does not allow has no form. Every text from the network is made plain and
// interpolated, so it is escaped: none of it can become markup.

import ComicsFeature
import Common
import Foundation
import WebUI

/// Renders a ``ComicsModel`` as HTML.
public enum ComicsWebView {
    /// The key the "go to number" form posts (with the number).
    public static let goToKey = "comics.goTo"

    /// The key a form of the intent of `kind` posts, e.g. `comics.next`.
    public static func key(_ kind: ComicsModel.Kind) -> String {
        switch kind {
        case .previous: "comics.previous"
        case .next: "comics.next"
        case .latest: "comics.latest"
        case .random: "comics.random"
        case .cancel: "comics.cancel"
        case .retry: "comics.retry"
        case .toggleFavourite: "comics.toggleFavourite"
        }
    }

    /// Where the page loads the image of comic `number` from.
    public static func imagePath(for number: Int) -> String {
        "/image/\(number)"
    }

    /// The image at `path` (``imagePath(for:)``), when `state` shows that
    /// comic and its image has arrived; `nil` otherwise: a page shows only
    /// the image of the comic on it.
    public static func image(at path: String, in state: Comics.State) -> Data? {
        guard path.hasPrefix("/image/"), let number = Int(path.dropFirst("/image/".count)) else { return nil }
        return state.image(of: number)
    }

    /// The Comics scene for `model`: what is shown, then a form bound to
    /// each intent valid now (in `context`).
    public static func render(_ model: ComicsModel, context: WebContext) -> HTML {
        var isFavourite = false
        if case .comic(_, let favourite) = model.content { isFavourite = favourite }
        let buttons = model.intents.map { action in
            context.button(
                label(action.kind, isFavourite: isFavourite), key: key(action.kind), intent: action.intent,
                isPrimary: action.kind == .next || action.kind == .retry)
        }
        let goTo: HTML? =
            model.offersGoTo
            ? context.numberForm("Go", key: goToKey, placeholder: "Comic number", intent: model.goTo) : nil
        return """
            <section class="comics" id="comics">
            \(content(model))
            \(loading(model))\(notice(model))<div class="actions" id="comic-actions">\(HTML.join(buttons))\(goTo)</div>
            </section>
            """
    }

    /// The label of the button for `kind`.
    static func label(_ kind: ComicsModel.Kind, isFavourite: Bool) -> String {
        switch kind {
        case .previous: "← Previous"
        case .next: "Next →"
        case .latest: "Latest"
        case .random: "Random"
        case .cancel: "Cancel"
        case .retry: "Try again"
        case .toggleFavourite: isFavourite ? "★ Unfavourite" : "☆ Favourite"
        }
    }

    /// The comic, or why there is none.
    static func content(_ model: ComicsModel) -> HTML {
        switch model.content {
        case .empty:
            return "<p class=\"dim\" id=\"comic-empty\">No comic yet.</p>"
        case .comic(let comic, let isFavourite):
            let title = comic.title.plainText
            let alt = comic.alt.plainText
            let date = comic.date.plainText
            let dateLine: HTML? = date.isEmpty ? nil : " · <span class=\"date\" id=\"comic-date\">\(date)</span>"
            let marker: HTML? =
                isFavourite ? " · <span class=\"favourite\" id=\"comic-favourite\">★ favourite</span>" : nil
            // The image where the model has one (the server serves it),
            // else the alt text alone.
            let picture: HTML =
                if model.image != nil {
                    """
                    <figure><img id="comic-image" src="\(imagePath(for: comic.number))" alt="\(alt)">\
                    <figcaption id="comic-alt">\(alt)</figcaption></figure>
                    """
                } else {
                    "<p class=\"alt\" id=\"comic-alt\">\(alt)</p>"
                }
            return """
                <article class="comic" id="comic" data-number="\(comic.number)">
                <h2 id="comic-title">\(title)</h2>
                <p class="meta dim"><span class="number" id="comic-number">#\(comic.number)</span>\
                \(dateLine)\(marker)</p>
                \(picture)\(link(comic))
                </article>
                """
        case .notFound(let number):
            return """
                <div class="error" id="comic-error" role="alert"><p><strong>There is no comic #\(number).</strong></p>\
                <p>Go on with the next or previous one, or jump to another number.</p></div>
                """
        case .failure(let request, let error):
            return """
                <p class="error" id="comic-error" role="alert">Could not load \(request): \
                \(error.description.plainText)</p>
                """
        }
    }

    /// A link to where a person reads the comic on the web: only an http or
    /// https address, so a link from the network cannot run script.
    static func link(_ comic: Comic) -> HTML? {
        guard let link = comic.link, let scheme = link.scheme?.lowercased(), scheme == "https" || scheme == "http"
        else { return nil }
        return """
            <p class="link"><a id="comic-link" href="\(link.absoluteString)" rel="noopener noreferrer">\
            Read it on the web</a></p>
            """
    }

    /// What is loading, if anything (its Cancel button is with the others).
    static func loading(_ model: ComicsModel) -> HTML? {
        model.loading.map { request in
            """
            <p class="loading" id="comic-loading" role="status">Loading… <span class="dim">\(request)</span></p>

            """
        }
    }

    /// The message about the last intent, if any.
    static func notice(_ model: ComicsModel) -> HTML? {
        model.notice.map { notice in
            "<p class=\"notice\" id=\"comic-notice\" role=\"status\">\(notice.description.plainText)</p>\n"
        }
    }
}
