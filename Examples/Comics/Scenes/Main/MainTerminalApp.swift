// Runs the app in a terminal: the Main transducer on the main actor, its
// every state drawn, every key turned into an intent of the state shown.
// Polls keys without blocking the actor, so the run and its children
// process events between two polls.

import ComicsScene
import FavouritesScene
import Oak
import TerminalUI

/// The terminal front end of the app.
@MainActor
public final class MainTerminalApp {
    private let terminal = Terminal()
    private let proxy = Main.Proxy(bufferSize: 64)
    private var state = Main.State()
    private var tick = 0
    /// How the run ended, once it has: `nil` inside when it ended normally.
    private var ending: (any Error)??

    /// A front end, not started.
    public init() {}

    /// Whether this terminal shows images inline: if so, give the app a
    /// port that loads them (``ComicsEnv/image``).
    public nonisolated static var showsImages: Bool { InlineImageProtocol.detect() != nil }

    /// Runs the app until the user quits; the terminal is restored after.
    public func run(env: Main.Env) async throws {
        terminal.start()
        defer { terminal.stop() }
        let proxy = self.proxy
        try proxy.send(.start)
        let run = Task { @MainActor [weak self] in
            do {
                _ = try await Main.run(
                    initialState: Main.State(), proxy: proxy, env: env,
                    output: Callback { @MainActor [weak self] state in self?.state = state })
                self?.ending = .some(nil)
            } catch {
                self?.ending = .some(error)
            }
        }
        // Until the user quits, or the run ends otherwise (then its error
        // is thrown once the terminal is restored).
        // The screen is made and drawn again only when what it shows has
        // changed: the state, the terminal's size, or the spinner's frame
        // while something loads.
        var shown: (state: Main.State, width: Int, height: Int, frame: Int)?
        var bindings: [KeyBinding] = []
        while !state.hasQuit, ending == nil {
            let (width, height) = terminal.size
            let frame = state.comicsState.phase.isLoading ? tick : 0
            if shown.map({ $0 != (state, width, height, frame) }) ?? true {
                let screen = MainTerminalView.screen(
                    state, intents: MainIntents(for: state, proxy: proxy) { [unowned self] in self.state },
                    tick: frame, width: width, height: height, imageProtocol: terminal.imageProtocol)
                terminal.draw(screen.canvas)
                bindings = screen.bindings
                shown = (state, width, height, frame)
            }
            guard let key = terminal.readKey() else {
                tick += 1
                try? await Task.sleep(for: .milliseconds(40))
                continue
            }
            // One key at a time: the next key is read against the state
            // this one leads to, once the runs (on this actor) have
            // processed it.
            let before = state
            MainTerminalView.binding(for: key, in: bindings)?.action()
            for _ in 0..<20 where state == before {
                await Task.yield()
            }
        }
        proxy.cancel()
        await run.value
        if case .some(.some(let error)) = ending, !state.hasQuit, !(error is CancellationError) {
            throw error
        }
    }
}
