// A change shows at once and is durable a moment later: until then the
// page and the terminal say "Saving…" rather than pass it off as kept (a
// process killed in that moment loses it), and once the store has it the
// notice goes.

import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupDetail
import StandupsIntents
import StandupsMain
import StandupsProvider
import StandupsTerminal
import TerminalUI
import Testing
import WebUI

@testable import StandupsWebViews

@Suite("The saving notice", .timeLimit(.minutes(1)))
@MainActor
struct SavingNoticeTests {
    /// The app over a store whose writes wait for `release`.
    final class HeldStore: Sendable {
        let store = MockStandupsStore([.mock])
        let (releases, release) = AsyncStream<Void>.makeStream()

        var dependencies: StandupsProvider.Dependencies {
            let mock = StandupsProvider.Dependencies.mock(store)
            let releases = self.releases
            return StandupsProvider.Dependencies(
                load: mock.load,
                save: { (changes: [StandupChange]) throws(StoreFailure) -> [EditConflict] in
                    for await _ in releases { break }
                    return try await mock.save(changes)
                },
                startOver: mock.startOver, updates: mock.updates, clock: mock.clock)
        }
    }

    /// Whether the page and the terminal's screen of `host`'s state say
    /// that changes are being saved.
    static func saying(_ host: ObservableTransducer<Main>) -> (page: Bool, terminal: Bool) {
        let intents = StandupsIntents(for: host.state, proxy: host.proxy) { [host] in host.state }
        let page = MainWebView.content(
            host.state, intents: intents, context: WebContext(token: "t", keepsBindings: false)
        ).rendered
        let screen = MainTerminalView.screen(
            host.state, intents: intents, width: 80, height: 24, newID: { UUID() }, speechUnavailable: nil)
        return (page.contains("id=\"saving-changes\""), screen.canvas.plainText.contains("Saving…"))
    }

    @Test func aChangeIsSavingUntilTheStoreHasIt() async throws {
        let held = HeldStore()
        let speech = SpeechClient.unavailable(.restricted)
        let env = Main.Env(
            standups: held.dependencies, detail: StandupDetail.Env(speech: speech),
            meeting: RecordMeeting.Env(
                clock: ContinuousClock(), speech: speech, sound: .silent, now: { Date(timeIntervalSince1970: 0) },
                uuid: { UUID() }))
        let host = ObservableTransducer<Main>(initialState: Main.State(), env: env)
        await host.proxy.send(.start)
        await host.wait { $0.data.phase == .loaded }
        #expect(Self.saying(host) == (false, false), "Nothing to save yet.")

        var renamed = Standup.mock
        renamed.title = "Renamed"
        // Another session's change, handed to the process's provider: every
        // session's page says it is being saved.
        try await #require(host.state.provider).proxy.send(.apply(.edit(renamed, from: .mock)))
        await host.wait { $0.data.standups.first?.title == "Renamed" }
        #expect(Self.saying(host) == (true, true), "Shown, not yet durable.")

        held.release.yield()
        await host.wait { $0.isSaved }
        #expect(held.store.standups.first?.title == "Renamed")
        #expect(Self.saying(host) == (false, false), "Durable: the notice goes.")
    }
}
