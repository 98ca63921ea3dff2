import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupDetail
import StandupsMain
import StandupsProvider
import StandupsTestSupport
import Testing

/// The app under test: the root, run by OakTesting's tester on the main
/// actor, checked non-exhaustively (the tests wait for conditions of the
/// state and of its children's states).
typealias App = TransducerTester<Main>

extension TransducerTester where T == Main {
    /// Sends `event` to the stand-up's screen on top and waits until
    /// `condition` holds.
    func detail(
        _ event: StandupDetail.Event, isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, until condition: @escaping (Main.State) -> Bool
    ) async throws {
        guard case .detail(let child) = state.top else {
            Issue.record("No stand-up's screen on top: \(String(describing: state.top))")
            return
        }
        try child.send(event)
        await wait(
            until: condition, isolation: isolation, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Sends `event` to the meeting on top and waits until `condition`
    /// holds.
    func meeting(
        _ event: RecordMeeting.Event, isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, until condition: @escaping (Main.State) -> Bool
    ) async throws {
        guard case .meeting(let child) = state.top else {
            Issue.record("No meeting on top: \(String(describing: state.top))")
            return
        }
        try await child.proxy.checkedSend(event)
        await wait(
            until: condition, isolation: isolation, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Main.State {
    /// The meeting on top, if any.
    var meeting: RecordMeeting.State? {
        if case .meeting(let room) = top { room.state } else { nil }
    }
}

/// The app's ports over `store` (or `standups`), with `speech` and a test
/// clock.
func appEnv(
    _ store: MockStandupsStore, speech: SpeechClient = .unavailable(.denied), clock: WatchedClock = WatchedClock(),
    sounds: SoundLog = SoundLog(), standups: StandupsProvider.Dependencies? = nil
) -> Main.Env {
    Main.Env(
        standups: standups ?? .mock(store), detail: StandupDetail.Env(speech: speech),
        meeting: RecordMeeting.Env(
            clock: clock, speech: speech, sound: .mock(sounds), now: { Date(timeIntervalSince1970: 1_234_567_890) },
            uuid: { UUID(number: 0) }))
}

/// Three attendees, six seconds: two seconds each.
let threeInSix = Standup(
    id: UUID(number: 0x100), title: "Morning", durationSeconds: 6, theme: .teal,
    attendees: [
        Attendee(id: UUID(number: 0x101), name: "Ada"), Attendee(id: UUID(number: 0x102), name: "Grace"),
        Attendee(id: UUID(number: 0x103), name: "Linus"),
    ])
