// `Result` from an async throwing closure, for the hosts' completions.

extension Result where Failure == any Error {
    /// The outcome of `body`: `.success` with what it returned, `.failure`
    /// with what it threw. The hosts hand it to their completion.
    @usableFromInline
    init(
        catching body: () async throws -> Success,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
