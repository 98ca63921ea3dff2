// The Comics feature in a terminal: the comic (number, title, date, alt
// text, links), a spinner while loading, errors with Retry, and the keys
// valid in the current state.

import ComicsFeature
import Oak
import TerminalUI

/// Draws a ``ComicsModel`` and maps keys to its intents.
public enum ComicsTerminalView {
    /// Draws `model` on `canvas`; `tick` turns the spinner.
    public static func render(_ model: ComicsModel, tick: Int, on canvas: inout Canvas) {
        switch model.content {
        case .empty:
            canvas.add("No comic yet.", .dim)
        case .comic(let comic, let isFavourite):
            var header = Line([Span("#\(comic.number) ", .dim), Span(comic.title, .bold)])
            if isFavourite { header.spans.append(Span("  ★ favourite", .accent)) }
            canvas.add(header)
            canvas.add(comic.date, .dim)
            canvas.skip()
            // The image itself where the terminal shows images, else its
            // address below the alt text.
            let isPlaced = model.image.map { canvas.place(png: Array($0), columns: 40, rows: 12) } ?? false
            if isPlaced { canvas.skip() }
            canvas.addWrapped(comic.alt, maxLines: max(canvas.height - canvas.lines.count - 6, 3))
            canvas.skip()
            if !isPlaced, let image = comic.imageURL { canvas.add("Image: \(image.absoluteString)", .dim) }
            if let link = comic.link { canvas.add("Link:  \(link.absoluteString)", .dim) }
        case .notFound(let number):
            canvas.add("There is no comic #\(number).", .bold)
            canvas.add("Go on with the next or previous one, or jump to another number.", .dim)
        case .failure(let request, let error):
            canvas.add("Could not load \(request): \(error)", .error)
            canvas.add(error.isRetryable ? "Press t to try again." : "", .dim)
        }
        if let request = model.loading {
            canvas.skip()
            canvas.add("\(spinner(tick)) Loading \(request)…   (x to cancel)", .dim)
        }
        if let notice = model.notice {
            canvas.skip()
            if case .favouritesUnavailable(let error) = notice, let detail = error.detail {
                // The terminal's user owns the files: where and why, in full.
                canvas.addWrapped("Favourites are not available: \(detail)", .accent)
            } else {
                canvas.add(notice.description, .accent)
            }
        }
    }

    /// The keys valid for `model`, each performing one of its intents.
    @MainActor
    public static func bindings(_ model: ComicsModel) -> [KeyBinding] {
        model.intents.map { action in
            let intent = action.intent
            let (keys, label) = keys(for: action.kind)
            return KeyBinding(keys, label, intent: intent)
        }
    }

    static func keys(for kind: ComicsModel.Kind) -> ([Key], String) {
        switch kind {
        case .previous: ([.left, .character("p")], "previous")
        case .next: ([.right, .character("n")], "next")
        case .latest: ([.character("l")], "latest")
        case .random: ([.character("r")], "random")
        case .cancel: ([.character("x")], "cancel")
        case .retry: ([.character("t")], "retry")
        case .toggleFavourite: ([.character("f")], "favourite")
        }
    }

    static func spinner(_ tick: Int) -> String {
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        return frames[abs(tick) % frames.count]
    }
}
