// The whole app in a terminal: a title bar, the scene shown (or the help
// screen), and a status bar with the keys valid now. Every key goes to an
// intent of a state-scoped model: a key that makes no sense now does
// nothing.

import ComicsScene
import FavouritesScene
import Oak
import TerminalUI

extension Main {
    /// The part of the state that decides which of Main's own intents are
    /// valid.
    public struct Scope: Hashable, Sendable {
        /// The scene shown.
        public var scene: Scene
        /// Whether help is shown.
        public var isHelpShown: Bool
        /// Whether a number is being typed.
        public var isTyping: Bool
    }

    /// The scope of `state`.
    public static func scope(of state: State) -> Scope {
        Scope(scene: state.scene, isHelpShown: state.isHelpShown, isTyping: state.prompt != nil)
    }
}

/// What the terminal front end needs to draw the app and act on keys.
public struct MainIntents {
    /// Main's own intents.
    public var main: Intents<Main, Main.Scope>
    /// The Comics feature's intents, sent to its run through its handle.
    public var comics: Intents<Comics, Comics.Phase>?
    /// The Favourites feature's intents, while it runs.
    public var favourites: Intents<Favourites, Favourites.State>?

    /// The intents for one state.
    public init(
        main: Intents<Main, Main.Scope>, comics: Intents<Comics, Comics.Phase>?,
        favourites: Intents<Favourites, Favourites.State>?
    ) {
        self.main = main
        self.comics = comics
        self.favourites = favourites
    }
}

/// Draws the app and maps keys to intents.
public enum MainTerminalView {
    /// The screen for `state` on a terminal of `width` × `height` (which
    /// shows images with `imageProtocol`, if any), and the keys valid there.
    public static func screen(
        _ state: Main.State, intents: MainIntents, tick: Int, width: Int, height: Int,
        imageProtocol: InlineImageProtocol? = nil
    ) -> (canvas: Canvas, bindings: [KeyBinding]) {
        var canvas = Canvas(width: width, height: height)
        canvas.imageProtocol = imageProtocol
        let title =
            switch state.scene {
            case .comics: "Oak Comics · comics"
            case .favourites: "Oak Comics · favourites"
            }
        canvas.add(title, .reverse)
        canvas.skip()

        var bindings: [KeyBinding] = []
        let main = intents.main
        if let prompt = state.prompt {
            canvas.add("Go to comic number: \(prompt)▏", .bold)
            canvas.add("Type the number, Enter to go, Esc to cancel.", .dim)
            for digit in 0...9 {
                bindings.append(
                    KeyBinding([.character(Character(String(digit)))], "digit", inStatusBar: false) {
                        main(.typeDigit(digit))()
                    })
            }
            bindings.append(KeyBinding([.backspace], "delete") { main(.deleteDigit)() })
            bindings.append(KeyBinding([.enter], "go") { main(.submitGoTo)() })
            bindings.append(KeyBinding([.escape], "cancel") { main(.cancelGoTo)() })
        } else if state.isHelpShown {
            bindings.append(KeyBinding([.character("?"), .escape], "close help") { main(.toggleHelp)() })
            bindings.append(KeyBinding([.character("q")], "quit") { main(.quit)() })
            let sceneBindings = self.sceneBindings(state, intents: intents)
            canvas.add("Keys", .bold)
            for binding in sceneBindings + bindings {
                canvas.add("  " + binding.summary)
            }
        } else {
            switch state.scene {
            case .comics:
                if let comicsIntents = intents.comics {
                    let model = Comics.model(of: state.comicsState, intents: comicsIntents)
                    ComicsTerminalView.render(model, tick: tick, on: &canvas)
                } else {
                    canvas.add("Starting…", .dim)
                }
            case .favourites:
                if let favouritesIntents = intents.favourites {
                    let model = Favourites.model(of: state.favouritesState, intents: favouritesIntents)
                    FavouritesTerminalView.render(model, on: &canvas)
                }
            }
            bindings = sceneBindings(state, intents: intents)
        }
        bindings.append(KeyBinding([.interrupt], "quit", inStatusBar: false) { main(.quit)() })
        canvas.status = Line(
            bindings.filter(\.isShownInStatusBar).map(\.summary).joined(separator: "  "), .reverse)
        return (canvas, bindings)
    }

    /// The keys of the scene shown, and Main's keys around it.
    static func sceneBindings(_ state: Main.State, intents: MainIntents) -> [KeyBinding] {
        let main = intents.main
        var bindings: [KeyBinding] = []
        switch state.scene {
        case .comics:
            if let comicsIntents = intents.comics {
                let model = Comics.model(of: state.comicsState, intents: comicsIntents)
                bindings += ComicsTerminalView.bindings(model)
                if model.offersGoTo {
                    bindings.append(KeyBinding([.character("g")], "go to") { main(.beginGoTo)() })
                }
            }
            bindings.append(KeyBinding([.character("v")], "favourites") { main(.showFavourites)() })
        case .favourites:
            if let favouritesIntents = intents.favourites {
                let model = Favourites.model(of: state.favouritesState, intents: favouritesIntents)
                bindings += FavouritesTerminalView.bindings(model)
            }
            bindings.append(KeyBinding([.character("v"), .escape], "comics") { main(.showComics)() })
        }
        bindings.append(KeyBinding([.character("?")], "help") { main(.toggleHelp)() })
        bindings.append(KeyBinding([.character("q")], "quit") { main(.quit)() })
        return bindings
    }

    /// The binding for `key`, if one is valid.
    public static func binding(for key: Key, in bindings: [KeyBinding]) -> KeyBinding? {
        bindings.first { $0.keys.contains(key) }
    }
}
