// The web views render a state's model as HTML: text from the network is
// escaped, a form is there exactly when its intent is offered, and a posted
// key performs the intent it is bound to on the page of the current state
// (or nothing, when that page offers none).

import ComicsMain
import ComicsWebViews
import Foundation
import Oak
import OakTesting
import Testing
import WebUI

@testable import ComicsFeature
@testable import FavouritesFeature

/// Main's state showing `comics` in the Comics scene, with a Comics run
/// that is not running (its proxy only buffers what it is sent).
private func comicsScene(_ comics: Comics.State) -> Main.State {
    var state = Main.State()
    state.comics = Child(Comics.self, initialState: comics, proxy: Comics.Proxy(bufferSize: 8))
    return state
}

/// Main's state showing `favourites` in the Favourites scene.
private func favouritesScene(_ favourites: Favourites.State) -> Main.State {
    var state = comicsScene(Comics.State(phase: .showing(.mock(10)), latest: 10))
    state.scene = .favourites
    state.favourites = Child(Favourites.self, initialState: favourites, proxy: Favourites.Proxy(bufferSize: 8))
    return state
}

/// The intents of `state`, which stays the current state.
private func intents(_ state: Main.State) -> MainIntents {
    MainIntents(for: state, proxy: Main.Proxy(bufferSize: 8)) { state }
}

extension MainWebView {
    /// Performs what a post of `key` (with `number`) performs on the page
    /// of `state` rendered with `intents`, as the web host does.
    fileprivate static func perform(
        _ key: String, number: String? = nil, state: Main.State, intents: MainIntents
    ) -> IntentResult? {
        let context = WebContext(token: "token")
        _ = content(state, intents: intents, context: context)
        var fields = ["intent": key]
        fields["number"] = number
        return context.perform(WebForm(fields: fields))
    }
}

/// The content of the page for `state`.
private func render(_ state: Main.State) -> String {
    MainWebView.content(state, intents: intents(state), context: .init(token: "token")).rendered
}

/// Whether `html` has a form that posts `intent`.
private func offers(_ html: String, _ intent: String) -> Bool {
    html.contains("name=\"intent\" value=\"\(intent)\"")
}

@Suite("Main web view")
struct MainWebViewTests {
    @Test func textFromTheNetworkIsEscaped() {
        let comic = Comic(
            number: 5, title: "<script>alert(1)</script>", alt: "He said \"hi\" & <b>left</b>", date: "2026-01-05")
        let state = comicsScene(Comics.State(phase: .showing(comic), latest: 10, image: Data([0x89])))
        let page = MainWebView.page(state, intents: intents(state), context: .init(token: "token")).rendered
        #expect(!page.contains("<script>"))
        #expect(!page.contains("<b>"))
        #expect(page.contains("<h2 id=\"comic-title\">&lt;script&gt;alert(1)&lt;/script&gt;</h2>"))
        #expect(page.contains("<title>Oak Comics · &lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        #expect(page.contains("src=\"/image/5\" alt=\"He said &quot;hi&quot; &amp; &lt;b&gt;left&lt;/b&gt;\""))
        #expect(page.contains("<figcaption id=\"comic-alt\">He said &quot;hi&quot;"))
    }

    @Test func anImageIsShownOnlyWhenTheModelHasOne() {
        let withImage = render(comicsScene(Comics.State(phase: .showing(.mock(3)), latest: 10, image: Data([1]))))
        #expect(withImage.contains("<img id=\"comic-image\" src=\"/image/3\" alt=\"Alt 3\">"))
        let without = render(comicsScene(Comics.State(phase: .showing(.mock(3)), latest: 10)))
        #expect(!without.contains("<img"))
        #expect(without.contains("Alt 3"))
    }

