// The app the web host's tests serve: a tally that loads its first count
// through its port (so that a session starts in a loading state), counts up
// by intent, keeps a note typed by the user (hostile on purpose in the
// tests), shows a picture once it has counted, and takes a stream of taps
// (one sender at a time) once loaded.

import Foundation
import Oak
import Synchronization
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

/// What the Tally's stream received: its frames, and how many streams
/// ended; one sender at a time.
final class TapLog: Sendable {
    private let state = Mutex<(frames: [[UInt8]], ends: Int, isOpen: Bool)>(([], 0, false))
    private let changes = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    var frames: [[UInt8]] { state.withLock { $0.frames } }
    var ends: Int { state.withLock { $0.ends } }

    func open() -> Bool {
        state.withLock { state in
            defer { state.isOpen = true }
            return !state.isOpen
        }
    }

    func receive(_ frame: [UInt8]) {
        state.withLock { $0.frames.append(frame) }
        changes.continuation.yield()
    }

    func end() {
        state.withLock { state in
            state.ends += 1
            state.isOpen = false
        }
        changes.continuation.yield()
    }

    /// Waits until `condition` holds of the log (checked at each change).
    func wait(until condition: (TapLog) -> Bool) async {
        if condition(self) { return }
        for await _ in changes.stream where condition(self) { return }
    }
}

struct TallyWeb: WebApplication {
    var environment: Tally.Env
    var taps = TapLog()

    /// Taps: frames of whole pairs of bytes, at most 100, 1,000 bytes a
    /// second with 400 ahead; refused while loading, and while another
    /// stream is open.
    func openStream(
        _ name: String, in state: Tally.State, session: WebSessionContext<Tally>
    ) -> WebStreamOpening {
        guard name == "taps", !state.isLoading else { return .failure(.unavailable("No taps while loading.")) }
        guard taps.open() else { return .failure(.busy("Someone else is tapping.")) }
        let taps = self.taps
        return .success(
            WebStream(
                limits: WebStreamLimits(
                    maxFrameBytes: 100, unitBytes: 2, bytesPerSecond: 1_000, burstBytes: 400,
                    silenceTimeout: .seconds(5)),
                receive: { taps.receive($0) }, end: { taps.end() }))
    }

    var name: String { "Tally" }

    func initialState() -> Tally.State { Tally.State() }

    func start(_ proxy: Tally.Proxy) async {
        await proxy.send(.start)
    }

    /// A page opened at `/at/N` notes where it was opened.
    func start(_ proxy: Tally.Proxy, at path: String) async {
        await proxy.send(.start)
        if path != "/" { await proxy.send(.note("opened at \(path)")) }
    }

    /// `/` and `/at/N`.
    func opens(_ path: String) -> Bool {
        path == "/" || (path.hasPrefix("/at/") && Int(path.dropFirst(4)) != nil)
    }

    /// `/at/N` once it has counted past its first count.
    func path(of state: Tally.State) -> String {
        state.count > 41 ? "/at/\(state.count)" : "/"
    }

    func isSettled(_ state: Tally.State) -> Bool { !state.isLoading }

    func title(of state: Tally.State) -> String { "Tally · \(state.count)" }

    func content(of state: Tally.State, session: WebSessionContext<Tally>) -> HTML {
        let intents = session.intents(scope: \.isLoading)
        let count: HTML =
            state.isLoading
            ? "<p id=\"loading\">Loading…</p>" : "<p id=\"count\" data-count=\"\(state.count)\">\(state.count)</p>"
        let picture: HTML? = state.count > 0 ? "<img id=\"picture\" src=\"/picture.png\" alt=\"\">" : nil
        // A note is posted by the tests (a form of fields, no button).
        session.forms.bind("note") { form in intents(.note(form.fields["note"] ?? ""))() }
        // Shown while loading too, but bound to nothing then; rendered once
        // for every session (each page gets its own token as it is sent).
        let increment = session.forms.shared(IncrementButton()) {
            session.forms.button("+1", key: "increment", intent: state.isLoading ? nil : intents(.increment))
        }
        return """
            \(count)<p id="note">\(HTML.part("note", "\(state.note)"))</p>\(picture)\(increment)
            """
    }

    /// "elsewhere" is performed by another server; "nowhere" names an
    /// address that is not one.
    func redirect(for form: WebForm, in state: Tally.State) async -> String? {
        switch form.intent {
        case "elsewhere": "http://127.0.0.1:1/tally"
        case "nowhere": "javascript:alert(1)"
        default: nil
        }
    }

    func resource(at path: String, in state: Tally.State) -> WebResource? {
        path == "/picture.png" && state.count > 0 ? WebResource(data: tallyPicture) : nil
    }

    var style: String { "#count { font-size: 2rem; }" }
}

/// The key of Tally's "+1" button, the same on every page.
struct IncrementButton: Hashable, Sendable {}
