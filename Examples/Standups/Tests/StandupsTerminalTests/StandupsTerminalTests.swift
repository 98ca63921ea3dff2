// The terminal front end without a terminal: the app hosted as the program
// hosts it, each key handed to the screen drawn for the state the previous
// key led to, the screens read as plain text.

import Devices
import Foundation
import Models
import Oak
import OakTesting
import Observation
import RecordMeeting
import StandupDetail
import StandupsIntents
import StandupsMain
import StandupsProvider
import StandupsTerminal
import TerminalUI
import Testing

@Suite("The terminal front end", .timeLimit(.minutes(1)))
@MainActor
struct StandupsTerminalTests {
    /// The app, hosted on the main actor with mock ports.
    @MainActor
    final class App {
        let host: ObservableTransducer<Main>
        let store: MockStandupsStore
        let speech: SpeechClient
        private var ids = 0

        init(_ standups: [Standup] = [], speech: SpeechClient = .unavailable(.restricted)) async {
            store = MockStandupsStore(standups)
            self.speech = speech
            let env = Main.Env(
                standups: .mock(store), detail: StandupDetail.Env(speech: speech),
                meeting: RecordMeeting.Env(
                    clock: ContinuousClock(), speech: speech, sound: .silent, now: { Date(timeIntervalSince1970: 0) },
                    uuid: { UUID() }))
            host = ObservableTransducer(initialState: Main.State(), env: env)
            await host.proxy.send(.start)
            await host.wait { $0.data.phase == .loaded }
        }

        /// The screen drawn now, 80 × 24.
        var screen: Screen {
            ids += 1
            let base = ids * 100
            var next = 0
            return MainTerminalView.screen(
                host.state, intents: StandupsIntents(for: host.state, proxy: host.proxy) { [host] in host.state },
                width: 80, height: 24,
                newID: {
                    next += 1
                    return UUID(number: base + next)
                }, speechUnavailable: speech.unavailableReason)
        }

        /// What the screen shows.
        var text: String { screen.canvas.plainText }

        /// Presses `keys`, each on the screen drawn after the previous one.
        func press(_ keys: Key...) async {
            for key in keys { await screen.handle(key) }
        }

        /// Types `text`, a key per character.
        func type(_ text: String) async {
            for character in text { await screen.handle(.character(character)) }
        }
    }

    @Test("a stand-up added with the keyboard: typed text, Tab between fields, ← → for length and theme")
    func addingAStandupWithTheKeyboard() async {
        let app = await App()
        #expect(app.text.contains("No stand-ups yet."))
        await app.press(.character("a"))
        // "q" is typed into the title, not taken as quit.
        await app.type("Retro quick")
        await app.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .tab, .right, .tab)
        await app.press(.right, .tab)
        await app.type("Ann")
        await app.press(.control("n"))
        await app.type("Bo")
        #expect(app.text.contains("[Retro"))
        #expect(app.text.contains("6 min"))
        #expect(app.text.contains("Buttercup"))
        await app.press(.enter)
        await app.host.wait { $0.data.standups.count == 1 && $0.data.isSaved }

        let added = app.store.standups.first
        #expect(added?.title == "Retro")
        #expect(added?.durationSeconds == 6 * 60)
        #expect(added?.theme == .buttercup)
        #expect(added?.attendees.map(\.name) == ["Ann", "Bo"])
        #expect(app.text.contains("▶  Retro"))
        #expect(app.text.contains("6 min · 2 attendees"))
    }

    @Test("a stand-up's screen, the question before a meeting that cannot be recorded, and the meeting")
    func fromTheListToAMeeting() async {
        let app = await App([.mock], speech: .unavailable(.restricted, reason: "no microphone was found"))
        await app.press(.enter)
        #expect(app.text.contains("Start meeting"))
        #expect(app.text.contains("Blob, Blob Jr, Blob Sr"))
        await app.press(.character("s"))
        await app.host.wait {
            if case .detail(let detail) = $0.top {
                detail.state.destination == .question(.speechRestricted)
            } else {
                false
            }
        }
        #expect(app.text.contains("Speech recognition is unavailable"))
        // What is missing, and what to do instead.
        #expect(app.text.contains("no microphone was"), "\(app.text)")
        #expect(app.text.contains("--audio"), "\(app.text)")
        // Keys other than the answers do nothing while a question is open.
        await app.press(.character("e"), .character("q"))
        #expect(app.text.contains("Speech recognition is unavailable"))
        await app.press(.character("c"))
        await app.host.wait { if case .meeting = $0.top { true } else { false } }
        #expect(app.text.contains("Speaker 1 of 6: Blob"))
        #expect(app.text.contains("Not recording"))
        await app.press(.character("e"))
        await app.host.wait { if case .meeting(let room) = $0.top { room.state.question != nil } else { false } }
        #expect(app.text.contains("End meeting?"))
        await app.press(.character("d"))
        await app.host.wait { if case .detail = $0.top { true } else { false } }
        #expect(app.store.standups.first?.meetings == Standup.mock.meetings, "a discarded meeting is not saved")
    }

    @Test("an edit that met another one says so on the stand-up's screen; t puts theirs back")
    func anEditThatMetAnotherSaysSo() async {
        let app = await App([.mock])
        await app.press(.enter, .character("e"))
        await app.host.wait { if case .detail(let child) = $0.top { child.state.destination != nil } else { false } }
        // Another process renames it while the form is open here.
        var theirs = Standup.mock
        theirs.title = "Theirs"
        app.store.changeElsewhere(.update(theirs))
        await app.host.wait { $0.data.standups.first?.title == "Theirs" }
        await app.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        await app.type("Mine")
        await app.press(.enter)
        await app.host.wait { $0.data.isSaved && !$0.data.conflicts.isEmpty }
        #expect(app.text.contains("Edited in two places at once:"))
        #expect(app.text.contains("Its title was also changed elsewhere, to “Theirs”; yours is kept."))
        #expect(app.text.contains("t  use theirs   k  ok"))
        await app.press(.character("t"))
        await app.host.wait {
            $0.data.isSaved && $0.data.conflicts.isEmpty && $0.data.standups.first?.title == "Theirs"
        }
        #expect(!app.text.contains("Edited in two places"))
        #expect(app.store.standups.first?.title == "Theirs")
    }

    @Test("text from the user never reaches the terminal with its control characters")
    func hostileTitlesAreDrawnPlain() async {
        var standup = Standup.mock
        standup.title = "\u{1B}]0;pwned\u{07}Daily\u{1B}[2J"
        let app = await App([standup])
        #expect(app.text.contains("Daily"))
        #expect(!app.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
