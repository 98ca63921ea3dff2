// One browser session: an actor that hosts the app's Main transducer (and
// through it the Comics and Favourites features) for one browser, keeps the
// latest state the run reported, and tells the session's open pages when it
// changes. The web layer only reads the state and invokes the intents of
// models derived from it: every change of state comes from the transducers.

import ComicsScene
import Foundation
import MainScene
import Oak
import WebUI

/// The app, hosted for one browser session.
actor WebSession {
    /// The session's id: the value of its cookie. Unguessable (see
    /// ``SessionStore``).
    nonisolated let id: String
    /// The token every intent of this session carries.
    nonisolated let token: String
    /// The run's event channel.
    nonisolated let proxy = Main.Proxy(bufferSize: 64)

    /// The latest state the run reported.
    private(set) var state = Main.State()
    /// Counts the states reported: the id of each pushed page.
    private(set) var version = 0
    /// The pages listening for changes, by listener.
    private var listeners: [UUID: AsyncStream<Int>.Continuation] = [:]
    /// The run, once started.
    private var run: Task<Void, Never>?
    /// Whether the run has ended.
    private(set) var hasEnded = false

    init(id: String, token: String) {
        self.id = id
        self.token = token
    }

    /// What the forms of this session's pages need.
    nonisolated var context: WebContext { WebContext(token: token) }

    /// Starts the app with the features' ports `env`.
    func start(env: Main.Env) {
        guard run == nil else { return }
        try? proxy.send(.start)
        let proxy = self.proxy
        run = Task {
            do {
                _ = try await Main.run(
                    initialState: Main.State(), proxy: proxy, env: env,
                    output: Callback { [weak self] state in await self?.report(state) })
            } catch {
                // Cancelled when the session expires or the server stops;
                // anything else ends the session the same way: its page
                // reloads into a new one.
            }
            self.end()
        }
    }

    /// Ends the run (every operation of every feature included) and waits
    /// until it has ended.
    func stop() async {
        proxy.cancel()
        await run?.value
        end()
    }

    /// The whole page of the current state. (This and the other reads are
    /// out of line: inlined into a caller's async frame, such as an event
    /// stream's, each copy of the state would stay in it as long as the
    /// stream is open.)
    @inline(never)
    func page() -> HTML {
        MainWebView.page(state, intents: intents(), context: context)
    }

    /// The content of the current state, for a page that is open.
    @inline(never)
    func content() -> HTML {
        MainWebView.content(state, intents: intents(), context: context)
    }

    /// The image of comic `number`, if it is the comic shown and its image
    /// has arrived.
    @inline(never)
    func image(of number: Int) -> Data? {
        guard case .showing(let comic) = state.comicsState.phase, comic.number == number else { return nil }
        return state.comicsState.image
    }

    /// Invokes the intent named `name` of the model of the current state;
    /// `nil` when there is no such intent in this state.
    @inline(never)
    func perform(intent name: String, number: Int?) -> IntentResult? {
        MainWebView.perform(intent: name, number: number, state: state, intents: intents())
    }

    /// The versions of the states reported from now on, until the session
    /// ends or the listener stops listening.
    func changes() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        if hasEnded {
            continuation.finish()
            return stream
        }
        let listener = UUID()
        listeners[listener] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeListener(listener) }
        }
        return stream
    }

    private func removeListener(_ listener: UUID) {
        listeners[listener] = nil
    }

    private func intents() -> MainIntents {
        MainIntents(for: state, proxy: proxy) { [unowned self] in self.state }
    }

    private func report(_ newState: Main.State) {
        guard newState != state else { return }
        state = newState
        version += 1
        for listener in listeners.values {
            listener.yield(version)
        }
    }

    private func end() {
        hasEnded = true
        for listener in listeners.values {
            listener.finish()
        }
        listeners.removeAll()
    }
}
