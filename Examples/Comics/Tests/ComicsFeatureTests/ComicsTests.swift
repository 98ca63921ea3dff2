// The Comics feature's transitions, exhaustively, through its mock port:
// every state change, every event its effects send back, every output.

import Clocks
import Foundation
import Oak
import OakTesting
import Synchronization
import Testing

@testable import ComicsFeature

/// A tester of the Comics feature that also checks every output: the
/// output is the state after the step, which these helpers follow in a
/// state of their own (the tester's `state` may already be ahead, when
/// effects answered without waiting).
final class ComicsSteps {
    let tester: TransducerTester<Comics>
    private var expected: Comics.State

    init(_ initialState: Comics.State = Comics.State(), env: ComicsEnv = .mock) {
        tester = TransducerTester(Comics.self, initialState: initialState, env: env)
        expected = initialState
    }

    /// Sends `event`, which must change nothing; the output is the state.
    func unchanged(_ event: Comics.Event) async {
        await tester.send(event, output: expected)
    }

    /// Sends `event`; the output is the new state, which `change` makes.
    func step(_ event: Comics.Event, _ change: @escaping (inout Comics.State) -> Void) async {
        change(&expected)
        await tester.send(event, output: expected, assert: change)
    }

    /// Receives `event`; the output is the new state, which `change` makes.
    func answer(_ event: Comics.Event, _ change: @escaping (inout Comics.State) -> Void) async {
        change(&expected)
        await tester.receive(event, output: expected, assert: change)
    }

    func finish() async {
        await tester.finish()
    }
}

/// A port whose answers wait for the test clock, to test cancellation and
/// replacement; comic #9 fails with a server error once.
func slowEnv(clock: TestClock<Duration>, failing: Set<Int> = []) -> ComicsEnv {
    var env = ComicsEnv.mock
    let mock = ComicsEnv.mock
    env.comic = { (number: Int) async throws(ComicsError) -> Comic in
        do { try await clock.sleep(for: .seconds(1)) } catch { throw .unreachable("cancelled") }
        if failing.contains(number) { throw .server(status: 503) }
        return try await mock.comic(number)
    }
    return env
}

@Suite("Comics feature")
struct ComicsTests {
    @Test func startsWithTheLatestAndWalksBackAndForth() async {
        let tester = ComicsSteps()
        await tester.step(.start) { $0.phase = .loading(.latest, showing: nil) }
        await tester.answer(.didLoad(.mock(10), isLatest: true, isFavourite: false)) {
            $0.phase = .showing(.mock(10))
            $0.latest = 10
        }
        await tester.step(.next) { $0.notice = .noNext }
        await tester.step(.previous) {
            $0.notice = nil
            $0.phase = .loading(.number(9), showing: .mock(10))
        }
        await tester.answer(.didLoad(.mock(9), isLatest: false, isFavourite: false)) { $0.phase = .showing(.mock(9)) }
        await tester.step(.next) { $0.phase = .loading(.number(10), showing: .mock(9)) }
        await tester.answer(.didLoad(.mock(10), isLatest: false, isFavourite: false)) {
            $0.phase = .showing(.mock(10))
        }
        await tester.finish()
    }

