// Runs the app in a terminal: `AppFeature` hosted by Oak's
// ObservableTransducer on the main actor, drawn and driven by AppSupport's
// terminal front end. Each key's intent returns once the runs have
// processed it, before the next key is read.

import AppFeature
import Oak
import TerminalUI

/// The terminal front end of the app.
@MainActor
public final class StandupsTerminalApp {
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
    public func run(env: AppFeature.Env) async throws {
        var ending: Result<Void, any Error>?
        let host = ObservableTransducer<AppFeature>(initialState: AppFeature.State(), env: env) { ending = $0 }
        await host.proxy.send(.start)
        do {
            // Keys typed ahead wait until the app has settled after the
            // one before: each meets the screen it was typed for.
            try await frontEnd.run(host, isSettled: \.isSettled) { state, context in
                StandupsTerminalView.screen(
                    state, host: host, context: context, speechUnavailable: env.detail.speech.unavailableReason)
            }
        } catch {
            host.cancel()
            throw error
        }
        host.cancel()
        if case .failure(let error) = ending, !(error is CancellationError), error as? TransducerError != .cancelled {
            throw error
        }
    }
}
