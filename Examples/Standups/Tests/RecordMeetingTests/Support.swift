import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupsTestSupport

/// A tester of a transducer whose output is its state, checking every
/// output: the helpers follow the expected state themselves (the tester's
/// may already be ahead when effects answered without waiting).
final class Steps<T: BaseTransducer> where T.State: Equatable, T.Output == T.State, T.Event: Equatable & Sendable {
    let tester: TransducerTester<T>
    private(set) var expected: T.State

    init(_ tester: TransducerTester<T>, initialState: T.State) {
        self.tester = tester
        expected = initialState
    }

    /// Sends `event`; `change` makes the expected state (none: unchanged).
    func send(
        _ event: T.Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column, _ change: ((inout T.State) -> Void)? = nil
    ) async {
        change?(&expected)
        await tester.send(
            event, output: expected, assert: change, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Receives `event`; `change` makes the expected state.
    func receive(
        _ event: T.Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column, _ change: ((inout T.State) -> Void)? = nil
    ) async {
        change?(&expected)
        await tester.receive(
            event, output: expected, assert: change, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    func finish(fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line) async {
        await tester.finish(fileID: fileID, filePath: filePath, line: line)
    }
}

/// Three attendees, six seconds: two seconds each.
let threeInSix = Standup(
    id: UUID(number: 0x100), title: "Morning", durationSeconds: 6, theme: .teal,
    attendees: [
        Attendee(id: UUID(number: 0x101), name: "Ada"), Attendee(id: UUID(number: 0x102), name: "Grace"),
        Attendee(id: UUID(number: 0x103), name: "Linus"),
    ])

let meetingDate = Date(timeIntervalSince1970: 1_234_567_890)

/// The meeting's port with a test clock, a counting sound player and a
/// fixed date and id.
func meetingEnv(clock: some Clock<Duration>, speech: SpeechClient, sounds: SoundLog = SoundLog()) -> RecordMeeting.Env {
    RecordMeeting.Env(
        clock: clock, speech: speech, sound: .mock(sounds), now: { meetingDate }, uuid: { UUID(number: 0) })
}

/// A meeting's steps, from a state not started.
func meetingSteps(
    _ standup: Standup = threeInSix, recording: Bool, env: RecordMeeting.Env
) -> Steps<RecordMeeting> {
    let initial = RecordMeeting.State(standup: standup, isRecording: recording)
    return Steps(TransducerTester(RecordMeeting.self, initialState: initial, env: env), initialState: initial)
}
