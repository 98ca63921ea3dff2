// The Comics feature as plain text and JSON, for output that is not a
// terminal (a pipe, a script): the non-interactive commands print these.

import Common
import Foundation

/// Plain-text and JSON renderings of comics.
public enum ComicsPlainView {
    /// Shows what `request` names: the feature runs once (``Comics/once(env:steps:isolation:)``)
    /// and the comic it shows, or why it shows none, is the result. Plain
    /// output shows no images: none is fetched.
    public static func load(_ request: Comics.Request, env: ComicsEnv) async -> Result<Comic, ComicsError> {
        let state = await Comics.once(env: withoutImages(env), steps: [{ _ in request.event }])
        return state.shown ?? .failure(.badResponse("nothing was loaded"))
    }

    /// Makes comic `number` a favourite the way a person does: shows it,
    /// then marks it unless it is already marked. Returns the comic.
    ///
    /// - Throws: ``ComicsError`` when the comic cannot be shown,
    ///   ``FavouritesUnavailable`` when the store did not take the mark.
    public static func addFavourite(_ number: Int, env: ComicsEnv) async throws -> Comic {
        let state = await Comics.once(
            env: withoutImages(env),
            steps: [{ _ in .goTo(number) }, { $0.isFavourite ? nil : .toggleFavourite }])
        let comic = try (state.shown ?? .failure(.badResponse("nothing was loaded"))).get()
        if case .favouritesUnavailable(let error) = state.notice { throw error }
        return comic
    }

    /// `env` for a front end that shows no images.
    static func withoutImages(_ env: ComicsEnv) -> ComicsEnv {
        var env = env
        env.image = { _ in nil }
        return env
    }

    /// A comic as a few lines of plain text, or the error.
    public static func describe(_ result: Result<Comic, ComicsError>) -> String {
        switch result {
        case .success(let comic):
            var lines = ["#\(comic.number): \(comic.title.plainText)", comic.date.plainText, "", comic.alt.plainText]
            if let image = comic.imageURL { lines.append("Image: \(image.absoluteString)") }
            if let link = comic.link { lines.append("Link: \(link.absoluteString)") }
            return lines.joined(separator: "\n")
        case .failure(let error):
            return "Error: \(error)"
        }
    }

    /// A comic, or the error, as JSON.
    public static func json(_ result: Result<Comic, ComicsError>) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data =
            switch result {
            case .success(let comic): try encoder.encode(comic)
            case .failure(let error): try encoder.encode(["error": error.description])
            }
        return escapingControlCharacters(String(decoding: data, as: UTF8.self))
    }

    /// `json` with DEL and the C1 controls (which JSONEncoder leaves as
    /// they are) written as `\u` escapes: printed to a terminal, the JSON
    /// cannot act on it. They can occur only inside strings.
    public static func escapingControlCharacters(_ json: String) -> String {
        var result = ""
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                result += "\\u00" + String(scalar.value, radix: 16, uppercase: false)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Comics.Phase {
    /// The phase's case, for a state diagram: "showing", "loading".
    public var name: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .showing: "showing"
        case .notFound: "not found"
        case .failed: "failed"
        }
    }
}

extension Comics.Event {
    /// The event's case without its payload, for a state diagram:
    /// "didLoad", "goTo".
    public var name: String {
        if case .answer(let answer) = self { return answer.name }
        return String(String(describing: self).prefix { $0 != "(" })
    }
}