    @Test func aFormIsThereExactlyWhenItsIntentIsOffered() {
        let latest = render(comicsScene(Comics.State(phase: .showing(.mock(10)), latest: 10)))
        #expect(offers(latest, "comics.previous"))
        #expect(!offers(latest, "comics.next"))
        #expect(offers(latest, "comics.latest"))
        #expect(offers(latest, "comics.random"))
        #expect(offers(latest, "comics.toggleFavourite"))
        #expect(latest.contains("☆ Favourite"))
        #expect(!offers(latest, "comics.cancel"))
        #expect(!offers(latest, "comics.retry"))
        #expect(offers(latest, "comics.goTo"))
        #expect(offers(latest, "main.showComics") && offers(latest, "main.showFavourites"))
        #expect(latest.contains("<span class=\"current\" aria-current=\"page\">"))

        let first = render(comicsScene(Comics.State(phase: .showing(.mock(1)), latest: 10, isFavourite: true)))
        #expect(!offers(first, "comics.previous"))
        #expect(offers(first, "comics.next"))
        #expect(first.contains("★ Unfavourite"))
        #expect(first.contains("id=\"comic-favourite\""))

        let loading = render(comicsScene(Comics.State(phase: .loading(.number(4), showing: .mock(3)), latest: 10)))
        #expect(loading.contains("Loading…"))
        #expect(offers(loading, "comics.cancel"))
        #expect(!offers(loading, "comics.next"))
        #expect(!offers(loading, "comics.goTo"))

        let failed = render(
            comicsScene(Comics.State(phase: .failed(.number(9), .server(status: 503)), latest: 10, notice: .noNext)))
        #expect(failed.contains("class=\"error\""))
        #expect(failed.contains("Could not load comic #9: The server answered with status 503."))
        #expect(
            failed.contains("<p class=\"notice\" id=\"comic-notice\" role=\"status\">This is the latest comic.</p>"))
        #expect(offers(failed, "comics.retry"))
        #expect(!offers(failed, "comics.toggleFavourite"))

        let notFound = render(comicsScene(Comics.State(phase: .notFound(4), latest: 10)))
        #expect(notFound.contains("There is no comic #4."))
        #expect(offers(notFound, "comics.previous") && offers(notFound, "comics.next"))

