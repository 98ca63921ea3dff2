// The Favourites feature's transitions, exhaustively, through its mock
// port: list, select, open, remove, and a store that cannot be read.

import FavouritesScene
import Foundation
import Oak
import OakTesting
import Testing

extension TransducerTester where T == Favourites {
    /// Sends `event`; its output is `.changed` with the state `change` makes.
    func step(_ event: Favourites.Event, _ change: ((inout Favourites.State) -> Void)? = nil) async {
        var expected = state
        change?(&expected)
        if let change {
            await send(event, output: .changed(expected), assert: change)
        } else {
            await send(event, output: .changed(expected))
        }
    }

    /// Receives `event`; its output is `.changed` with the state `change`
    /// makes.
    func answer(_ event: Favourites.Event, _ change: @escaping (inout Favourites.State) -> Void) async {
        var expected = state
        change(&expected)
        await receive(event, output: .changed(expected), assert: change)
    }
}

let mockFavourites = (1...3).reversed().map {
    Favourite(number: $0, title: "Comic \($0)", added: Date(timeIntervalSince1970: Double($0) * 86_400))
}

@Suite("Favourites feature")
struct FavouritesTests {
    @Test func listsSelectsAndOpens() async {
        let tester = TransducerTester(Favourites.self, initialState: Favourites.State(), env: .mock)
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
        let tester = TransducerTester(
            Favourites.self, initialState: Favourites.State(phase: .list(mockFavourites), selection: 2), env: .mock)
        await tester.step(.remove)
        await tester.answer(.didRemove(1)) {
            $0.phase = .list(Array(mockFavourites.prefix(2)))
            $0.selection = 1
            $0.notice = "Removed #1."
        }
        await tester.finish()
    }

    @Test func aStoreThatCannotBeReadIsShownNotFatal() async {
        let tester = TransducerTester(
            Favourites.self, initialState: Favourites.State(), env: .unavailable("the file is damaged"))
        await tester.step(.load)
        await tester.answer(.didFail(FavouritesError("the file is damaged"))) {
            $0.phase = .unavailable("the file is damaged")
        }
        await tester.step(.open)
        await tester.step(.remove)
        await tester.finish()
    }
}
