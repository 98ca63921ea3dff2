// The Comics feature as its views see it: one case per phase, each with
// only the intents that make sense there. Terminal, web and SwiftUI views
// render the same model.

import Foundation
import Oak

/// What a view of the Comics feature shows and offers.
public struct ComicsModel {
    /// What is on screen.
    public enum Content: Equatable {
        /// Nothing yet.
        case empty
        /// A comic; `isLoading` while another one loads.
        case comic(Comic, isFavourite: Bool)
        /// "There is no comic #n."
        case notFound(Int)
        /// What failed, and why.
        case failure(Comics.Request, ComicsError)
    }

    /// What is on screen.
    public var content: Content
    /// The image of the comic shown, when the front end loads images.
    public var image: Data?
    /// What is loading, if anything.
    public var loading: Comics.Request?
    /// A message about the last intent.
    public var notice: Comics.Notice?
    /// The intents valid now, in the order a help screen lists them.
    public var intents: [Action]

    /// One thing the user can do now.
    public struct Action {
        /// Which one.
        public var kind: Kind
        /// Does it (refused if the state has moved on meanwhile).
        public var intent: Intent<Comics.Event>
    }

    /// The things a user can do in the Comics feature.
    public enum Kind: Equatable, Hashable, Sendable, CaseIterable {
        /// The previous comic.
        case previous
        /// The next comic.
        case next
        /// The latest comic.
        case latest
        /// A random comic.
        case random
        /// Cancel loading.
        case cancel
        /// Try again.
        case retry
        /// Favourite or not.
        case toggleFavourite
    }

    /// The intent of `kind`, if it is valid now.
    public func intent(_ kind: Kind) -> Intent<Comics.Event>? {
        intents.first { $0.kind == kind }?.intent
    }

    /// Whether "go to number" is offered (it takes the number as its
    /// argument: see ``goTo``).
    public var offersGoTo: Bool { loading == nil }

    /// Goes to comic `number`, if the state is still the one this model
    /// shows: `nil` when going to a number is not offered now, or `number`
    /// is not a comic number (they start at 1).
    public func goTo(_ number: Int) -> Intent<Comics.Event>? {
        guard offersGoTo, Comic.numbers.contains(number) else { return nil }
        return goToIntent(number)
    }

    /// Makes the intent of ``goTo(_:)``.
    let goToIntent: (Int) -> Intent<Comics.Event>
}

extension Comics {
    /// The part of the state that decides which intents are valid: a model
    /// derived from one scope refuses its intents once the state has left
    /// it.
    public static func scope(of state: State) -> Phase { state.phase }

    /// The model of `state`, whose intents are made by `intents`.
    public static func model(of state: State, intents: Intents<Comics, Phase>) -> ComicsModel {
        var actions: [ComicsModel.Action] = []
        func offer(_ kind: ComicsModel.Kind, _ event: Event) {
            actions.append(ComicsModel.Action(kind: kind, intent: intents(event)))
        }
        let content: ComicsModel.Content
        var loading: Request?
        switch state.phase {
        case .idle:
            content = .empty
            offer(.latest, .latest)
            offer(.random, .random)
        case .loading(let request, let showing):
            content = showing.map { .comic($0, isFavourite: state.isFavourite) } ?? .empty
            loading = request
            offer(.cancel, .cancel)
        case .showing(let comic):
            content = .comic(comic, isFavourite: state.isFavourite)
            if comic.number > 1 { offer(.previous, .previous) }
            if let latest = state.latest, comic.number < latest { offer(.next, .next) }
            offer(.latest, .latest)
            offer(.random, .random)
            offer(.toggleFavourite, .toggleFavourite)
        case .notFound(let number):
            content = .notFound(number)
            if number > 1 { offer(.previous, .previous) }
            if let latest = state.latest, number < latest { offer(.next, .next) }
            offer(.latest, .latest)
            offer(.random, .random)
        case .failed(let request, let error):
            content = .failure(request, error)
            if error.isRetryable { offer(.retry, .retry) }
            offer(.latest, .latest)
            offer(.random, .random)
        }
        return ComicsModel(
            content: content, image: state.image, loading: loading, notice: state.notice, intents: actions,
            goToIntent: { intents(.goTo($0)) })
    }
}
