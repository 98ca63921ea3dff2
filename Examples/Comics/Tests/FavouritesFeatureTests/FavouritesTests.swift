// The Favourites feature's transitions, exhaustively, through its mock
// port: list, select, open, remove, and a store that cannot be read.

import Foundation
import Oak
import OakTesting
import Synchronization
import Testing

@testable import FavouritesFeature

/// A tester of the Favourites feature that also checks every output:
/// `.changed` with the state after the step, which these helpers follow in
/// a state of their own (the tester's `state` may already be ahead).
final class FavouritesSteps {
    let tester: TransducerTester<Favourites>
    private var expected: Favourites.State

    /// The port: its list is the one every tester with this port shares.
    let env: FavouritesEnv

    init(_ initialState: Favourites.State = Favourites.State(), env: FavouritesEnv = .mock) {
        tester = TransducerTester(Favourites.self, initialState: initialState, env: env)
        expected = initialState
        self.env = env
    }

    /// The port's list, attached and read (so that a session attaching to
    /// it shows what was read, not "loading").
    func readList() async -> SharedRun<FavouritesList> {
        let list = env.list.attach()
        for await state in list.states where state.phase != .loading { break }
        return list
    }

    /// Loads: the session attaches to the port's list, read before.
    @discardableResult
    func load() async -> SharedRun<FavouritesList> {
        let list = await readList()
        await step(.load)
        await answer(.attached(list)) { $0.list = list }
        return list
    }

    /// Sends `event`; its output is `.changed` with the state `change` makes.
    func step(_ event: Favourites.Event, _ change: ((inout Favourites.State) -> Void)? = nil) async {
        if let change {
            change(&expected)
            await tester.send(event, output: .changed(expected), assert: change)
        } else {
            await tester.send(event, output: .changed(expected))
        }
    }

    /// Receives `event`; its output is `.changed` with the state `change`
    /// makes.
    func answer(_ event: Favourites.Event, _ change: @escaping (inout Favourites.State) -> Void) async {
        change(&expected)
        await tester.receive(event, output: .changed(expected), assert: change)
    }

    func send(_ event: Favourites.Event, output: Favourites.Output) async {
        await tester.send(event, output: output)
    }

    func finish() async {
        await tester.finish()
    }
}

let mockFavourites = (1...3).reversed().map {
    Favourite(number: $0, title: "Comic \($0)", added: Date(timeIntervalSince1970: Double($0) * 86_400))
}

@Suite("Favourites feature", .timeLimit(.minutes(1)))
struct FavouritesTests {
    @Test func listsSelectsAndOpens() async {
        let tester = FavouritesSteps()
        await tester.load()
        #expect(tester.tester.state.phase == .list(mockFavourites))
        await tester.step(.up)
        await tester.step(.down) { $0.chosen = 1 }
        await tester.step(.down) { $0.chosen = 2 }
        await tester.step(.down)
        await tester.send(.open, output: .open(1))
        await tester.finish()
    }

    @Test func removesTheSelectedOneForEverySession() async {
        let env = FavouritesEnv.mock
        let tester = FavouritesSteps(env: env)
        let list = await tester.load()
        await tester.step(.down) { $0.chosen = 1 }
        await tester.step(.down) { $0.chosen = 2 }
        await tester.step(.remove)
        await tester.answer(.didRemove(1)) { $0.notice = "Removed #1." }
        await tester.finish()
        for await state in list.states where state.phase == .list(Array(mockFavourites.prefix(2))) { break }
        // The selection stays on the last row of the shorter list.
        #expect(tester.tester.state.selection == 1)
        #expect(tester.tester.state.selected?.number == 2)
        // Another session of the same port shows the same list: one copy.
        let other = FavouritesSteps(env: env)
        #expect(await other.load() === list)
        #expect(other.tester.state.favourites == Array(mockFavourites.prefix(2)))
        await other.finish()
    }

    @Test func aRemovalThatFailsSaysWhyAndKeepsTheList() async {
        let tester = FavouritesSteps(env: FavouritesGraphTests.readOnly)
        await tester.load()
        await tester.step(.remove)
        await tester.answer(.didFail(FavouritesError("The disk is read-only."))) {
            $0.notice = "The disk is read-only."
        }
        #expect(tester.tester.state.phase == .list(mockFavourites))
        await tester.finish()
    }

    @Test func aStoreThatCannotBeReadIsShownNotFatal() async {
        let tester = FavouritesSteps(env: .unavailable("the file is damaged"))
        await tester.load()
        #expect(tester.tester.state.phase == .unavailable(FavouritesError("the file is damaged")))
        await tester.step(.open)
        await tester.step(.remove)
        await tester.finish()
    }

    @Test func retryingReadsTheListAgain() async {
        let reads = Mutex(0)
        let env = FavouritesEnv(
            all: { () throws(FavouritesError) -> [Favourite] in
                let read = reads.withLock {
                    $0 += 1
                    return $0
                }
                if read == 1 { throw FavouritesError("busy") }
                return mockFavourites
            },
            remove: { _ in })
        let tester = FavouritesSteps(env: env)
        let list = await tester.load()
        #expect(tester.tester.state.phase == .unavailable(FavouritesError("busy")))
        await tester.step(.load)
        for await state in list.states where state.phase == .list(mockFavourites) { break }
        #expect(reads.withLock { $0 } == 2)
        await tester.finish()
    }
}
