// The feature against the real runtime, exhaustively, with a port the test
// controls: every change it makes shows only once the store has taken it.

import Common
import OakTesting
import Testing

@testable import __Name__Feature

@Suite("The list", .timeLimit(.minutes(1)))
@MainActor
struct ItemListTests {
    /// A store in memory that fails when told to.
    final class MemoryStore: @unchecked Sendable {
        var items: [Item] = []
        var failure: StoreFailure?

        var port: ItemList.Env {
            ItemList.Env(
                load: { () throws(StoreFailure) in
                    if let failure = self.failure { throw failure }
                    return self.items
                },
                add: { title throws(StoreFailure) in
                    if let failure = self.failure { throw failure }
                    let item = Item(id: Int64(self.items.count + 1), title: title)
                    self.items.append(item)
                    return item
                },
                remove: { id throws(StoreFailure) in
                    if let failure = self.failure { throw failure }
                    self.items.removeAll { $0.id == id }
                })
        }
    }

    static func isAnswer(_ event: ItemList.Event) -> Bool {
        if case .answer = event { true } else { false }
    }

    @Test func addsAndRemovesOnceTheStoreHasTakenIt() async {
        let store = MemoryStore()
        store.items = [Item(id: 1, title: "Milk")]
        let tester = TransducerTester(ItemList.self, initialState: ItemList.State(), env: store.port)
        await tester.send(.start)
        await tester.receive(Self.isAnswer) {
            $0.items = [Item(id: 1, title: "Milk")]
            $0.isLoading = false
        }
        await tester.send(.beginAdding) { $0.draft = EditableText("") }
        await tester.send(.edit(.insert("  Bread "))) { $0.draft = EditableText("  Bread ") }
        await tester.send(.add("  Bread ")) {
            $0.draft = nil
            $0.isSaving = true
        }
        await tester.receive(Self.isAnswer) {
            $0.items.append(Item(id: 2, title: "Bread"))
            $0.selection = 1
            $0.isSaving = false
        }
        await tester.send(.remove(1)) { $0.isSaving = true }
        await tester.receive(Self.isAnswer) {
            $0.items = [Item(id: 2, title: "Bread")]
            $0.selection = 0
            $0.isSaving = false
        }
        #expect(store.items == [Item(id: 2, title: "Bread")])
        await tester.finish()
    }

    @Test func aFailureIsSaidAndNothingShowsAsSaved() async {
        let store = MemoryStore()
        let tester = TransducerTester(ItemList.self, initialState: ItemList.State(), env: store.port)
        await tester.send(.start)
        await tester.receive(Self.isAnswer) { $0.isLoading = false }
        store.failure = StoreFailure("The disk is full. Try again.")
        await tester.send(.add("Milk")) { $0.isSaving = true }
        await tester.receive(Self.isAnswer) {
            $0.isSaving = false
            $0.problem = StoreFailure("The disk is full. Try again.")
        }
        // An empty title, or one while loading, is not sent.
        await tester.send(.add("   "))
        await tester.finish()
    }
}