    @Test func thereIsNoComicBeforeTheFirst() async {
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(1)), latest: 10))
        await tester.step(.previous) { $0.notice = .noPrevious }
        await tester.finish()
    }

    @Test func aMissingComicIsNotFoundWithAWayOn() async {
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(5)), latest: 10))
        await tester.step(.previous) { $0.phase = .loading(.number(4), showing: .mock(5)) }
        await tester.answer(.didFail(.number(4), .notFound(4))) { $0.phase = .notFound(4) }
        await tester.step(.previous) { $0.phase = .loading(.number(3), showing: nil) }
        await tester.answer(.didLoad(.mock(3), isLatest: false, isFavourite: false)) { $0.phase = .showing(.mock(3)) }
        await tester.finish()
    }

    @Test func aNumberOutsideTheRangeIsRefusedWithAMessage() async {
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(5)), latest: 10))
        await tester.step(.goTo(11)) { $0.notice = .outOfRange(11, latest: 10) }
        await tester.step(.goTo(0)) { $0.notice = .outOfRange(0, latest: 10) }
        await tester.step(.goTo(7)) {
            $0.notice = nil
            $0.phase = .loading(.number(7), showing: .mock(5))
        }
        await tester.answer(.didLoad(.mock(7), isLatest: false, isFavourite: false)) { $0.phase = .showing(.mock(7)) }
        await tester.finish()
    }

    @Test func randomPicksFromOneToTheLatest() async {
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(2)), latest: 10))
        // The mock picks the middle of 1…10.
        await tester.step(.random) { $0.phase = .loading(.random, showing: .mock(2)) }
        await tester.answer(.didLoad(.mock(5), isLatest: false, isFavourite: false)) { $0.phase = .showing(.mock(5)) }
        await tester.finish()
    }

    @Test func aLoadInFlightCanBeCancelled() async {
        let clock = TestClock()
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(5)), latest: 10), env: slowEnv(clock: clock))
        await tester.step(.next) { $0.phase = .loading(.number(6), showing: .mock(5)) }
        await tester.step(.cancel) {
            $0.phase = .showing(.mock(5))
            $0.notice = .cancelled
        }
        // Time enough for the answer: none arrives, the load was cancelled.
        await clock.advance(by: .seconds(1))
        await tester.finish()
    }

    @Test func aNewLoadReplacesTheOneInFlight() async {
        let clock = TestClock()
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(5)), latest: 10), env: slowEnv(clock: clock))
        await tester.step(.next) { $0.phase = .loading(.number(6), showing: .mock(5)) }
        await tester.step(.goTo(8)) { $0.phase = .loading(.number(8), showing: .mock(5)) }
        await clock.advance(by: .seconds(1))
        // Only the answer of the load that replaced the first arrives.
        await tester.answer(.didLoad(.mock(8), isLatest: false, isFavourite: false)) { $0.phase = .showing(.mock(8)) }
        await tester.finish()
    }

    @Test func aServerErrorIsShownAndRetriedByTheTransducer() async {
        let clock = TestClock()
        let tester = ComicsSteps(
            Comics.State(phase: .showing(.mock(8)), latest: 10),
            env: slowEnv(clock: clock, failing: [9]))
        await tester.step(.next) { $0.phase = .loading(.number(9), showing: .mock(8)) }
        await clock.advance(by: .seconds(1))
        await tester.answer(.didFail(.number(9), .server(status: 503))) {
            $0.phase = .failed(.number(9), .server(status: 503))
        }
        await tester.step(.retry) { $0.phase = .loading(.number(9), showing: nil) }
        await clock.advance(by: .seconds(1))
        await tester.answer(.didFail(.number(9), .server(status: 503))) {
            $0.phase = .failed(.number(9), .server(status: 503))
        }
        // Next from a failed load of #9 goes on to #10.
        await tester.step(.next) { $0.phase = .loading(.number(10), showing: nil) }
        await clock.advance(by: .seconds(1))
        await tester.answer(.didLoad(.mock(10), isLatest: false, isFavourite: false)) {
            $0.phase = .showing(.mock(10))
        }
        await tester.finish()
    }

    @Test func favouritesAreToggledThroughTheTransducer() async {
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(3)), latest: 10))
        await tester.step(.toggleFavourite) {
            $0.isFavourite = true
            $0.favouriteChanges[3] = Comics.FavouriteChange(comic: .mock(3), writing: true, wanted: true)
        }
        await tester.answer(.didSetFavourite(number: 3, isFavourite: true)) { $0.favouriteChanges[3] = nil }
        await tester.step(.toggleFavourite) {
            $0.isFavourite = false
            $0.favouriteChanges[3] = Comics.FavouriteChange(comic: .mock(3), writing: false, wanted: false)
        }
        await tester.answer(.didSetFavourite(number: 3, isFavourite: false)) { $0.favouriteChanges[3] = nil }
        await tester.finish()
    }

    /// Every press flips the mark shown at once; presses while a write is
    /// in flight are written after it, so the store ends as the screen says
    /// (the store's calls counted, on a test clock).
    @Test func pressesWhileAWriteIsInFlightAreWrittenAfterIt() async {
        let clock = TestClock()
        let written = Mutex<[Bool]>([])
        var env = ComicsEnv.mock
        env.setFavourite = { (_: Comic, isFavourite: Bool) throws(FavouritesUnavailable) in
            try? await clock.sleep(for: .seconds(1))
            written.withLock { $0.append(isFavourite) }
        }
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(3)), latest: 10), env: env)
        await tester.step(.toggleFavourite) {
            $0.isFavourite = true
            $0.favouriteChanges[3] = Comics.FavouriteChange(comic: .mock(3), writing: true, wanted: true)
        }
        await tester.step(.toggleFavourite) {
            $0.isFavourite = false
            $0.favouriteChanges[3]?.wanted = false
        }
        await tester.step(.toggleFavourite) {
            $0.isFavourite = true
            $0.favouriteChanges[3]?.wanted = true
        }
        await tester.step(.toggleFavourite) {
            $0.isFavourite = false
            $0.favouriteChanges[3]?.wanted = false
        }
        await clock.advance(by: .seconds(1))
        // The first write took "favourite"; the screen says "not": written next.
        await tester.answer(.didSetFavourite(number: 3, isFavourite: true)) {
            $0.favouriteChanges[3] = Comics.FavouriteChange(comic: .mock(3), writing: false, wanted: false)
        }
        await clock.advance(by: .seconds(1))
        await tester.answer(.didSetFavourite(number: 3, isFavourite: false)) { $0.favouriteChanges[3] = nil }
        await tester.finish()
        #expect(written.withLock { $0 } == [true, false])
    }

    @Test func aComicShownAgainWhileItsMarkIsOnItsWayShowsTheMarkSet() async {
        let clock = TestClock()
        var env = ComicsEnv.mock
        env.setFavourite = { (_: Comic, _: Bool) throws(FavouritesUnavailable) in
            try? await clock.sleep(for: .seconds(5))
        }
        let state = Comics.State(
            phase: .showing(.mock(4)), latest: 10,
            favouriteChanges: [3: Comics.FavouriteChange(comic: .mock(3), writing: true, wanted: true)])
        let tester = ComicsSteps(state, env: env)
        await tester.step(.previous) { $0.phase = .loading(.number(3), showing: .mock(4)) }
        // The store still says "not a favourite": the mark set wins.
        await tester.answer(.didLoad(.mock(3), isLatest: false, isFavourite: false)) {
            $0.phase = .showing(.mock(3))
            $0.isFavourite = true
        }
        await clock.advance(by: .seconds(5))
        await tester.finish()
    }

    @Test func unavailableFavouritesAreANoticeNotAFailure() async {
        var env = ComicsEnv.mock
        let unavailable = FavouritesUnavailable("The favourites file is damaged.", detail: "/data/favourites.sqlite")
        env.setFavourite = { (_: Comic, _: Bool) throws(FavouritesUnavailable) in throw unavailable }
        let tester = ComicsSteps(Comics.State(phase: .showing(.mock(3)), latest: 10), env: env)
        await tester.step(.toggleFavourite) {
            $0.isFavourite = true
            $0.favouriteChanges[3] = Comics.FavouriteChange(comic: .mock(3), writing: true, wanted: true)
        }
        // The store kept its mark: shown again.
        await tester.answer(.favouritesFailed(number: 3, unavailable)) {
            $0.isFavourite = false
            $0.favouriteChanges[3] = nil
            $0.notice = .favouritesUnavailable(unavailable)
        }
        await tester.finish()
    }

    @Test func theImageFollowsItsComicForFrontEndsThatShowImages() async throws {
        var env = ComicsEnv.mock
        let mock = env
        env.latest = { () async throws(ComicsError) -> Comic in
            var comic = try await mock.latest()
            comic.imageURL = URL(string: "https://example.com/10.png")
            return comic
        }
        env.image = { url in url.lastPathComponent == "10.png" ? Data([0x89, 0x50]) : nil }
        var comic = Comic.mock(10)
        comic.imageURL = URL(string: "https://example.com/10.png")
        let tester = ComicsSteps(env: env)
        await tester.step(.start) { $0.phase = .loading(.latest, showing: nil) }
        await tester.answer(.didLoad(comic, isLatest: true, isFavourite: false)) {
            $0.phase = .showing(comic)
            $0.latest = 10
            $0.isLoadingImage = true
        }
        await tester.answer(.didLoadImage(number: 10, Data([0x89, 0x50]))) {
            $0.image = Data([0x89, 0x50])
            $0.isLoadingImage = false
        }
        // An image for a comic no longer shown is not kept.
        await tester.unchanged(.didLoadImage(number: 3, Data([1])))
        await tester.finish()
    }

    @Test func aComicLoadedBeforeTheLatestIsKnownDoesNotBecomeTheLatest() async {
        let tester = ComicsSteps(Comics.State(phase: .failed(.latest, .timedOut)))
        await tester.step(.goTo(5)) { $0.phase = .loading(.number(5), showing: nil) }
        await tester.answer(.didLoad(.mock(5), isLatest: false, isFavourite: false)) {
            $0.phase = .showing(.mock(5))
        }
        await tester.finish()
    }

    @Test func eventsThatMakeNoSenseChangeNothing() async {
        let tester = ComicsSteps()
        await tester.unchanged(.cancel)
        await tester.unchanged(.retry)
        await tester.unchanged(.toggleFavourite)
        await tester.unchanged(.next)
        await tester.finish()
    }
}

