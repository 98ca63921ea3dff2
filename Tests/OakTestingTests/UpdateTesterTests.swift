// UpdateTester: update alone, effects as data, nothing run.

import Clocks
import Oak
import OakTesting
import Testing

/// A search box: typing starts a debounced search (replacing the previous
/// one), clearing cancels it.
enum Search: EffectTransducer {
    struct State: NonTerminal, Equatable {
        var query = ""
        var results: [String] = []
    }

    enum Event: Equatable, Sendable {
        case queryChanged(String)
        case clear
        case didSearch([String])
    }

    struct Env: Sendable {
        var search: @Sendable (String) async throws -> [String]
        var clock: any Clock<Duration>
    }

    static func update(_ state: inout State, event: Event) -> Self.Effect? {
        switch event {
        case .queryChanged(let query):
            state.query = query
            return Effect(id: "search") { env, input in
                try await env.clock.sleep(for: .milliseconds(300))
                try input.send(.didSearch(try await env.search(query)))
            }
        case .clear:
            state = State()
            return .combine(.cancelTask("search"), .event(.didSearch([])))
        case .didSearch(let results):
            state.results = results
            return nil
        }
    }
}

@Suite("UpdateTester")
struct UpdateTesterTests {
    @Test func effectsAreCheckedAsData() {
        var search = UpdateTester(Search.self, state: Search.State())
        search.send(.queryChanged("oak")) { $0.query = "oak" }
            .expectEffects([.operation(id: "search")])
        search.send(.clear) { $0.query = "" }
            .expectEffects([.cancelTask("search"), .event(.didSearch([]))])
            .expectEffects(including: [.event(.didSearch([]))])
        search.send(.didSearch(["Oak"])) { $0.results = ["Oak"] }
            .expectNoEffect()
        #expect(search.state.results == ["Oak"])
    }

    @Test func aPureTransducersOutputIsChecked() {
        var counter = UpdateTester(SimpleCounter.self, state: SimpleCounter.State())
        let result = counter.send(.increment) { $0.count = 1 }
        if case .value(let value) = result.output {
            #expect(value == 1)
        } else {
            Issue.record("expected a value output")
        }
    }

    @Test func wrongEffectsFailWithADiff() {
        var search = UpdateTester(Search.self, state: Search.State())
        let line = #line + 3
        withKnownIssue {
            search.send(.queryChanged("oak")) { $0.query = "oak" }
                .expectEffects([.operation(id: "find")])
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "The effects do not match", "find", "search")
        }
    }

    @Test func aMissingEffectFails() {
        var search = UpdateTester(Search.self, state: Search.State())
        let line = #line + 3
        withKnownIssue {
            search.send(.clear)
                .expectEffects(including: [.cancelTask("load")])
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "Expected effects are missing: cancelTask(load)")
        }
    }

    @Test func aWrongStateFailsAtTheSend() {
        var search = UpdateTester(Search.self, state: Search.State())
        let line = #line + 2
        withKnownIssue {
            search.send(.queryChanged("oak")) { $0.query = "elm" }
        } matching: { issue in
            OakTestingTests.issue(issue, at: line, says: "The state does not match the expectation", "elm", "oak")
        }
    }
}
