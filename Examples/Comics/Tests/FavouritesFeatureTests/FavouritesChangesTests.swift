// Changes made elsewhere (another session of the web server) reach an open
// list without a reload: the feature follows its port's `changes`.

import Foundation
import Oak
import Testing

@testable import FavouritesFeature

@Suite("Favourites follow changes made elsewhere", .timeLimit(.minutes(1)))
struct FavouritesChangesTests {
    @Test func aListChangedElsewhereIsShown() async throws {
        let (changes, push) = AsyncStream<[Favourite]>.makeStream()
        let env = FavouritesEnv(all: { [] }, remove: { _ in }, changes: { changes })
        let proxy = Favourites.Proxy()
        let (states, seen) = AsyncStream<Favourites.State>.makeStream()
        try proxy.send(.load)
        let run = Task {
            try await Favourites.run(
                initialState: Favourites.State(), proxy: proxy, env: env,
                output: Callback { output in
                    if case .changed(let state) = output { seen.yield(state) }
                })
        }
        let seven = Favourite(number: 7, title: "Seven", added: Date(timeIntervalSince1970: 0))
        push.yield([seven])
        for await state in states where state.favourites == [seven] { break }
        proxy.cancel()
        _ = await run.result
    }
}