        var starting = Main.State()
        starting.comics = nil
        #expect(render(starting).contains("Starting…"))
    }

    @Test func favouritesAreListedWithAnOpenButtonEach() {
        let favourites = [
            Favourite(number: 7, title: "<i>Seven</i>", added: Date(timeIntervalSince1970: 0)),
            Favourite(number: 2, title: "Two", added: Date(timeIntervalSince1970: 0)),
        ]
        let list = render(favouritesScene(Favourites.State(phase: .list(favourites))))
        #expect(list.contains("<ul class=\"favourites\""))
        #expect(list.contains("&lt;i&gt;Seven&lt;/i&gt;") && !list.contains("<i>"))
        #expect(list.contains("#7") && list.contains("#2"))
        #expect(list.contains("name=\"intent\" value=\"main.openComic:2\">"))
        #expect(offers(list, "favourites.down") && !offers(list, "favourites.up"))
        #expect(offers(list, "favourites.remove"))
        #expect(!offers(list, "comics.next"))

        let empty = render(favouritesScene(Favourites.State(phase: .list([]))))
        #expect(empty.contains("No favourites yet"))
        #expect(!empty.contains("<ul"))

        let unavailable = render(favouritesScene(Favourites.State(phase: .unavailable(FavouritesError("disk <full>")))))
        #expect(unavailable.contains("Favourites are not available: disk &lt;full&gt;"))
        #expect(offers(unavailable, "favourites.reload"))

        let loading = render(favouritesScene(Favourites.State()))
        #expect(loading.contains("Reading your favourites…"))
        #expect(!offers(loading, "favourites.reload"))
    }

    @Test func anIntentNotOfferedIsNotPerformed() {
        let state = comicsScene(Comics.State(phase: .showing(.mock(10)), latest: 10))
        func perform(_ key: String, _ number: String? = nil) -> IntentResult? {
            MainWebView.perform(key, number: number, state: state, intents: intents(state))
        }
        #expect(perform("comics.explode") == nil)
        #expect(perform("") == nil)
        #expect(perform("comics.next") == nil)  // #10 is the latest
        #expect(perform("comics.goTo") == nil)  // no number
        #expect(perform("comics.goTo", "0") == nil)
        #expect(perform("comics.goTo", "3x") == nil)
        #expect(perform("favourites.reload") == nil)  // not the scene shown
        #expect(perform("main.openComic:3") == nil)  // no favourites shown
        #expect(perform("comics.previous") == .sent)
        #expect(perform("comics.goTo", "3") == .sent)
    }

    @Test func everyKeyIsBoundOnce() {
        let comics = WebContext(token: "token")
        let shown = comicsScene(Comics.State(phase: .showing(.mock(5)), latest: 10))
        _ = MainWebView.content(shown, intents: intents(shown), context: comics)
        #expect(comics.duplicateKeys.isEmpty)
        #expect(comics.keys.isSuperset(of: ["comics.next", "comics.previous", "comics.goTo", "main.showFavourites"]))
        let favourites = WebContext(token: "token")
        let list = [7, 2].map { Favourite(number: $0, title: "#\($0)", added: Date(timeIntervalSince1970: 0)) }
        let state = favouritesScene(Favourites.State(phase: .list(list)))
        _ = MainWebView.content(state, intents: intents(state), context: favourites)
        #expect(favourites.duplicateKeys.isEmpty)
        #expect(favourites.keys.isSuperset(of: ["main.openComic:7", "main.openComic:2", "favourites.down"]))
    }

    @Test func aFavouritesPageIsRenderedOnceForEverySessionThatShowsTheSame() {
        let cache = WebRenderCache()
        let list = [7, 2].map { Favourite(number: $0, title: "#\($0)", added: Date(timeIntervalSince1970: 0)) }
        var rendered = 0
        /// The content of `state`'s page sent by a session (sharing
        /// through `cache`), counting the renderings (each makes intents).
        func send(_ state: Main.State) -> String {
            MainWebView.content(
                state,
                intents: {
                    rendered += 1
                    return intents(state)
                }(), context: WebContext(sharingThrough: cache)
            ).rendered
        }
        // Two sessions (their own children) showing the same list and row.
        let first = send(favouritesScene(Favourites.State(phase: .list(list))))
        let second = send(favouritesScene(Favourites.State(phase: .list(list))))
        #expect(rendered == 1)
        #expect(first == second)
        #expect(first.contains("data-number=\"7\" class=\"selected\""))
        // What a session shows of its own is part of the key.
        let other = send(favouritesScene(Favourites.State(phase: .list(list), selection: 1)))
        #expect(rendered == 2)
        #expect(other.contains("data-number=\"2\" class=\"selected\""))
        // The comics scene is the session's own.
        _ = send(comicsScene(Comics.State(phase: .showing(.mock(5)), latest: 10)))
        _ = send(comicsScene(Comics.State(phase: .showing(.mock(5)), latest: 10)))
        #expect(rendered == 4)
    }

    @Test func anIntentOfAnOldStateIsStale() {
        let shown = comicsScene(Comics.State(phase: .showing(.mock(10)), latest: 10))
        var now = shown
        now.scene = .favourites
        let intents = MainIntents(for: shown, proxy: Main.Proxy(bufferSize: 8)) { now }
        #expect(MainWebView.perform("main.showFavourites", state: shown, intents: intents) == .stale)
    }
}

@Suite("Main web view, running", .timeLimit(.minutes(1)))
@MainActor
struct MainWebViewRunTests {
    @Test func aPostedIntentReachesTheRun() async throws {
        let app = TransducerTester(Main.self, initialState: Main.State(), env: .mock, exhaustivity: .off)
        await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        func perform(_ key: String) -> IntentResult? {
            let state = app.state
            let intents = MainIntents(for: state, proxy: app.proxy) { app.state }
            return MainWebView.perform(key, state: state, intents: intents)
        }
        #expect(perform("comics.previous") == .sent)
        await app.wait { $0.comics?.state.phase == .showing(.mock(9)) }
        #expect(perform("comics.next") == .sent)
        await app.wait { $0.comics?.state.phase == .showing(.mock(10)) }
        #expect(perform("main.showFavourites") == .sent)
        await app.wait { $0.scene == .favourites && $0.favourites?.state.favourites.count == 3 }
        #expect(perform("main.openComic:2") == .sent)
        await app.wait { $0.scene == .comics && $0.comics?.state.phase == .showing(.mock(2)) }
        await app.finish()
    }
}
