// The app's navigation as state: the Comics feature runs from start to
// quit, the Favourites feature exactly while its scene is shown, a number
// is typed in a prompt mode, and a favourite opens in the Comics scene.

import ComicsFeature
import ComicsMain
import ComicsTerminal
import FavouritesFeature
import Oak
import OakTesting
import Observation
import TerminalUI
import Testing

@Suite("Main feature", .timeLimit(.minutes(1)))
@MainActor
struct MainTests {
    /// Main over the mock ports, on the main actor, checked
    /// non-exhaustively: the tests wait for conditions of the state and of
    /// its children's states.
    func started() async -> TransducerTester<Main> {
        let app = TransducerTester(Main.self, initialState: Main.State(), env: .mock, exhaustivity: .off)
        await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        return app
    }
    @Test func theComicsFeatureStartsAndShowsTheLatest() async throws {
        let app = await started()
        #expect(app.state.comics != nil)
        #expect(app.state.favourites == nil)
        await app.finish()
    }

    @Test func favouritesRunOnlyWhileTheirSceneIsShown() async throws {
        let app = await started()
        await app.send(.showFavourites) { $0.favourites?.state.favourites.count == 3 }
        let child = try #require(app.state.favourites)
        await app.send(.showComics) { $0.favourites == nil }
        // The parent's run awaits its children's: once it has ended, the
        // dismissed child's run has ended too and takes no more events.
        await app.finish()
        #expect(throws: TransducerError.terminated) { try child.send(.down) }
    }

    @Test func openingAFavouriteShowsItInTheComicsScene() async throws {
        let app = await started()
        await app.send(.showFavourites) { $0.favourites?.state.favourites.count == 3 }
        let favourites = try #require(app.state.favourites)
        try favourites.send(.down)  // #2
        await app.wait { $0.favourites?.state.selection == 1 }
        try favourites.send(.open)
        await app.wait { $0.scene == .comics && $0.comics?.state.phase == .showing(.mock(2)) }
        #expect(app.state.favourites == nil)
        await app.finish()
    }

    @Test("a comic is opened from the favourites' list only: elsewhere openComic changes nothing")
    func openComicOutsideTheFavouritesChangesNothing() {
        var state = Main.State()
        let before = state
        #expect(state.scene == .comics)
        #expect(Main.update(&state, event: .openComic(3)) == nil)
        #expect(state == before)
    }

    @Test func aNumberIsTypedThenOpened() async throws {
        let app = await started()
        await app.send(.beginGoTo) { $0.prompt == "" }
        await app.send(.typeDigit(7)) { $0.prompt == "7" }
        await app.send(.submitGoTo) { $0.prompt == nil && $0.comics?.state.phase == .showing(.mock(7)) }
        await app.finish()
    }

    @Test func quittingEndsTheRunAndEveryChild() async throws {
        let app = await started()
        await app.send(.quit) { $0.hasQuit }
        #expect(app.state.comics == nil)
        await app.finish()
    }

    @Test func theScreenOffersTheKeysOfTheStateShown() async throws {
        let app = await started()
        let state = app.state
        #expect(state.comics != nil)
        let intents = MainIntents(for: state, proxy: app.proxy) { app.state }
        let screen = MainTerminalView.screen(state, intents: intents, tick: 0, width: 80, height: 20)
        let text = screen.canvas.plainText
        #expect(text.contains("#10 Comic 10"))
        #expect(text.contains("←/p previous"))
        #expect(!text.contains("→/n next"))  // #10 is the latest
        let previous = try #require(screen.binding(for: .left))
        await previous.action()
        await app.wait { $0.comics?.state.phase == .showing(.mock(9)) }
        await app.finish()
    }

    @Test func theHelpListsEachKeyOnce() async throws {
        let app = await started()
        await app.send(.toggleHelp) { $0.isHelpShown }
        let state = app.state
        let intents = MainIntents(for: state, proxy: app.proxy) { app.state }
        let text = MainTerminalView.screen(state, intents: intents, tick: 0, width: 80, height: 24).canvas.plainText
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("←/p previous"), "\(text)")
        #expect(lines.contains("?/Esc close help"), "\(text)")
        #expect(lines.filter { $0 == "q quit" }.count == 1, "\(text)")
        #expect(!lines.contains("? help"), "\(text)")
        await app.finish()
    }

    /// Keys typed faster than the runs process them: each is handed to the
    /// binding of the screen shown once the previous key's intent has been
    /// processed, as the terminal front end does.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func eachKeyIsReadInTheStateThePreviousOneLedTo() async throws {
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: .mock)
        await host.proxy.send(.start)
        await host.wait { $0.comics?.state.phase == .showing(.mock(10)) }
        // Without waiting between keys, the digits would be read outside the
        // prompt "g" opens, where they mean nothing.
        for (key, prompt): (Key, String?) in [
            (.character("g"), ""), (.character("1"), "1"), (.character("3"), "13"), (.enter, nil),
        ] {
            await Self.press(key, host)
            #expect(host.state.prompt == prompt, "after \(key)")
        }
        // The mock has comics 1 to 10: #13 is refused by the Comics feature.
        await host.wait { $0.comics?.state.notice == .outOfRange(13, latest: 10) }
        host.cancel()
    }

    /// Every press of f flips the mark the screen shows at once, also while
    /// the store has not taken the previous one; the store ends with the mark
    /// the screen shows.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func rapidFavouritePressesEachFlipTheMarkAndTheStoreFollows() async throws {
        let env = Main.Env.mock
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: env)
        await host.proxy.send(.start)
        await host.wait { $0.comics?.state.phase == .showing(.mock(10)) }
        for press in 1...21 {
            await Self.press(.character("f"), host)
            #expect(host.state.comics?.state.isFavourite == (press % 2 == 1), "after press \(press)")
        }
        // The writes catch up: the last one stored is the mark shown.
        await host.wait { $0.comics?.state.favouriteChanges.isEmpty == true }
        #expect(host.state.comics?.state.isFavourite == true)
        #expect(try await env.comics.isFavourite(10))
        host.cancel()
    }

    /// Quitting while a favourite mark is on its way to the store waits for
    /// it: the app quits once the store has it (asked again, at once).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func quittingWaitsForTheFavouriteMarksOnTheirWay() async throws {
        let (written, write) = AsyncStream<Void>.makeStream()
        var env = Main.Env.mock
        let mock = env.comics
        env.comics.setFavourite = { (comic: Comic, isFavourite: Bool) throws(FavouritesUnavailable) in
            for await _ in written { break }
            try await mock.setFavourite(comic, isFavourite)
        }
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: env)
        await host.proxy.send(.start)
        await host.wait { $0.comics?.state.phase == .showing(.mock(10)) }
        await Self.press(.character("f"), host)
        await Self.press(.character("q"), host)
        #expect(host.state.isQuitting)
        #expect(!host.state.hasQuit)
        #expect(
            MainTerminalView.screen(host.state, host: host, context: ScreenContext(width: 90, height: 24))
                .canvas.plainText.contains("Saving your favourites before quitting"))
        write.yield()
        await host.wait { $0.hasQuit }
        #expect(try await mock.isFavourite(10))
    }

    /// Performs the binding of `key` on the screen of the host's state.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    static func press(_ key: Key, _ host: ObservableTransducer<Main>) async {
        let screen = MainTerminalView.screen(
            host.state, host: host, context: ScreenContext(width: 80, height: 24))
        await screen.binding(for: key)?.action()
    }
}
