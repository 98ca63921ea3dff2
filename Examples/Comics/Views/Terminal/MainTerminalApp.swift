// Runs the app in a terminal: `Main` hosted by Oak's ObservableTransducer on
// the main actor, drawn and driven by AppSupport's terminal front end. Each
// key's intent is performed (it returns once the runs have processed it)
// before the next key is read, so keys typed fast are each read in the
// state the previous one led to.

import ComicsFeature
import ComicsMain
import FavouritesFeature
import Oak
import TerminalUI

/// The terminal front end of the app.
@MainActor
public final class MainTerminalApp {
    private let frontEnd: TerminalFrontEnd

    /// A front end, not started.
    public init(frontEnd: TerminalFrontEnd = TerminalFrontEnd()) {
        self.frontEnd = frontEnd
    }

    /// Whether this terminal shows images inline: if so, give the app a
    /// port that loads them (``ComicsEnv/image``).
    public nonisolated static var showsImages: Bool { InlineImageProtocol.detect() != nil }

    /// Runs the app until the user quits; the terminal is restored after.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot show the app,
    ///   or what ended the run otherwise.
    public func run(env: Main.Env) async throws {
        try await frontEnd.run(
            Main.self, initialState: Main.State(), env: env, start: { await $0.proxy.send(.start) },
            isAnimating: { $0.comics?.state.phase.isLoading ?? false }
        ) { state, host, context in
            MainTerminalView.screen(state, host: host, context: context)
        }
    }
}
