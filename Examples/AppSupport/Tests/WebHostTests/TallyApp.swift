// The app the web host's tests serve: a tally that loads its first count
// through its port (so that a session starts in a loading state), counts up
// by intent, keeps a note typed by the user (hostile on purpose in the
// tests), and shows a picture once it has counted.

import Foundation
import Oak
import WebHost
import WebUI

enum Tally: EffectTransducer {
    typealias Proxy = SyncSuspendingProxy<Event>

    struct State: NonTerminal, Equatable, Sendable {
        var count = 0
        var isLoading = true
        var note = ""
    }

    enum Event: Sendable {
        case start
        case loaded(Int)
        case increment
        case note(String)
    }

    struct Env: Sendable {
        /// The first count; may take as long as a test wants.
        var load: @Sendable () async -> Int
    }

    typealias Output = State

    static func update(_ state: inout State, event: Event) -> (Self.Effect?, State) {
        switch event {
        case .start:
            return (Effect { env, input in await input.send(.loaded(await env.load())) }, state)
        case .loaded(let count):
            state.count = count
            state.isLoading = false
        case .increment:
            state.count += 1
        case .note(let note):
            state.note = note
        }
        return (nil, state)
    }
}

/// A PNG signature and nothing more: enough for the media type.
let tallyPicture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

struct TallyWeb: WebApplication {
    var environment: Tally.Env

    var name: String { "Tally" }

    func initialState() -> Tally.State { Tally.State() }

    func start(_ proxy: Tally.Proxy) async {
        await proxy.send(.start)
    }

    func isSettled(_ state: Tally.State) -> Bool { !state.isLoading }

    func title(of state: Tally.State) -> String { "Tally · \(state.count)" }

    func content(of state: Tally.State, session: WebSessionContext<Tally>) -> HTML {
        let count: HTML =
            state.isLoading
            ? "<p id=\"loading\">Loading…</p>" : "<p id=\"count\" data-count=\"\(state.count)\">\(state.count)</p>"
        let picture: HTML? = state.count > 0 ? "<img id=\"picture\" src=\"/picture.png\" alt=\"\">" : nil
        return """
            \(count)<p id="note">\(state.note)</p>\(picture)\
            \(session.forms.button("+1", intent: "increment"))
            """
    }

    func perform(_ form: WebForm, in state: Tally.State, session: WebSessionContext<Tally>) -> IntentResult? {
        let intents = session.intents(scope: \.isLoading)
        switch form.intent {
        case "increment" where !state.isLoading: return intents(.increment)()
        case "note": return intents(.note(form.fields["note"] ?? ""))()
        default: return nil
        }
    }

    func resource(at path: String, in state: Tally.State) -> WebResource? {
        path == "/picture.png" && state.count > 0 ? WebResource(data: tallyPicture) : nil
    }

    var style: String { "#count { font-size: 2rem; }" }
}
