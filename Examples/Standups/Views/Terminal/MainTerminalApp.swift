// Runs the app in a terminal: `Main` hosted by Oak's
// ObservableTransducer on the main actor, drawn and driven by AppSupport's
// terminal front end. Each key's intent returns once the runs have
// processed it, before the next key is read.

import Oak
import StandupsMain
import TerminalUI

/// The terminal front end of the app.
@MainActor
public final class MainTerminalApp {
    private let frontEnd: TerminalFrontEnd

    /// A front end on `terminal`, not started.
    public init(terminal: Terminal) {
        frontEnd = TerminalFrontEnd(terminal: terminal)
    }

    /// Runs the app until the user quits (once every change is durable);
    /// the terminal is restored after.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot show the app,
    ///   or what ended the run otherwise.
    public func run(env: Main.Env) async throws {
        let speech = env.detail.speech.unavailableReason
        // Keys typed ahead wait until the app has settled after the one
        // before: each meets the screen it was typed for.
        try await frontEnd.run(
            Main.self, initialState: Main.State(), env: env, start: { await $0.proxy.send(.start) },
            isSettled: \.isSettled
        ) { state, host, context in
            MainTerminalView.screen(state, host: host, context: context, speechUnavailable: speech)
        }
    }
}
