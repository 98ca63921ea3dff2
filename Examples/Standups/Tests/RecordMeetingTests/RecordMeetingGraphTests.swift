// A meeting explored by OakTesting's StateGraph: every transition found
// from a new recorded meeting of two speakers with sample events — the
// timer's ticks sent as events (its clock is never run, so the timer waits
// and the explorer decides when a second passes), the recogniser's
// results, end and failure too — replayed as a test against the real
// runtime; the coverage is printed (CI's output shows it) and must be
// complete.

import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import Testing

@Suite("A meeting, every transition")
struct RecordMeetingGraphTests {
    static let standup = Standup(
        id: UUID(number: 0x6A), title: "Two", durationSeconds: 4,
        attendees: [Attendee(id: UUID(number: 0x6B), name: "Ann"), Attendee(id: UUID(number: 0x6C), name: "Bo")])

    static let events: [RecordMeeting.Event] = [
        .start, .tick, .next, .endMeeting, .confirmSave, .confirmDiscard, .resume, .speechResult("we met"),
        .speechEnded, .speechFailed(SpeechFailure("the microphone went away")), .restored(secondsAway: 1),
    ]

    /// Where the meeting is, by kind.
    static func node(_ state: RecordMeeting.State) -> String {
        var parts = [state.isStarted ? "speaker \(state.speakerIndex + 1)" : "not started"]
        switch state.question {
        case .endMeeting(let isDiscardable)?: parts.append(isDiscardable ? "asks: end or discard?" : "asks: end?")
        case .speechFailed?: parts.append("asks: go on without recognition?")
        case nil: break
        }
        switch state.ending {
        case .saving?: parts.append("saving")
        case .saved?: parts.append("saved")
        case .discarded?: parts.append("discarded")
        case nil: break
        }
        switch state.recognition {
        case .off: parts.append("not recording")
        case .listening: parts.append("listening")
        case .ended: parts.append("audio ended")
        case .failed: parts.append("recognition failed")
        }
        if !state.transcript.isEmpty { parts.append("heard") }
        return parts.joined(separator: " · ")
    }

    @Test(arguments: [true, false])
    func everyTransitionIsTaken(recording: Bool) async {
        let graph = await StateGraph.explore(
            RecordMeeting.self, from: RecordMeeting.State(standup: Self.standup, isRecording: recording),
            events: Self.events,
            env: {
                RecordMeeting.Env(
                    clock: TestClock(), speech: .mock(staysOpen: true), sound: .silent,
                    now: { Date(timeIntervalSince1970: 0) }, uuid: { UUID(number: 0x6D) })
            },
            node: Self.node, maxStates: 300, maxDepth: 12)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage (\(recording ? "recorded" : "not recorded")): \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 10)
    }
}
