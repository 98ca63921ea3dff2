import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupsTestSupport

/// Three attendees, six seconds: two seconds each.
let threeInSix = Standup(
    id: UUID(number: 0x100), title: "Morning", durationSeconds: 6, theme: .teal,
    attendees: [
        Attendee(id: UUID(number: 0x101), name: "Ada"), Attendee(id: UUID(number: 0x102), name: "Grace"),
        Attendee(id: UUID(number: 0x103), name: "Linus"),
    ])

let meetingDate = Date(timeIntervalSince1970: 1_234_567_890)

extension Steps<RecordMeeting> {
    /// The end of a meeting that is saving: the port makes the meeting (id
    /// 0, ``meetingDate``) with `transcript`, the run ends with it saved.
    func receiveSavedMeeting(
        transcript: String = "", fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line
    ) async {
        let meeting = Meeting(id: UUID(number: 0), date: meetingDate, transcript: transcript)
        await receive(.made(meeting), fileID: fileID, filePath: filePath, line: line) { $0.ending = .saved(meeting) }
        await finish(fileID: fileID, filePath: filePath, line: line)
    }
}

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