@Suite("Comics model")
struct ComicsModelTests {
    @Test func eachPhaseOffersOnlyItsIntents() {
        let proxy = Comics.Proxy()
        func kinds(_ state: Comics.State) -> [ComicsModel.Kind] {
            let intents = Intents<Comics, Comics.Phase>(
                for: state, proxy: proxy, scope: Comics.scope(of:), current: { state })
            return Comics.model(of: state, intents: intents).intents.map(\.kind)
        }
        #expect(kinds(Comics.State()) == [.latest, .random])
        #expect(kinds(Comics.State(phase: .loading(.latest, showing: nil))) == [.cancel])
        #expect(
            kinds(Comics.State(phase: .showing(.mock(1)), latest: 10)) == [.next, .latest, .random, .toggleFavourite])
        #expect(
            kinds(Comics.State(phase: .showing(.mock(10)), latest: 10))
                == [.previous, .latest, .random, .toggleFavourite])
        #expect(kinds(Comics.State(phase: .failed(.latest, .timedOut))) == [.retry, .latest, .random])
        #expect(kinds(Comics.State(phase: .failed(.number(3), .notFound(3)))) == [.latest, .random])
    }

    @Test func anIntentFromAnOldStateIsRefused() throws {
        let proxy = Comics.Proxy(bufferSize: 4)
        var current = Comics.State(phase: .showing(.mock(5)), latest: 10)
        let intents = Intents<Comics, Comics.Phase>(
            for: current, proxy: proxy, scope: Comics.scope(of:), current: { current })
        let model = Comics.model(of: current, intents: intents)
        let next = try #require(model.intent(.next))
        #expect(next() == .sent)
        current.phase = .loading(.number(6), showing: .mock(5))
        #expect(next() == .stale)
    }
}
