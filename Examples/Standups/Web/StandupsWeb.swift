// The web front end of the Standups app: the configuration of AppSupport's
// generic web host. Each browser session runs `AppFeature` (its own
// navigation) with the ports the injector built; the stand-ups are shared
// by every session and with the terminal app through the store. Everything
// a page shows and every intent a form posts comes from the features' web
// views. No feature logic here.

import AppFeature
import Oak
import StandupsIntents
import StandupsWebViews
import WebHost
import WebUI

/// The Standups app, as the web host serves it to browsers.
///
/// ```swift
/// let host = try await WebHost.start(app: StandupsWeb(env: env), port: 8080)
/// ```
public struct StandupsWeb: WebApplication {
    /// The features' ports, shared by every session.
    public let environment: AppFeature.Env

    /// The app over the features' ports `env`.
    public init(env: AppFeature.Env) {
        environment = env
    }

    /// "Oak Standups".
    public var name: String { "Oak Standups" }

    /// The app before it starts.
    public func initialState() -> AppFeature.State { AppFeature.State() }

    /// Loads the stand-ups.
    public func start(_ proxy: AppFeature.Proxy) async {
        await proxy.send(.start)
    }

    /// The stand-ups are loaded (or loading them failed).
    public func isSettled(_ state: AppFeature.State) -> Bool {
        StandupsWebView.isSettled(state)
    }

    /// The screen on top.
    public func title(of state: AppFeature.State) -> String {
        StandupsWebView.title(state)
    }

    /// The screen on top, by the features' web views.
    public func content(of state: AppFeature.State, session: WebSessionContext<AppFeature>) -> HTML {
        StandupsWebView.content(state, context: session.forms)
    }

    /// The intent of the screen on top a form names.
    public func perform(
        _ form: WebForm, in state: AppFeature.State, session: WebSessionContext<AppFeature>
    ) -> IntentResult? {
        StandupsWebView.perform(
            form.fields, in: state, intents: StandupsIntents(for: state, proxy: session.proxy, current: session.current)
        )
    }

    /// The themes' colours and the screens' rules.
    public var style: String { StandupsWebView.style }
}
