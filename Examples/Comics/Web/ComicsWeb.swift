// The web front end of the Comics app: the configuration of AppSupport's
// generic web host. Each browser session runs `Main` (and through it the
// Comics and Favourites features) with the ports the injector built;
// everything a page shows and every intent its forms are bound to comes from
// the scenes' web views. No feature logic here.

import ComicsFeature
import ComicsMain
import ComicsWebViews
import FavouritesFeature
import Oak
import WebHost
import WebUI

/// The Comics app, as the web host serves it to browsers.
///
/// ```swift
/// let host = try await WebHost.start(app: ComicsWeb(env: env), port: 8080)
/// ```
public struct ComicsWeb: WebApplication {
    /// The features' ports, shared by every session.
    public let environment: Main.Env

    /// The app over the features' ports `env`.
    public init(env: Main.Env) {
        environment = env
    }

    /// "Oak Comics".
    public var name: String { "Oak Comics" }

    /// The app before it starts.
    public func initialState() -> Main.State { Main.State() }

    /// Starts the Comics feature.
    public func start(_ proxy: Main.Proxy) async {
        await proxy.send(.start)
    }

    /// The app shows a comic (with its image) or the favourites: `Main.isSettled(_:)`.
    public func isSettled(_ state: Main.State) -> Bool {
        Main.isSettled(state)
    }

    /// The comic shown, or the scene.
    public func title(of state: Main.State) -> String {
        MainWebView.title(state)
    }

    /// The header and the scene shown, by the scenes' web views, their
    /// forms bound to the intents of the model of `state`.
    public func content(of state: Main.State, session: WebSessionContext<Main>) -> HTML {
        MainWebView.content(state, intents: intents(state, session), context: session.forms)
    }

    /// The image of the comic shown.
    public func resource(at path: String, in state: Main.State) -> WebResource? {
        MainWebView.image(at: path, in: state).map { WebResource(data: $0) }
    }

    /// The favourites list's rules.
    public var style: String { MainWebView.style }

    private func intents(_ state: Main.State, _ session: WebSessionContext<Main>) -> MainIntents {
        MainIntents(for: state, proxy: session.proxy, current: session.current)
    }
}
