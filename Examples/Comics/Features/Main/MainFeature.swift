// The root feature: which scene is shown, the help screen, the number
// being typed after "g", and quitting are all state here. It runs the
// Comics feature for as long as the app runs and the Favourites feature
// exactly while its scene is shown, as children bound to its state. Their
// states are kept once, in their handles (`Child.state`); what Main acts
// on comes back as events.

import ComicsFeature
import FavouritesFeature
import Oak

/// The app's root: which scene is shown (comics or favourites), help, the
/// go-to prompt and quitting; Comics and Favourites run as its children.
public enum Main: EffectTransducer {
    /// The scenes.
    public enum Scene: Equatable, Hashable, Sendable {
        /// One comic at a time.
        case comics
        /// The list of favourites.
        case favourites
    }

    /// The app's state.
    public struct State: Terminable, Equatable, Sendable {
        /// The scene shown.
        public var scene: Scene
        /// Whether the help screen is shown over the scene.
        public var isHelpShown: Bool
        /// The digits typed after "g" (go to number), while typing.
        public var prompt: String?
        /// The Comics feature's run, from `start` on; its state is
        /// `comics.state`.
        public var comics: Child<Comics>?
        /// The Favourites feature's run, while its scene is shown; its
        /// state is `favourites.state`.
        public var favourites: Child<Favourites>?
        /// Whether the user has quit.
        public var hasQuit: Bool
        /// Whether the user has asked to quit while favourite marks are on
        /// their way to the store: the app quits once they are stored.
        public var isQuitting: Bool

        /// The app before `start`.
        public init() {
            scene = .comics
            isHelpShown = false
            hasQuit = false
            isQuitting = false
        }

        /// The app ends when the user quits.
        public var isTerminal: Bool { hasQuit }

        var comicsChildren: [Child<Comics>] { comics.map { [$0] } ?? [] }
        var favouritesChildren: [Child<Favourites>] { favourites.map { [$0] } ?? [] }
    }

    /// What happens to the app.
    public enum Event: Equatable, Sendable {
        /// Start the Comics feature.
        case start
        /// Show the comics.
        case showComics
        /// Show the favourites.
        case showFavourites
        /// Show or hide the help screen.
        case toggleHelp
        /// Quit.
        case quit
        /// Start typing a number to go to.
        case beginGoTo
        /// A digit typed.
        case typeDigit(Int)
        /// The last digit removed.
        case deleteDigit
        /// Go to the number typed.
        case submitGoTo
        /// Stop typing a number.
        case cancelGoTo
        /// The Comics feature has no favourite marks on their way to the
        /// store (it says so after each of its updates that leaves none).
        case marksStored
        /// The Favourites feature asked to show comic `n`.
        case openComic(Int)
    }

    /// The environment: the ports of both features.
    public struct Env: Sendable {
        /// The Comics feature's port.
        public var comics: ComicsEnv
        /// The Favourites feature's port.
        public var favourites: FavouritesEnv

        /// Both ports.
        public init(comics: ComicsEnv, favourites: FavouritesEnv) {
            self.comics = comics
            self.favourites = favourites
        }

        /// Both features' mocks.
        public static var mock: Env { Env(comics: .mock, favourites: .mock) }
    }

    // No output: hosts read the state from their storage (an
    // ObservableTransducer, a web session), so the run keeps no copy of its
    // 500-byte state as an output in its frame.

    /// Every event is processed before its sender goes on: an intent of
    /// Main returns with the app showing its result (a terminal reads the
    /// next key in it).
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// Whether the app shows what it was asked for, with nothing it shows
    /// still loading: the comics scene a comic (or why there is none) with
    /// its image, the favourites scene its list. A web front end's first
    /// page waits for it.
    public static func isSettled(_ state: State) -> Bool {
        switch state.scene {
        case .comics:
            state.comics?.state.isSettled ?? false
        case .favourites:
            state.favourites.map { $0.state.phase != .loading } ?? false
        }
    }

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Self.Effect? {
        let before = state
        var effects: [Self.Effect] = []
        switch event {
        case .start:
            if state.comics == nil {
                state.comics = Child(Comics.self, initialState: Comics.State(), proxy: Comics.Proxy(bufferSize: 32))
            }
        case .showComics:
            state.scene = .comics
            state.isHelpShown = false
        case .showFavourites:
            state.scene = .favourites
            state.isHelpShown = false
            if state.favourites == nil {
                state.favourites = Child(
                    Favourites.self, initialState: Favourites.State(), proxy: Favourites.Proxy(bufferSize: 32))
            }
        case .toggleHelp:
            state.isHelpShown.toggle()
        case .quit:
            // Marks the store has not taken yet are written first; asked
            // again, the app quits at once.
            if state.comics?.state.favouriteChanges.isEmpty ?? true || state.isQuitting {
                state.hasQuit = true
            } else {
                state.isQuitting = true
            }
        case .beginGoTo:
            guard state.scene == .comics else { break }
            state.prompt = ""
        case .typeDigit(let digit):
            guard let prompt = state.prompt, (0...9).contains(digit), prompt.count < 6 else { break }
            state.prompt = prompt + String(digit)
        case .deleteDigit:
            guard var prompt = state.prompt, !prompt.isEmpty else { break }
            prompt.removeLast()
            state.prompt = prompt
        case .submitGoTo:
            guard let prompt = state.prompt else { break }
            state.prompt = nil
            if let number = Int(prompt), let comics = state.comics {
                effects.append(.send(.goTo(number), to: comics))
            }
        case .cancelGoTo:
            state.prompt = nil
        case .marksStored:
            if state.isQuitting { state.hasQuit = true }
        case .openComic(let number):
            // Opened from the favourites' list only.
            guard state.scene == .favourites else { break }
            state.scene = .comics
            if let comics = state.comics { effects.append(.send(.goTo(number), to: comics)) }
        }
        // The favourites run exactly while their scene is shown.
        if state.scene != .favourites { state.favourites = nil }
        if state.hasQuit {
            state.comics = nil
            state.favourites = nil
        }
        if let change = Self.Effect.children(
            \.comicsChildren, from: before, to: state,
            start: { child in
                .combine(
                    .run(child, env: { $0.comics }, output: { $0.favouriteChanges.isEmpty ? .marksStored : nil }),
                    .send(.start, to: child))
            })
        {
            effects.insert(change, at: 0)
        }
        if let change = Self.Effect.children(
            \.favouritesChildren, from: before, to: state,
            start: { child in
                .combine(
                    .run(
                        child, env: { $0.favourites },
                        output: { output in
                            switch output {
                            case .changed: nil
                            case .open(let number): .openComic(number)
                            }
                        }),
                    .send(.load, to: child))
            })
        {
            effects.insert(change, at: 0)
        }
        switch effects.count {
        case 0: return nil
        case 1: return effects[0]
        default: return .combine(effects)
        }
    }
}
