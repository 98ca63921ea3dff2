// The whole app in a terminal: a title bar, the scene shown (or the help
// screen), and a status bar with the keys valid now. Every key goes to an
// intent of a state-scoped model: a key that makes no sense now does
// nothing.

import ComicsFeature
import ComicsMain
import FavouritesFeature
import Oak
import TerminalUI

/// Draws the app and maps keys to intents.
@MainActor
public enum MainTerminalView {
    /// The screen of `state` hosted by `host`, in `context`.
    public static func screen(_ state: Main.State, host: ObservableTransducer<Main>, context: ScreenContext) -> Screen {
        screen(
            state, intents: MainIntents(for: state, proxy: host.proxy) { host.state }, tick: context.frame,
            width: context.width, height: context.height, imageProtocol: context.imageProtocol)
    }

    /// The screen for `state` on a terminal of `width` × `height` (which
    /// shows images with `imageProtocol`, if any), and the keys valid there.
    public static func screen(
        _ state: Main.State, intents: MainIntents, tick: Int, width: Int, height: Int,
        imageProtocol: InlineImageProtocol? = nil
    ) -> Screen {
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
        // Each model once: drawn, and asked for its keys.
        let comics = intents.comicsModel(state)
        let favourites = intents.favouritesModel(state)
        if let prompt = state.prompt {
            canvas.add("Go to comic number: \(prompt)▏", .bold)
            canvas.add("Type the number, Enter to go, Esc to cancel.", .dim)
            for digit in 0...9 {
                bindings.append(
                    KeyBinding(
                        [.character(Character(String(digit)))], "digit", inStatusBar: false,
                        intent: main(.typeDigit(digit))))
            }
            bindings.append(KeyBinding([.backspace, .delete], "delete", intent: main(.deleteDigit)))
            bindings.append(KeyBinding([.enter], "go", intent: main(.submitGoTo)))
            bindings.append(KeyBinding([.escape], "cancel", intent: main(.cancelGoTo)))
        } else if state.isHelpShown {
            bindings.append(KeyBinding([.character("?"), .escape], "close help", intent: main(.toggleHelp)))
            bindings.append(KeyBinding([.character("q")], "quit", intent: main(.quit)))
            // The scene's own keys, then help's: `?` and `q` once each.
            let sceneBindings = self.sceneBindings(
                state, main: main, comics: comics, favourites: favourites, withHelpAndQuit: false)
            canvas.add("Keys", .bold)
            for binding in sceneBindings + bindings {
                canvas.add("  " + binding.summary)
            }
        } else {
            if let comics {
                ComicsTerminalView.render(comics, tick: tick, on: &canvas)
            } else if let favourites {
                FavouritesTerminalView.render(favourites, on: &canvas)
            } else if state.scene == .comics {
                canvas.add("Starting…", .dim)
            }
            bindings = sceneBindings(state, main: main, comics: comics, favourites: favourites)
        }
        bindings.append(KeyBinding([.interrupt], "quit", inStatusBar: false, intent: main(.quit)))
        canvas.status = Line(
            state.isQuitting
                ? "Saving your favourites before quitting…  (q or Ctrl-C again: quit now)"
                : bindings.filter(\.isShownInStatusBar).map(\.summary).joined(separator: "  "), .reverse)
        return Screen(canvas: canvas, bindings: bindings)
    }

    /// The keys of the scene shown (its model's, if it runs), and Main's
    /// keys around it; help and quit last, `withHelpAndQuit`.
    static func sceneBindings(
        _ state: Main.State, main: Intents<Main, Main.Scope>, comics: ComicsModel?, favourites: FavouritesModel?,
        withHelpAndQuit: Bool = true
    ) -> [KeyBinding] {
        var bindings: [KeyBinding] = []
        switch state.scene {
        case .comics:
            if let comics {
                bindings += ComicsTerminalView.bindings(comics)
                if comics.offersGoTo {
                    bindings.append(KeyBinding([.character("g")], "go to", intent: main(.beginGoTo)))
                }
            }
            bindings.append(KeyBinding([.character("v")], "favourites", intent: main(.showFavourites)))
        case .favourites:
            if let favourites { bindings += FavouritesTerminalView.bindings(favourites) }
            bindings.append(KeyBinding([.character("v"), .escape], "comics", intent: main(.showComics)))
        }
        guard withHelpAndQuit else { return bindings }
        bindings.append(KeyBinding([.character("?")], "help", intent: main(.toggleHelp)))
        bindings.append(KeyBinding([.character("q")], "quit", intent: main(.quit)))
        return bindings
    }

}
