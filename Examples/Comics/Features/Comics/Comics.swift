// The Comics feature: show the latest comic, move to the next or previous
// one, jump to a number, pick one at random, retry what failed, and mark a
// comic as a favourite. Every mode is a case of `Phase`; every answer of
// the world comes back as an event.

import Foundation
import Oak

/// The Comics transducer.
public enum Comics: EffectTransducer {
    /// What the feature is doing.
    public enum Phase: Equatable, Hashable, Sendable {
        /// Nothing shown yet, nothing loading.
        case idle
        /// Loading; the comic shown before stays on screen.
        case loading(Request, showing: Comic?)
        /// A comic is shown.
        case showing(Comic)
        /// There is no comic with this number (xkcd has no #404).
        case notFound(Int)
        /// Loading failed.
        case failed(Request, ComicsError)

        /// Whether a load is in flight.
        public var isLoading: Bool {
            if case .loading = self { true } else { false }
        }
    }

    /// What to load.
    public enum Request: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// The newest comic.
        case latest
        /// Comic `n`.
        case number(Int)
        /// A comic picked at random.
        case random

        /// "the latest comic", "comic #5", "a random comic".
        public var description: String {
            switch self {
            case .latest: "the latest comic"
            case .number(let number): "comic #\(number)"
            case .random: "a random comic"
            }
        }
    }

    /// A message for the user about the last intent.
    public enum Notice: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// There is no comic before #1.
        case noPrevious
        /// The latest comic is shown: there is no next one.
        case noNext
        /// A number outside 1…latest was asked for.
        case outOfRange(Int, latest: Int)
        /// Loading was cancelled.
        case cancelled
        /// The favourites could not be read or changed.
        case favouritesUnavailable(FavouritesUnavailable)

        /// The message.
        public var description: String {
            switch self {
            case .noPrevious: "This is the first comic."
            case .noNext: "This is the latest comic."
            case .outOfRange(let number, let latest) where latest > 0:
                "There is no comic #\(number): the comics go from 1 to \(latest)."
            case .outOfRange(let number, _): "There is no comic #\(number)."
            case .cancelled: "Loading cancelled."
            case .favouritesUnavailable(let error): "Favourites are not available: \(error)"
            }
        }
    }

    /// A change of a comic's favourite mark that the store has not taken
    /// yet. One write per comic at a time: marks toggled while it is in
    /// flight are written after it, so the store ends as the screen said.
    public struct FavouriteChange: Equatable, Hashable, Sendable {
        /// The comic.
        public internal(set) var comic: Comic
        /// What the store is being told now.
        public internal(set) var writing: Bool
        /// What the user asked for last (and the screen showed).
        public internal(set) var wanted: Bool

        /// A change.
        init(comic: Comic, writing: Bool, wanted: Bool) {
            self.comic = comic
            self.writing = writing
            self.wanted = wanted
        }
    }

    /// The feature's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// What the feature is doing.
        public internal(set) var phase: Phase
        /// The number of the latest comic, once known.
        public internal(set) var latest: Int?
        /// Whether the comic shown is a favourite, as the user last set it
        /// (shown at once; the store follows: ``favouriteChanges``).
        public internal(set) var isFavourite: Bool
        /// A message about the last intent, if any.
        public internal(set) var notice: Notice?
        /// The image of the comic shown, once loaded (only for front ends
        /// that show images: see ``ComicsEnv/image``).
        public internal(set) var image: Data?
        /// Whether the image of the comic shown is still on its way.
        public internal(set) var isLoadingImage: Bool
        /// The favourite marks on their way to the store, by comic number.
        public internal(set) var favouriteChanges: [Int: FavouriteChange]

        /// The state before the feature starts: nothing shown yet.
        public init() {
            self.init(phase: .idle)
        }

        /// A state; by default nothing is shown yet.
        init(
            phase: Phase = .idle, latest: Int? = nil, isFavourite: Bool = false, notice: Notice? = nil,
            image: Data? = nil, isLoadingImage: Bool = false, favouriteChanges: [Int: FavouriteChange] = [:]
        ) {
            self.phase = phase
            self.latest = latest
            self.isFavourite = isFavourite
            self.notice = notice
            self.image = image
            self.isLoadingImage = isLoadingImage
            self.favouriteChanges = favouriteChanges
        }

        /// Whether the feature shows what it was asked for: a comic (or why
        /// there is none) and, when the comic has one and the front end
        /// shows images, its image.
        public var isSettled: Bool {
            switch phase {
            case .idle, .loading: false
            case .showing, .notFound, .failed: !isLoadingImage
            }
        }

        /// The number the feature is at: of the comic shown, loading or
        /// not found.
        public var current: Int? {
            switch phase {
            case .idle: nil
            case .showing(let comic): comic.number
            case .notFound(let number): number
            case .loading(.number(let number), _), .failed(.number(let number), _): number
            case .loading(_, let showing): showing?.number
            case .failed: nil
            }
        }

        /// The image of comic `number` when that comic is shown and its
        /// image has arrived; `nil` otherwise: a front end shows only the
        /// image of the comic shown.
        public func image(of number: Int) -> Data? {
            guard case .showing(let comic) = phase, comic.number == number else { return nil }
            return image
        }

        /// The comic on screen, if any.
        public var shownComic: Comic? {
            switch phase {
            case .showing(let comic): comic
            case .loading(_, let showing): showing
            default: nil
            }
        }
    }

    /// What happens to the feature: the user's intents, then the world's
    /// answers.
    public enum Event: Equatable, Sendable {
        /// Load the latest comic (the feature's first event).
        case start
        /// The next comic.
        case next
        /// The previous comic.
        case previous
        /// Back to the latest comic.
        case latest
        /// A random comic.
        case random
        /// Comic `n`.
        case goTo(Int)
        /// Cancel the load in flight.
        case cancel
        /// Try the failed load again.
        case retry
        /// Make the comic shown a favourite, or no longer one.
        case toggleFavourite
        /// The world's answer to one of the feature's effects. Only the
        /// feature makes answers: another module can pass one on, never
        /// fake one.
        case answer(Answer)
    }

    /// The world's answer to one of the feature's effects (a comic arrived,
    /// the store took a mark, …). Its cases are the feature's own: no other
    /// module can make or read one.
    public struct Answer: Equatable, Sendable {
        enum Kind: Equatable, Sendable {
            /// A comic arrived.
            case didLoad(Comic, isLatest: Bool, isFavourite: Bool)
            /// Loading failed.
            case didFail(Request, ComicsError)
            /// The store took comic `number`'s favourite mark.
            case didSetFavourite(number: Int, isFavourite: Bool)
            /// The store could not take comic `number`'s favourite mark.
            case favouritesFailed(number: Int, FavouritesUnavailable)
            /// The image of comic `number` arrived, or will not (`nil`: the
            /// front end shows no images, or it could not be loaded).
            case didLoadImage(number: Int, Data?)
        }

        let kind: Kind

        /// The answer's case without its payload, for a state diagram:
        /// "didLoad".
        public var name: String {
            String(String(describing: kind).prefix { $0 != "(" })
        }
    }

    /// The port.
    public typealias Env = ComicsEnv

    /// Every state, for the parent that shows it.
    public typealias Output = State

    /// The id of the load in flight: a new load replaces it.
    static let loadID: EffectID = "load"

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        let effect = transition(&state, event)
        return (effect, state)
    }

    static func transition(_ state: inout State, _ event: Event) -> Self.Effect? {
        switch event {
        case .start, .latest:
            state.notice = nil
            return load(.latest, &state)
        case .next:
            state.notice = nil
            guard let number = state.current else { return nil }
            guard let latest = state.latest, number < latest else {
                state.notice = .noNext
                return nil
            }
            return load(.number(number + 1), &state)
        case .previous:
            state.notice = nil
            guard let number = state.current else { return nil }
            guard number > 1 else {
                state.notice = .noPrevious
                return nil
            }
            return load(.number(number - 1), &state)
        case .random:
            state.notice = nil
            return load(.random, &state)
        case .goTo(let number):
            state.notice = nil
            guard Comic.numbers.contains(number), number <= state.latest ?? Int.max else {
                state.notice = .outOfRange(number, latest: state.latest ?? 0)
                return nil
            }
            return load(.number(number), &state)
        case .cancel:
            guard case .loading(_, let showing) = state.phase else { return nil }
            state.phase = showing.map(Phase.showing) ?? .idle
            state.notice = .cancelled
            return .cancelTask(loadID)
        case .retry:
            guard case .failed(let request, let error) = state.phase, error.isRetryable else { return nil }
            state.notice = nil
            return load(request, &state)
        case .toggleFavourite:
            guard case .showing(let comic) = state.phase else { return nil }
            state.notice = nil
            // Shown at once: every press flips what the screen shows, also
            // while the store has not taken the previous one.
            state.isFavourite.toggle()
            if var change = state.favouriteChanges[comic.number] {
                change.wanted = state.isFavourite
                state.favouriteChanges[comic.number] = change
                return nil
            }
            state.favouriteChanges[comic.number] = FavouriteChange(
                comic: comic, writing: state.isFavourite, wanted: state.isFavourite)
            return write(comic, state.isFavourite)
        case .answer(let answer):
            return transition(&state, answer.kind)
        }
    }

    static func transition(_ state: inout State, _ answer: Answer.Kind) -> Self.Effect? {
        switch answer {
        case .didLoad(let comic, let isLatest, let isFavourite):
            state.phase = .showing(comic)
            // A mark on its way to the store is what the user set.
            state.isFavourite = state.favouriteChanges[comic.number]?.wanted ?? isFavourite
            state.image = nil
            state.isLoadingImage = comic.imageURL != nil
            // The latest number comes from the latest comic; a comic past
            // a known latest one moves it on (xkcd published one meanwhile).
            if isLatest {
                state.latest = comic.number
            } else if let latest = state.latest, comic.number > latest {
                state.latest = comic.number
            }
        case .didFail(let request, let error):
            if case .notFound(let number) = error {
                state.phase = .notFound(number)
            } else {
                state.phase = .failed(request, error)
            }
        case .didSetFavourite(let number, let isFavourite):
            guard var change = state.favouriteChanges[number] else { return nil }
            guard change.wanted != isFavourite else {
                state.favouriteChanges[number] = nil
                return nil
            }
            // Toggled again meanwhile: the store takes the last mark too.
            change.writing = change.wanted
            state.favouriteChanges[number] = change
            return write(change.comic, change.wanted)
        case .favouritesFailed(let number, let error):
            // The store kept what it had: the mark before the failed write.
            if let change = state.favouriteChanges.removeValue(forKey: number), state.shownComic?.number == number {
                state.isFavourite = !change.writing
            }
            state.notice = .favouritesUnavailable(error)
        case .didLoadImage(let number, let image):
            if case .showing(let comic) = state.phase, comic.number == number {
                state.image = image
                state.isLoadingImage = false
            }
        }
        return nil
    }

    /// Tells the store comic `comic`'s mark; one write per comic at a time.
    static func write(_ comic: Comic, _ isFavourite: Bool) -> Self.Effect {
        Effect(id: EffectID("favourite \(comic.number)")) { env, input in
            do throws(FavouritesUnavailable) {
                try await env.setFavourite(comic, isFavourite)
            } catch {
                try input.send(.favouritesFailed(number: comic.number, error))
                return
            }
            try input.send(.didSetFavourite(number: comic.number, isFavourite: isFavourite))
        }
    }

    /// Starts loading `request`, replacing a load in flight.
    static func load(_ request: Request, _ state: inout State) -> Self.Effect {
        state.phase = .loading(request, showing: state.shownComic)
        // The image of the comic shown, if still on its way, is not: the
        // new load replaces the one that was fetching it.
        state.isLoadingImage = false
        let knownLatest = state.latest
        return Effect(id: loadID) { env, input in
            let loaded: (comic: Comic, isLatest: Bool)
            do throws(ComicsError) {
                loaded = try await fetch(request, knownLatest: knownLatest, env: env)
            } catch {
                try input.send(.didFail(request, error))
                return
            }
            let isFavourite = (try? await env.isFavourite(loaded.comic.number)) ?? false
            try input.send(.didLoad(loaded.comic, isLatest: loaded.isLatest, isFavourite: isFavourite))
            // The image, for front ends that show it; part of the same
            // load, so that a newer load cancels it too.
            if let url = loaded.comic.imageURL {
                try input.send(.didLoadImage(number: loaded.comic.number, await env.image(url)))
            }
        }
    }

    static func fetch(
        _ request: Request, knownLatest: Int?, env: ComicsEnv
    ) async throws(ComicsError) -> (comic: Comic, isLatest: Bool) {
        switch request {
        case .latest:
            return (try await env.latest(), true)
        case .number(let number):
            return (try await env.comic(number), false)
        case .random:
            let latest: Int
            if let knownLatest {
                latest = knownLatest
            } else {
                latest = try await env.latest().number
            }
            return (try await env.comic(env.randomNumber(1...max(latest, 1))), false)
        }
    }
}

extension Comics.Event {
    /// A comic arrived.
    static func didLoad(_ comic: Comic, isLatest: Bool, isFavourite: Bool) -> Self {
        .answer(Comics.Answer(kind: .didLoad(comic, isLatest: isLatest, isFavourite: isFavourite)))
    }

    /// Loading failed.
    static func didFail(_ request: Comics.Request, _ error: ComicsError) -> Self {
        .answer(Comics.Answer(kind: .didFail(request, error)))
    }

    /// The store took comic `number`'s favourite mark.
    static func didSetFavourite(number: Int, isFavourite: Bool) -> Self {
        .answer(Comics.Answer(kind: .didSetFavourite(number: number, isFavourite: isFavourite)))
    }

    /// The store could not take comic `number`'s favourite mark.
    static func favouritesFailed(number: Int, _ error: FavouritesUnavailable) -> Self {
        .answer(Comics.Answer(kind: .favouritesFailed(number: number, error)))
    }

    /// The image of comic `number` arrived, or will not.
    static func didLoadImage(number: Int, _ image: Data?) -> Self {
        .answer(Comics.Answer(kind: .didLoadImage(number: number, image)))
    }
}
