// The app's navigation as state: the Comics feature runs from start to
// quit, the Favourites feature exactly while its scene is shown, a number
// is typed in a prompt mode, and a favourite opens in the Comics scene.

import ComicsScene
import FavouritesScene
import MainScene
import Oak
import OakTesting
import Observation
import Synchronization
import TerminalUI
import Testing

/// Runs Main with the mock ports; keeps the states it reports and wakes
/// the tests that wait for one.
@MainActor
final class MainHarness {
    let proxy = Main.Proxy(bufferSize: 64)
    private(set) var state = Main.State()
    private var run: Task<Void, Never>?
    private var waiters: [(condition: (Main.State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(env: Main.Env = .mock) {
        let proxy = self.proxy
        let storage = ReportingStorage()
        run = Task { @MainActor in
            _ = try? await Main.run(storage: storage, proxy: proxy, env: env)
        }
        storage.report = { [weak self] state in self?.report(state) }
    }

    private func report(_ state: Main.State) {
        self.state = state
        var waiting: [(condition: (Main.State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in waiters {
            // Each continuation is resumed exactly once: here, when its
            // condition holds, and then it leaves the list.
            if holds(waiter.condition) { waiter.continuation.resume() } else { waiting.append(waiter) }
        }
        waiters = waiting
    }

    /// Whether `condition` holds of the state now; what it read of the
    /// children's states (`Child.state`, which changes without Main's
    /// state) is tracked, and its change checks the waiters again.
    private func holds(_ condition: (Main.State) -> Bool) -> Bool {
        withStateTracking {
            condition(state)
        } onChange: {
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.report(self.state)
            }
        }
    }

    /// Sends `event` and waits until `condition` holds of the state.
    func send(_ event: Main.Event, until condition: @escaping (Main.State) -> Bool) async throws {
        try await proxy.checkedSend(event)
        await waitFor(condition)
    }

    /// Waits until the run reports a state for which `condition` holds (the
    /// suite's time limit bounds it).
    func waitFor(_ condition: @escaping (Main.State) -> Bool) async {
        guard !holds(condition) else { return }
        await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    func end() async {
        proxy.cancel()
        await run?.value
    }
}

/// Main's state, as the run writes it, handed to `report`.
@MainActor
final class ReportingStorage: @preconcurrency Storage {
    var value = Main.State() {
        didSet { report?(value) }
    }
    var report: ((Main.State) -> Void)?
}

@Suite("Main feature", .timeLimit(.minutes(1)))
@MainActor
struct MainTests {
    @Test func theComicsFeatureStartsAndShowsTheLatest() async throws {
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        #expect(app.state.comics != nil)
        #expect(app.state.favourites == nil)
        await app.end()
    }

    @Test func favouritesRunOnlyWhileTheirSceneIsShown() async throws {
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        try await app.send(.showFavourites) { $0.favourites?.state.favourites.count == 3 }
        let child = try #require(app.state.favourites)
        try await app.send(.showComics) { $0.favourites == nil }
        // The parent's run awaits its children's: once it has ended, the
        // dismissed child's run has ended too and takes no more events.
        await app.end()
        #expect(throws: TransducerError.terminated) { try child.send(.down) }
    }

    @Test func openingAFavouriteShowsItInTheComicsScene() async throws {
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        try await app.send(.showFavourites) { $0.favourites?.state.favourites.count == 3 }
        let favourites = try #require(app.state.favourites)
        try favourites.send(.down)  // #2
        await app.waitFor { $0.favourites?.state.selection == 1 }
        try favourites.send(.open)
        await app.waitFor { $0.scene == .comics && $0.comics?.state.phase == .showing(.mock(2)) }
        #expect(app.state.favourites == nil)
        await app.end()
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
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        try await app.send(.beginGoTo) { $0.prompt == "" }
        try await app.send(.typeDigit(7)) { $0.prompt == "7" }
        try await app.send(.submitGoTo) { $0.prompt == nil && $0.comics?.state.phase == .showing(.mock(7)) }
        await app.end()
    }

    @Test func quittingEndsTheRunAndEveryChild() async throws {
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
        try await app.send(.quit) { $0.hasQuit }
        #expect(app.state.comics == nil)
        await app.end()
    }

    @Test func theScreenOffersTheKeysOfTheStateShown() async throws {
        let app = MainHarness()
        try await app.send(.start) { $0.comics?.state.phase == .showing(.mock(10)) }
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
        await app.waitFor { $0.comics?.state.phase == .showing(.mock(9)) }
        await app.end()
    }

    /// Keys typed faster than the runs process them: each is handed to the
    /// binding of the screen shown once the previous key's intent has been
    /// processed, as the terminal front end does.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func eachKeyIsReadInTheStateThePreviousOneLedTo() async throws {
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: .mock)
        await host.proxy.send(.start)
        await Self.until(host) { $0.comics?.state.phase == .showing(.mock(10)) }
        // Without waiting between keys, the digits would be read outside the
        // prompt "g" opens, where they mean nothing.
        for (key, prompt): (Key, String?) in [
            (.character("g"), ""), (.character("1"), "1"), (.character("3"), "13"), (.enter, nil),
        ] {
            await Self.press(key, host)
            #expect(host.state.prompt == prompt, "after \(key)")
        }
        // The mock has comics 1 to 10: #13 is refused by the Comics feature.
        await Self.until(host) { $0.comics?.state.notice == .outOfRange(13, latest: 10) }
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
        await Self.until(host) { $0.comics?.state.phase == .showing(.mock(10)) }
        for press in 1...21 {
            await Self.press(.character("f"), host)
            #expect(host.state.comics?.state.isFavourite == (press % 2 == 1), "after press \(press)")
        }
        // The writes catch up: the last one stored is the mark shown.
        await Self.until(host) { $0.comics?.state.favouriteChanges.isEmpty == true }
        #expect(host.state.comics?.state.isFavourite == true)
        #expect(try await env.comics.isFavourite(10))
        host.cancel()
    }

    /// Quitting while a favourite mark is on its way to the store waits for
    /// it: the app quits once the store has it (asked again, at once).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func quittingWaitsForTheFavouriteMarksOnTheirWay() async throws {
        let written = Gate()
        var env = Main.Env.mock
        let mock = env.comics
        env.comics.setFavourite = { (comic: Comic, isFavourite: Bool) throws(FavouritesUnavailable) in
            await written.wait()
            try await mock.setFavourite(comic, isFavourite)
        }
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: env)
        await host.proxy.send(.start)
        await Self.until(host) { $0.comics?.state.phase == .showing(.mock(10)) }
        await Self.press(.character("f"), host)
        await Self.press(.character("q"), host)
        #expect(host.state.isQuitting)
        #expect(!host.state.hasQuit)
        #expect(
            MainTerminalView.screen(host.state, host: host, context: ScreenContext(width: 90, height: 24))
                .canvas.plainText.contains("Saving your favourites before quitting"))
        written.open()
        await Self.until(host) { $0.hasQuit }
        #expect(try await mock.isFavourite(10))
    }

    /// Performs the binding of `key` on the screen of the host's state.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    static func press(_ key: Key, _ host: ObservableTransducer<Main>) async {
        let screen = MainTerminalView.screen(
            host.state, host: host, context: ScreenContext(width: 80, height: 24))
        await screen.binding(for: key)?.action()
    }

    /// Waits until the host's state satisfies `condition`: its runs are on
    /// this actor, and each change is observed.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    static func until(_ host: ObservableTransducer<Main>, _ condition: @escaping (Main.State) -> Bool) async {
        // The condition is checked inside the tracking: what it reads of
        // a child's state (`Child.state`) is observed too.
        while true {
            let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let holds = withStateTracking {
                condition(host.state)
            } onChange: {
                changed.yield()
            }
            if holds { return }
            for await _ in changes { break }
        }
    }
}

/// A one-shot gate: `wait()` returns once `open()` has been called.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
