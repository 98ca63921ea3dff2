// The whole app in SwiftUI: the scene of Main's state, Comics or
// Favourites, with a button to show the other one. As in the terminal front
// end, every button is an intent of the state it was drawn from: Main's own
// through the host, the children's through their proxies in Main's state.

#if canImport(SwiftUI)
import ComicsScene
import FavouritesScene
import Oak
import SwiftUI

/// Shows the app hosted by an `ObservableTransducer<Main>`: the scene of its
/// state and a button to switch scenes. It starts the Comics feature when it
/// appears.
///
/// Whoever owns the app's lifetime owns the host, so that the run outlives
/// the view's updates:
///
/// ```swift
/// @main
/// struct ComicsApp: App {
///     @State private var main = ObservableTransducer<Main>(initialState: Main.State(), env: .mock)
///
///     var body: some Scene {
///         WindowGroup { MainView(main) }
///     }
/// }
/// ```
public struct MainView: View {
    /// The host of the app's run.
    public let host: ObservableTransducer<Main>

    /// A view of the run that `host` hosts.
    public init(_ host: ObservableTransducer<Main>) {
        self.host = host
    }

    /// The scene shown; `start` when the view appears (Main ignores it once
    /// the Comics feature runs).
    public var body: some View {
        host.model(scope: Main.scope(of:), screen)
            .task { try? host.proxy.send(.start) }
    }

    /// The scene of `state`; `main` makes Main's own intents.
    private func screen(_ state: Main.State, main: Intents<Main, Main.Scope>) -> some View {
        VStack(alignment: .leading, spacing: 16) {
            switch state.scene {
            case .comics:
                Button("Favourites") { main(.showFavourites)() }
                if let model = comicsModel(state) {
                    ComicsView(model)
                } else {
                    Text("Starting…").foregroundStyle(.secondary)
                }
            case .favourites:
                Button("Comics") { main(.showComics)() }
                if let model = favouritesModel(state) {
                    FavouritesView(model)
                }
            }
        }
    }

    /// The Comics feature's model, while it runs: its intents go to the
    /// child's proxy and check the state Main last got from it.
    private func comicsModel(_ state: Main.State) -> ComicsModel? {
        state.comics.map { child in
            let intents = Intents<Comics, Comics.Phase>(
                for: state.comicsState, proxy: child.proxy, scope: Comics.scope(of:)
            ) { [host] in host.state.comicsState }
            return Comics.model(of: state.comicsState, intents: intents)
        }
    }

    /// The Favourites feature's model, while it runs.
    private func favouritesModel(_ state: Main.State) -> FavouritesModel? {
        state.favourites.map { child in
            let intents = Intents<Favourites, Favourites.State>(
                for: state.favouritesState, proxy: child.proxy, scope: Favourites.scope(of:)
            ) { [host] in host.state.favouritesState }
            return Favourites.model(of: state.favouritesState, intents: intents)
        }
    }
}
#endif
