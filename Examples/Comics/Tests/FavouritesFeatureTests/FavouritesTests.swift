// The Favourites feature's transitions, exhaustively, through its mock
// port: list, select, open, remove, and a store that cannot be read.

import Foundation
import Oak
import OakTesting
import Testing

@testable import FavouritesFeature

/// A tester of the Favourites feature that also checks every output:
/// `.changed` with the state after the step, which these helpers follow in
/// a state of their own (the tester's `state` may already be ahead).
final class FavouritesSteps {
    let tester: TransducerTester<Favourites>
    private var expected: Favourites.State

    init(_ initialState: Favourites.State = Favourites.State(), env: FavouritesEnv = .mock) {
        tester = TransducerTester(Favourites.self, initialState: initialState, env: env)
        expected = initialState
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

@Suite("Favourites feature")
struct FavouritesTests {
    @Test func listsSelectsAndOpens() async {
        let tester = FavouritesSteps()
        await tester.step(.load)
        await tester.answer(.didLoad(mockFavourites)) { $0.phase = .list(mockFavourites) }
        await tester.step(.up)
        await tester.step(.down) { $0.selection = 1 }
        await tester.step(.down) { $0.selection = 2 }
        await tester.step(.down)
        await tester.send(.open, output: .open(1))
        await tester.finish()
    }

    @Test func removesTheSelectedOne() async {
        let tester = FavouritesSteps(Favourites.State(phase: .list(mockFavourites), selection: 2))
        await tester.step(.remove)
        await tester.answer(.didRemove(1)) {
            $0.phase = .list(Array(mockFavourites.prefix(2)))
            $0.selection = 1
            $0.notice = "Removed #1."
        }
        await tester.finish()
    }

    @Test func aStoreThatCannotBeReadIsShownNotFatal() async {
        let tester = FavouritesSteps(env: .unavailable("the file is damaged"))
        await tester.step(.load)
        await tester.answer(.didFail(FavouritesError("the file is damaged"))) {
            $0.phase = .unavailable(FavouritesError("the file is damaged"))
        }
        await tester.step(.open)
        await tester.step(.remove)
        await tester.finish()
    }
}
