// The Comics feature run once, for a command that prints and exits (`comics
// show`, `comics favourites add`): the same transducer the interactive front
// ends run, driven by a list of steps instead of a person, so that what the
// command does is what the feature does.

import Oak

extension Comics {
    /// Runs the feature from its first state with `env` and takes `steps`
    /// one after another: each is asked, once the feature is quiet (nothing
    /// loading, no image on its way, no favourite mark on its way to the
    /// store), for the next event, or `nil` to skip it. Returns the quiet
    /// state after the last step.
    ///
    /// ```swift
    /// let shown = await Comics.once(env: env, steps: [{ _ in .goTo(42) }])
    /// ```
    public static func once(
        env: ComicsEnv, steps: [(State) -> Event?], isolation: isolated (any Actor)? = #isolation
    ) async -> State {
        let proxy = Proxy(bufferSize: 8)
        let driver = StepDriver(proxy: proxy, steps: steps)
        guard driver.advance(from: State()) else { return State() }
        do {
            _ = try await run(initialState: State(), proxy: proxy, env: env, output: driver, isolation: isolation)
        } catch {
            // The driver cancels the run once its steps are done; the
            // feature's own failures are in its state.
        }
        return driver.last
    }
}

extension Comics.State {
    /// Whether nothing is on its way: no load, no image, no favourite mark.
    public var isQuiet: Bool {
        !phase.isLoading && !isLoadingImage && favouriteChanges.isEmpty
    }

    /// What the feature shows, as a result: the comic, or why there is
    /// none; `nil` before anything was asked.
    public var shown: Result<Comic, ComicsError>? {
        switch phase {
        case .idle, .loading: nil
        case .showing(let comic): .success(comic)
        case .notFound(let number): .failure(.notFound(number))
        case .failed(_, let error): .failure(error)
        }
    }
}

/// Feeds ``Comics/once(env:steps:isolation:)``'s steps to the run, one each
/// time the feature is quiet, and keeps the last state.
private final class StepDriver: Subject {
    let proxy: Comics.Proxy
    var steps: ArraySlice<(Comics.State) -> Comics.Event?>
    var last = Comics.State()

    init(proxy: Comics.Proxy, steps: [(Comics.State) -> Comics.Event?]) {
        self.proxy = proxy
        self.steps = steps[...]
    }

    func send(_ value: sending Comics.State, isolated: isolated any Actor) async throws {
        last = value
        if value.isQuiet, !advance(from: value) { proxy.cancel() }
    }

    /// Sends the next step's event; `false` when no step is left (or the
    /// run ended).
    func advance(from state: Comics.State) -> Bool {
        while let step = steps.popFirst() {
            guard let event = step(state) else { continue }
            do {
                try proxy.send(event)
                return true
            } catch {
                return false
            }
        }
        return false
    }
}

extension Comics.Request {
    /// The intent that asks for this request.
    public var event: Comics.Event {
        switch self {
        case .latest: .latest
        case .number(let number): .goTo(number)
        case .random: .random
        }
    }
}
