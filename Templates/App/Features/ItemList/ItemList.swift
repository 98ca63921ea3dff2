// The feature: a list of items, kept through a port. Its rules only: what
// the list shows, which intents it offers, what it asks the port to do and
// what it does with the answer. It knows no terminal, page or database.

import Common
import Foundation
import Oak

/// One item of the list.
public struct Item: Identifiable, Equatable, Hashable, Sendable {
    /// The store's number for it.
    public var id: Int64
    /// What the user typed.
    public var title: String

    /// An item.
    public init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }
}

/// Why the store could not do what it was asked, in words for the user.
public struct StoreFailure: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    /// A failure told as `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// The list's transducer: it loads the items, adds one with a title, and
/// removes the selected one. A change shows once the store has taken it.
public enum ItemList: EffectTransducer {
    /// The longest title, in characters.
    public static let maxTitle = 200

    /// What the list shows.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// The items, oldest first.
        public internal(set) var items: [Item] = []
        /// The selected row.
        public internal(set) var selection = 0
        /// The title being typed (in the terminal), or `nil`.
        public internal(set) var draft: EditableText?
        /// Whether the items are being read.
        public internal(set) var isLoading = true
        /// Whether a change is on its way to the store.
        public internal(set) var isSaving = false
        /// What the store last said went wrong.
        public internal(set) var problem: StoreFailure?

        /// Before the list starts: loading.
        public init() {}

        /// The selected item, if any.
        public var selected: Item? { items.indices.contains(selection) ? items[selection] : nil }
    }

    /// What happens to the list.
    public enum Event: Equatable, Sendable {
        /// Read the items (the first event).
        case start
        /// Select the row above or below.
        case up, down
        /// Start typing a title.
        case beginAdding
        /// Change the title being typed.
        case edit(TextEdit)
        /// Stop typing without adding.
        case cancelAdding
        /// Add an item with this title (the one typed, or a page's field).
        case add(String)
        /// Remove this item.
        case remove(Int64)
        /// The store's answer.
        case answer(Answer)
    }

    /// The store's answers, which only the feature makes.
    public struct Answer: Equatable, Sendable {
        enum Kind: Equatable, Sendable {
            case loaded([Item])
            case added(Item)
            case removed(Int64)
            case failed(StoreFailure)
        }

        let kind: Kind
    }

    /// The port: where the items are kept.
    public struct Env: Sendable {
        /// Every item, oldest first.
        public var load: @Sendable () async throws(StoreFailure) -> [Item]
        /// Keeps a new item titled so, and returns it once it is durable.
        public var add: @Sendable (String) async throws(StoreFailure) -> Item
        /// Removes an item; returns once that is durable.
        public var remove: @Sendable (Int64) async throws(StoreFailure) -> Void

        /// A port of these closures.
        public init(
            load: @escaping @Sendable () async throws(StoreFailure) -> [Item],
            add: @escaping @Sendable (String) async throws(StoreFailure) -> Item,
            remove: @escaping @Sendable (Int64) async throws(StoreFailure) -> Void
        ) {
            self.load = load
            self.add = add
            self.remove = remove
        }
    }

    /// What the list is doing: the scope of the intents a view offers (an
    /// intent offered while a title is typed is refused once the list is
    /// back to its rows).
    public enum Mode: Hashable, Sendable {
        case loading, list, adding
    }

    /// What `state`'s list is doing.
    public static func mode(of state: State) -> Mode {
        state.isLoading ? .loading : state.draft == nil ? .list : .adding
    }

    /// Hosts send with `await proxy.send(_:)`, which returns once the event
    /// is processed.
    public typealias Proxy = SyncSuspendingProxy<Event>

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> Self.Effect? {
        var effect: Self.Effect?
        switch event {
        case .start:
            state.isLoading = true
            effect = ask { env throws(StoreFailure) in .loaded(try await env.load()) }
        case .up:
            state.selection = max(state.selection - 1, 0)
        case .down:
            state.selection = min(state.selection + 1, max(state.items.count - 1, 0))
        case .beginAdding:
            if !state.isLoading { state.draft = EditableText("") }
        case .edit(let edit):
            state.draft?.apply(edit, limit: maxTitle)
        case .cancelAdding:
            state.draft = nil
        case .add(let title):
            let title = String(title.trimmingCharacters(in: .whitespacesAndNewlines).prefix(maxTitle))
            guard !title.isEmpty, !state.isLoading, !state.isSaving else { break }
            state.draft = nil
            state.isSaving = true
            state.problem = nil
            effect = ask { env throws(StoreFailure) in .added(try await env.add(title)) }
        case .remove(let id):
            guard state.items.contains(where: { $0.id == id }), !state.isSaving else { break }
            state.isSaving = true
            state.problem = nil
            effect = ask { env throws(StoreFailure) in
                try await env.remove(id)
                return .removed(id)
            }
        case .answer(let answer):
            answered(&state, answer.kind)
        }
        return effect
    }

    private static func answered(_ state: inout State, _ answer: Answer.Kind) {
        switch answer {
        case .loaded(let items):
            state.items = items
            state.isLoading = false
        case .added(let item):
            state.items.append(item)
            state.selection = state.items.count - 1
            state.isSaving = false
        case .removed(let id):
            state.items.removeAll { $0.id == id }
            state.selection = min(state.selection, max(state.items.count - 1, 0))
            state.isSaving = false
        case .failed(let failure):
            state.problem = failure
            state.isLoading = false
            state.isSaving = false
        }
    }

    /// An effect that asks the store and sends its answer, or its failure.
    private static func ask(
        _ question: @escaping @Sendable (Env) async throws(StoreFailure) -> Answer.Kind
    ) -> Self.Effect {
        Effect { env, input in
            let kind: Answer.Kind
            do throws(StoreFailure) {
                kind = try await question(env)
            } catch {
                kind = .failed(error)
            }
            await input.send(.answer(Answer(kind: kind)))
        }
    }
}
