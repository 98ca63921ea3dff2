// The whole app in SwiftUI: the scene of Main's state, Comics or
// Favourites, with a button to show the other one. As in the terminal front
// end, every button is an intent of the state it was drawn from: Main's own
// through the host, the children's through their proxies in Main's state.

#if canImport(SwiftUI)
import ComicsFeature
import FavouritesFeature
import ComicsMain
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
        screen(host.state)
            .task { await host.proxy.send(.start) }
    }

    /// The scene of `state`, with the intents of that state.
    private func screen(_ state: Main.State) -> some View {
        let intents = MainIntents(for: state, proxy: host.proxy) { [host] in host.state }
        let main = intents.main
        return VStack(alignment: .leading, spacing: 16) {
            switch state.scene {
            case .comics:
                Button("Favourites") { main(.showFavourites)() }
                if let model = intents.comicsModel(state) {
                    ComicsView(model)
                } else {
                    Text("Starting…").foregroundStyle(.secondary)
                }
            case .favourites:
                Button("Comics") { main(.showComics)() }
                if let model = intents.favouritesModel(state) {
                    FavouritesView(model)
                }
            }
        }
    }
}
#endif
