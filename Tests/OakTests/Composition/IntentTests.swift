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

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func performReturnsOnceTheIntentWasProcessed() async throws {
        let host = ObservableTransducer<Fetcher>(initialState: .idle)
        guard case .idle(let load) = host.model(scope: Fetcher.phase(of:), Fetcher.model(of:intents:)) else {
            Issue.record("expected the idle model")
            return
        }
        #expect(await load.perform() == .sent)
        // No waiting: the state the intent led to is there.
        #expect(host.state == .loading)
        #expect(await load.perform() == .stale)
        host.cancel()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func performOnAChildReturnsOnceASuspendingParentHasTheChildsOutput() async throws {
        let host = ObservableTransducer<Shell>(initialState: Shell.State(), env: ())
        await host.proxy.send(.start)
        let child = try #require(host.state.lamp)
        // Each key of a fast typist, interpreted in the state the previous
        // one led to: on (off), then off (on), then on again.
        for expected in [Lamp.State.on, .off, .on] {
            let lamp = host.state.lampState
            let intents = Intents<Lamp, Lamp.State>(
                for: lamp, proxy: child.proxy, scope: { $0 }, current: { host.state.lampState })
            let intent = intents(lamp == .off ? .turnOn : .turnOff)
            #expect(await intent.perform() == .sent)
            #expect(host.state.lampState == expected)
        }
        host.cancel()
    }

    @Test func intentsWorkWithASuspendingProxy() async throws {
        let proxy = Shell.Proxy()
        let state = Locked(Shell.State())
        let run = Task {
            try await Shell.run(
                storage: LockedStorage(state), proxy: proxy, env: (), output: NoCallback())
        }
        let intents = Intents<Shell, Bool>(
            for: Shell.State(), proxy: proxy, scope: { $0.lamp == nil }, current: { state.withLock { $0 } })
        // Called, the intent enqueues without waiting; performed, it waits.
        #expect(intents(.start)() == .sent)
        #expect(await intents(.start).perform() == .sent)
        #expect(state.withLock { $0.lamp } != nil)
        #expect(await intents(.start).perform() == .stale)
        proxy.cancel()
        _ = await run.result
    }

    /// Yields until `condition` holds: the host's run is on this actor.
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }
}

/// A lamp: `turnOn` is valid while off, `turnOff` while on; every state
/// is its output.
enum Lamp: EffectTransducer {
    enum State: NonTerminal, Hashable, Sendable {
        case off, on
    }

    enum Event: Sendable {
        case turnOn, turnOff
    }

    typealias Output = State

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, State) {
        switch (state, event) {
        case (.off, .turnOn): state = .on
        case (.on, .turnOff): state = .off
        default: break
        }
        return (nil, state)
    }
}

/// A parent whose proxy waits until each event has been processed, running
/// a ``Lamp`` as a child and keeping its state: as an app's root keeps its
/// features' states for the views.
enum Shell: EffectTransducer {
    typealias Proxy = SyncSuspendingProxy<Event>

    struct State: NonTerminal, Equatable, Sendable {
        var lamp: Child<Lamp>?
        var lampState = Lamp.State.off
    }

    enum Event: Sendable {
        case start
        case lampChanged(Lamp.State)
    }

    typealias Output = State

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, State) {
        switch event {
        case .start:
            guard state.lamp == nil else { return (nil, state) }
            let child = Child(Lamp.self, initialState: .off)
            state.lamp = child
            return (.run(child, env: { _ in () }, output: { .lampChanged($0) }), state)
        case .lampChanged(let lamp):
            state.lampState = lamp
            return (nil, state)
        }
    }
}

/// A storage behind a lock, for runs whose state a test reads from
/// anywhere.
final class LockedStorage<Value: Sendable>: Storage, Sendable {
    let locked: Locked<Value>

    init(_ locked: Locked<Value>) {
        self.locked = locked
    }

    var value: Value {
        get { locked.withLock { $0 } }
        set { locked.withLock { $0 = newValue } }
    }
}
