// Changes made elsewhere (another session of the web server, another
// process on the same database) reach every open list without a reload:
// the process's one list (FavouritesList) follows its port's `changes`,
// and every session reads that one copy.

import Foundation
import Oak
import Synchronization
import Testing

@testable import FavouritesFeature

@Suite("Favourites follow changes made elsewhere", .timeLimit(.minutes(1)))
struct FavouritesChangesTests {
    @Test func aListChangedElsewhereIsShownByEverySessionFromOneCopy() async throws {
        let (changes, push) = AsyncStream<[Favourite]>.makeStream()
        let reads = Mutex(0)
        let env = FavouritesEnv(
            all: {
                reads.withLock { $0 += 1 }
                return []
            }, remove: { _ in }, changes: { changes })
        let first = Favourites.State(attachedTo: env.list.attach())
        let second = Favourites.State(attachedTo: env.list.attach())
        #expect(first.list === second.list)
        let seven = Favourite(number: 7, title: "Seven", added: Date(timeIntervalSince1970: 0))
        push.yield([seven])
        for await state in env.list.run.states where state.phase == .list([seven]) { break }
        #expect(first.favourites == [seven] && second.favourites == [seven])
        #expect(reads.withLock { $0 } == 1)
        await env.list.close()
    }

    @Test func closingEndsTheRunAndLetsGoOfTheChanges() async throws {
        let (changes, push) = AsyncStream<[Favourite]>.makeStream()
        let (ended, end) = AsyncStream<Void>.makeStream()
        push.onTermination = { _ in end.yield() }
        let env = FavouritesEnv(all: { [] }, remove: { _ in }, changes: { changes })
        let list = env.list.attach()
        for await state in list.states where state.phase == .list([]) { break }
        await env.list.close()
        #expect(list.ending != nil)
        for await _ in ended { break }
    }

    @Test func closingWhatNoSessionAttachedToDoesNothing() async {
        let env = FavouritesEnv.mock
        await env.list.close()
        #expect(!env.list.run.hasStarted)
    }
}

extension Favourites.State {
    /// A session's state once attached to `list`.
    init(attachedTo list: SharedRun<FavouritesList>) {
        self.init()
        self.list = list
    }
}
