// Both features' ports reach favourites through the same store, which may
// have failed to open: one place turns a persistence failure into the
// feature's own error.

import Persistence

extension Result where Success == FavouritesStore, Failure == PersistenceError {
    /// The result of `body` on the store; a store that could not be opened,
    /// or a failure of `body`, becomes the error `featureError` makes of its
    /// message.
    func using<Value, FeatureError: Error>(
        _ featureError: (String) -> FeatureError,
        _ body: (FavouritesStore) throws(PersistenceError) -> Value
    ) throws(FeatureError) -> Value {
        do throws(PersistenceError) {
            return try body(get())
        } catch {
            throw featureError(error.description)
        }
    }
}
