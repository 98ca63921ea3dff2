// Both features' ports reach favourites through the same store, which may
// have failed to open: one place turns a persistence failure into the
// feature's own error.

import Logging
import Persistence

extension Result where Success == any FavouritesStorage, Failure == PersistenceError {
    /// The result of `body` on the store; a store that could not be opened,
    /// or a failure of `body`, becomes the error `featureError` makes of the
    /// failure's summary (for anyone: no path) and description (with the
    /// paths, for the machine's user), and is logged with its paths.
    func using<Value, FeatureError: Error>(
        _ featureError: (_ summary: String, _ detail: String) -> FeatureError,
        _ body: (any FavouritesStorage) async throws(PersistenceError) -> Value
    ) async throws(FeatureError) -> Value {
        do throws(PersistenceError) {
            return try await body(get())
        } catch {
            favouritesLogger.error("The favourites are not available.", metadata: ["error": "\(error)"])
            throw featureError(error.summary, error.description)
        }
    }
}

/// Where failures of the favourites store are logged, with their paths.
let favouritesLogger = Logger(label: "oak.comics.favourites")
