// The asynchronous `defer` Swift lacks: a test's browser and servers are
// stopped however the test ends.

/// Runs `body`, then `cleanup`, whether `body` returned or threw; returns
/// what `body` returned, or throws what it threw.
///
/// ```swift
/// let browser = try await WebDriver.start(width: 1280, height: 900)
/// try await withCleanup {
///     try await browser.open(server.baseURL)
///     …
/// } cleanup: {
///     await browser.quit()
///     await server.stop()
/// }
/// ```
public func withCleanup<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result,
    cleanup: () async -> Void
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
