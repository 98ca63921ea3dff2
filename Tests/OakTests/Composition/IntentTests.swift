// State-scoped actions: a model derived from the state offers only the
// intents valid there, and an intent kept from an old model is refused,
// visibly, once the state has moved on.

import Oak
import Testing

/// Loads something: `load` is valid while idle, `cancel` while loading.
enum Fetcher: EffectTransducer {
    enum State: NonTerminal, Equatable {
        case idle
        case loading
    }

    enum Event: Equatable, Sendable {
        case load
        case cancel
    }

    enum Phase: Hashable {
        case idle, loading
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch (state, event) {
        case (.idle, .load): state = .loading
        case (.loading, .cancel): state = .idle
        default: break
        }
        return nil
    }

    /// The state's scope: its case.
    static func phase(of state: State) -> Phase {
        switch state {
        case .idle: .idle
        case .loading: .loading
        }
    }

    /// A model with only the intents valid in the state.
    enum Model {
        case idle(load: Intent<Event>)
        case loading(cancel: Intent<Event>)
    }

    static func model(of state: State, intents: Intents<Fetcher, Phase>) -> Model {
        switch state {
        case .idle: .idle(load: intents(.load))
        case .loading: .loading(cancel: intents(.cancel))
        }
    }
}

/// Counts the refused intents a run reports.
struct IntentCounter: TransducerInspector {
    let refused = Locked(0)

    func record<T: BaseTransducer>(_ record: InspectionRecord<T>, of run: RunID) {
        if case .intentRefused = record { refused.withLock { $0 += 1 } }
    }
}

@Suite("State-scoped intents", .timeLimit(.minutes(1)))
@MainActor
struct IntentTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anIntentFromAnOldModelIsRefusedAndCounted() async throws {
        let counter = IntentCounter()
        let host = TransducerInspection.$inspector.withValue(counter) {
            ObservableTransducer<Fetcher>(initialState: .idle)
        }
        let idle = host.model(scope: Fetcher.phase(of:), Fetcher.model(of:intents:))
        guard case .idle(let load) = idle else {
            Issue.record("expected the idle model")
            return
        }
        #expect(load() == .sent)
        await until { host.state == .loading }

        // The view still shows the idle model; its intent is stale now.
        #expect(load() == .stale)
        #expect(counter.refused.withLock { $0 } == 1)

        let loading = host.model(scope: Fetcher.phase(of:), Fetcher.model(of:intents:))
        guard case .loading(let cancel) = loading else {
            Issue.record("expected the loading model")
            return
        }
        #expect(cancel() == .sent)
        await until { host.state == .idle }
        #expect(host.state == .idle)
        host.cancel()
    }

    @Test func intentsWorkWithAnyHostThatReadsTheState() async throws {
        let proxy = Fetcher.Proxy()
        let state = Locked(Fetcher.State.idle)
        let intents = Intents<Fetcher, Fetcher.Phase>(
            for: .idle, proxy: proxy, scope: Fetcher.phase(of:), current: { state.withLock { $0 } })
        let load = intents(.load)
        state.withLock { $0 = .loading }
        #expect(load() == .stale)
        state.withLock { $0 = .idle }
        #expect(load() == .sent)
        proxy.cancel()
        #expect(load() == .refused(.terminated))
    }

    /// Yields until `condition` holds: the host's run is on this actor.
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }
}
