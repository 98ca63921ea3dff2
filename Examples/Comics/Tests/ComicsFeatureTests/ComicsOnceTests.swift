// The Comics feature run once for a command (`comics show`, `comics
// favourites add`): what the command prints and stores is what the feature
// does, through its port.

import ComicsFeature
import Foundation
import Synchronization
import Testing

@Suite("The feature run once, for a command")
struct ComicsOnceTests {
    /// What the port was asked: image fetches and the marks written.
    final class Asked: Sendable {
        let images = Mutex(0)
        let marks = Mutex<[Bool]>([])
    }

    /// The mock port, with images, counting what it is asked.
    struct Counting {
        let asked = Asked()
        let env: ComicsEnv

        init(failingStore: Bool = false, alreadyFavourite: Bool = false) {
            var env = ComicsEnv.mock
            let comic = env.comic
            let asked = self.asked
            env.comic = { number throws(ComicsError) in
                var loaded = try await comic(number)
                loaded.imageURL = URL(string: "https://example.com/\(number).png")
                return loaded
            }
            env.isFavourite = { _ in alreadyFavourite }
            env.image = { _ in
                asked.images.withLock { $0 += 1 }
                return Data([1])
            }
            env.setFavourite = { _, isFavourite throws(FavouritesUnavailable) in
                asked.marks.withLock { $0.append(isFavourite) }
                if failingStore { throw FavouritesUnavailable("the store is read-only") }
            }
            self.env = env
        }

        var images: Int { asked.images.withLock { $0 } }
        var marks: [Bool] { asked.marks.withLock { $0 } }
    }

    @Test("show: the comic the feature shows, and no image fetched for plain output")
    func showLoadsThroughTheFeature() async throws {
        let port = Counting()
        let result = await ComicsPlainView.load(.number(3), env: port.env)
        #expect(try result.get().number == 3)
        #expect(port.images == 0)
    }

    @Test("show: a comic that does not exist is the feature's not-found")
    func showNotFound() async {
        let result = await ComicsPlainView.load(.number(4), env: Counting().env)
        #expect(result == .failure(.notFound(4)))
    }

    @Test("add: the comic is shown, then marked once")
    func addMarksOnce() async throws {
        let port = Counting()
        let comic = try await ComicsPlainView.addFavourite(5, env: port.env)
        #expect(comic.number == 5)
        #expect(port.marks == [true])
    }

    @Test("add: a comic already marked is left as it is (the feature would unmark it on a toggle)")
    func addKeepsAMarkedComic() async throws {
        let port = Counting(alreadyFavourite: true)
        _ = try await ComicsPlainView.addFavourite(5, env: port.env)
        #expect(port.marks.isEmpty)
    }

    @Test("add: a store that refuses the mark is the error, with its words")
    func addReportsTheStore() async {
        let port = Counting(failingStore: true)
        await #expect(throws: FavouritesUnavailable("the store is read-only")) {
            try await ComicsPlainView.addFavourite(5, env: port.env)
        }
    }

    @Test("add: a comic that does not exist is not marked")
    func addNotFound() async {
        let port = Counting()
        await #expect(throws: ComicsError.notFound(4)) {
            try await ComicsPlainView.addFavourite(4, env: port.env)
        }
        #expect(port.marks.isEmpty)
    }

    @Test("once: steps are taken one after another, each once the feature is quiet")
    func stepsFollowTheFeature() async {
        let state = await Comics.once(
            env: ComicsEnv.mock, steps: [{ _ in .latest }, { _ in .previous }, { _ in .previous }])
        #expect(state.shownComic?.number == 8)
        #expect(state.isQuiet)
    }

    @Test("the image of a comic is the feature's only while that comic is shown")
    func theImageIsTheShownComics() async {
        let port = Counting()
        let state = await Comics.once(env: port.env, steps: [{ _ in .goTo(3) }])
        #expect(state.image(of: 3) == Data([1]))
        #expect(state.image(of: 2) == nil)
    }
}
