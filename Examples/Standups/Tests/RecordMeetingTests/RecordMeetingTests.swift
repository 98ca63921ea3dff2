// The meeting, exhaustively, with a test clock and mock devices: every
// scenario of SyncUps' RecordMeetingTests (their names in the comments),
// the sounds played, the recogniser started once and never left running,
// and lengths that do not divide by the number of speakers.

import Clocks
import Devices
import Foundation
import Models
import Oak
import OakTesting
import RecordMeeting
import StandupsTestSupport
import Testing

@Suite("The meeting")
struct RecordMeetingTests {
    @Test(arguments: [
        (true, true, "Save it with its transcript, discard it, or resume."),
        (true, false, "Save it with its transcript, or resume."),
        (false, true, "Save it (it was not recorded), discard it, or resume."),
        (false, false, "Save it (it was not recorded), or resume."),
    ])
    func theEndQuestionSaysWhatSavingKeepsAndWhatItOffers(isRecording: Bool, isDiscardable: Bool, message: String) {
        let meeting = RecordMeeting.State(
            standup: Standup(id: UUID(number: 1), title: "Retro"), isRecording: isRecording)
        #expect(meeting.endQuestionMessage(isDiscardable: isDiscardable) == message)
    }

    // SyncUps: testTimer (and the plain-SwiftUI version's sound count).
    @Test func theTimerAdvancesSpeakersAndSavesWhenTimeIsUp() async {
        let clock = WatchedClock()
        let sounds = SoundLog()
        let steps = meetingSteps(
            recording: false, env: meetingEnv(clock: clock, speech: .unavailable(.denied), sounds: sounds))
        await steps.send(.start) { $0.isStarted = true }
        await clock.waitForSleeps()
        let expected: [(speaker: Int, remaining: Int)] = [(0, 5), (1, 4), (1, 3), (2, 2), (2, 1)]
        for (second, step) in expected.enumerated() {
            await clock.advance(by: .seconds(1))
            await steps.receive(.tick) {
                $0.secondsElapsed = second + 1
                $0.speakerIndex = step.speaker
            }
            #expect(steps.expected.secondsRemaining == step.remaining)
        }
        #expect(sounds.plays == 2)
        await clock.advance(by: .seconds(1))
        await steps.receive(.tick) {
            $0.secondsElapsed = 6
            $0.ending = .saving
        }
        await steps.receiveSavedMeeting()
        // No sound when the meeting ends.
        #expect(sounds.plays == 2)
    }

    // SyncUps: testRecordTranscript.
    @Test func theTranscriptComesFromTheRecogniser() async {
        let clock = WatchedClock()
        let log = SpeechLog()
        let speech = SpeechClient.mock(results: ["I completed", "I completed the project"], log: log)
        let steps = meetingSteps(recording: true, env: meetingEnv(clock: clock, speech: speech))
        await steps.send(.start) {
            $0.isStarted = true
            $0.recognition = .listening
        }
        await clock.waitForSleeps()
        await steps.receive(.speechResult("I completed")) { $0.transcript = "I completed" }
        await steps.receive(.speechResult("I completed the project")) { $0.transcript = "I completed the project" }
        await steps.receive(.speechEnded) { $0.recognition = .ended }
        await runToTheEnd(steps, clock: clock, from: 0)
        await steps.receiveSavedMeeting(transcript: "I completed the project")
        #expect(log.starts == 1)
        #expect(log.stops == 1)
    }

    // SyncUps: testEndMeetingSave.
    @Test func endingEarlyAndSavingIgnoresTicksWhileAsking() async {
        let clock = WatchedClock()
        let steps = meetingSteps(.mock, recording: false, env: meetingEnv(clock: clock, speech: .unavailable(.denied)))
        await steps.send(.start) { $0.isStarted = true }
        await clock.waitForSleeps()
        await steps.send(.endMeeting) { $0.question = .endMeeting(isDiscardable: true) }
        for _ in 1...3 {
            await clock.advance(by: .seconds(1))
            await steps.receive(.tick)
        }
        #expect(steps.expected.secondsElapsed == 0)
        await steps.send(.confirmSave) {
            $0.question = nil
            $0.ending = .saving
        }
        await steps.receiveSavedMeeting()
    }

    // SyncUps: testEndMeetingDiscard.
    @Test func endingEarlyAndDiscardingSavesNothing() async {
        let clock = WatchedClock()
        let steps = meetingSteps(.mock, recording: false, env: meetingEnv(clock: clock, speech: .unavailable(.denied)))
        await steps.send(.start) { $0.isStarted = true }
        await steps.send(.endMeeting) { $0.question = .endMeeting(isDiscardable: true) }
        await steps.send(.confirmDiscard) {
            $0.question = nil
            $0.ending = .discarded
        }
        await steps.finish()
    }

    @Test func resumingAfterEndingEarlyGoesOn() async {
        let clock = WatchedClock()
        let steps = meetingSteps(recording: false, env: meetingEnv(clock: clock, speech: .unavailable(.denied)))
        await steps.send(.start) { $0.isStarted = true }
        await clock.waitForSleeps()
        await steps.send(.endMeeting) { $0.question = .endMeeting(isDiscardable: true) }
        await steps.send(.resume) { $0.question = nil }
        await runToTheEnd(steps, clock: clock, from: 0)
        await steps.receiveSavedMeeting()
    }

    // SyncUps: testNextSpeaker (and the plain-SwiftUI version's sounds).
    @Test func nextJumpsToTheNextSpeakerAndAsksOnTheLast() async {
        let clock = WatchedClock()
        let sounds = SoundLog()
        let steps = meetingSteps(
            recording: false, env: meetingEnv(clock: clock, speech: .unavailable(.denied), sounds: sounds))
        await steps.send(.start) { $0.isStarted = true }
        await clock.waitForSleeps()
        await steps.send(.next) {
            $0.speakerIndex = 1
            $0.secondsElapsed = 2
        }
        await steps.send(.next) {
            $0.speakerIndex = 2
            $0.secondsElapsed = 4
        }
        await steps.send(.next) { $0.question = .endMeeting(isDiscardable: false) }
        // Not discardable: Discard does nothing, ticks change nothing.
        await steps.send(.confirmDiscard)
        await clock.advance(by: .seconds(1))
        await steps.receive(.tick)
        await steps.send(.confirmSave) {
            $0.question = nil
            $0.ending = .saving
        }
        await steps.receiveSavedMeeting()
        #expect(sounds.plays == 2)
    }

    // SyncUps: testSpeechRecognitionFailure_Continue.
    @Test func aRecogniserFailingAfterAResultMarksTheTranscriptAndTheMeetingGoesOn() async {
        let clock = WatchedClock()
        let log = SpeechLog()
        let speech = SpeechClient.mock(
            results: ["I completed the project"], failure: SpeechFailure("The microphone went away."), log: log)
        let steps = meetingSteps(recording: true, env: meetingEnv(clock: clock, speech: speech))
        await steps.send(.start) {
            $0.isStarted = true
            $0.recognition = .listening
        }
        await clock.waitForSleeps()
        await steps.receive(.speechResult("I completed the project")) { $0.transcript = "I completed the project" }
        await steps.receive(.speechFailed(SpeechFailure("The microphone went away."))) {
            $0.recognition = .failed(SpeechFailure("The microphone went away."))
            $0.transcript = "I completed the project ❌"
            $0.question = .speechFailed
        }
        await steps.send(.resume) { $0.question = nil }
        await runToTheEnd(steps, clock: clock, from: 0)
        await steps.receiveSavedMeeting(transcript: "I completed the project ❌")
        #expect(log.starts == 1)
        #expect(!log.isRunning)
    }

    // SyncUps: testSpeechRecognitionFailure_Discard.
    @Test func aRecogniserFailingAtOnceAsksAndDiscardingSavesNothing() async {
        let clock = WatchedClock()
        let speech = SpeechClient.mock(failure: SpeechFailure("No audio."))
        let steps = meetingSteps(.mock, recording: true, env: meetingEnv(clock: clock, speech: speech))
        await steps.send(.start) {
            $0.isStarted = true
            $0.recognition = .listening
        }
        await steps.receive(.speechFailed(SpeechFailure("No audio."))) {
            $0.recognition = .failed(SpeechFailure("No audio."))
            $0.question = .speechFailed
        }
        await steps.send(.confirmDiscard) {
            $0.question = nil
            $0.ending = .discarded
        }
        await steps.finish()
    }

    @Test func theRecogniserStopsWhenTheMeetingEndsEarly() async {
        let clock = WatchedClock()
        let log = SpeechLog()
        let speech = SpeechClient.mock(results: ["hello"], staysOpen: true, log: log)
        let steps = meetingSteps(recording: true, env: meetingEnv(clock: clock, speech: speech))
        await steps.send(.start) {
            $0.isStarted = true
            $0.recognition = .listening
        }
        await steps.receive(.speechResult("hello")) { $0.transcript = "hello" }
        #expect(log.isRunning)
        await steps.send(.endMeeting) { $0.question = .endMeeting(isDiscardable: true) }
        await steps.send(.confirmDiscard) {
            $0.question = nil
            $0.ending = .discarded
        }
        await steps.finish()
        #expect(log.starts == 1)
        #expect(!log.isRunning)
    }

    @Test func theRecogniserStopsWhenTheMeetingIsDismissed() async {
        let log = SpeechLog()
        let speech = SpeechClient.mock(staysOpen: true, log: log)
        let proxy = RecordMeeting.Proxy()
        let env = meetingEnv(clock: WatchedClock(), speech: speech)
        let run = Task {
            try await RecordMeeting.run(
                initialState: RecordMeeting.State(standup: threeInSix, isRecording: true), proxy: proxy, env: env)
        }
        await proxy.send(.start)
        // Sent twice: started once.
        await proxy.send(.start)
        run.cancel()
        _ = await run.result
        #expect(log.starts == 1)
        #expect(!log.isRunning)
    }

    @Test func everySpeakerHasATurnWhenTheLengthDoesNotDivide() async {
        // Five minutes, seven speakers: turns of 42 or 43 seconds, the last
        // one ends at 300 (SyncUps' 42-second turns would end at 294 and
        // never finish).
        var standup = Standup.mock
        standup.durationSeconds = 300
        standup.attendees.append(Attendee(id: UUID(number: 0x999), name: "Blob II"))
        let schedule = standup.schedule
        #expect((0...7).map(schedule.start(of:)) == [0, 42, 85, 128, 171, 214, 257, 300])
        var state = RecordMeeting.State(standup: standup, isRecording: false)
        state.isStarted = true
        var speakers: [Int] = []
        for _ in 1..<300 {
            _ = RecordMeeting.update(&state, event: .tick)
            speakers.append(state.speakerIndex)
        }
        #expect(Set(speakers) == Set(0...6))
        #expect(state.ending == nil)
        _ = RecordMeeting.update(&state, event: .tick)
        #expect(state.ending == .saving)
    }

    /// Advances the clock second by second to the meeting's end, receiving
    /// each tick; the last one ends the meeting.
    func runToTheEnd(_ steps: Steps<RecordMeeting>, clock: WatchedClock, from elapsed: Int) async {
        let schedule = steps.expected.schedule
        for second in (elapsed + 1)...schedule.durationSeconds {
            await clock.advance(by: .seconds(1))
            await steps.receive(.tick) {
                $0.secondsElapsed = second
                if second == schedule.durationSeconds {
                    $0.ending = .saving
                    if $0.recognition == .listening { $0.recognition = .ended }
                } else {
                    $0.speakerIndex = schedule.speaker(at: second)
                }
            }
        }
    }
}

@Suite("A meeting restored from a checkpoint")
struct RestoredMeetingTests {
    /// Three attendees, six seconds, two each.
    static let standup = Standup(
        id: UUID(number: 0x100), title: "Morning", durationSeconds: 6, theme: .teal,
        attendees: [
            Attendee(id: UUID(number: 0x101), name: "Ada"), Attendee(id: UUID(number: 0x102), name: "Grace"),
            Attendee(id: UUID(number: 0x103), name: "Linus"),
        ])

    func checkpointed(elapsed: Int, speaker: Int, transcript: String, recording: Bool) -> RecordMeeting.State {
        var state = RecordMeeting.State(standup: Self.standup, isRecording: recording)
        state.secondsElapsed = elapsed
        state.speakerIndex = speaker
        state.transcript = transcript
        return state
    }

    @Test func theTimeAwayCountsAndTheSpeakerFollowsIt() {
        var state = checkpointed(elapsed: 1, speaker: 0, transcript: "", recording: false)
        let (effect, _) = RecordMeeting.update(&state, event: .restored(secondsAway: 2))
        #expect(state.isStarted && state.secondsElapsed == 3 && state.speakerIndex == 1)
        #expect(effect != nil, "the timer starts again")
        #expect(state.ending == nil)
        // Restored once: a second restore or a start changes nothing.
        let before = state
        _ = RecordMeeting.update(&state, event: .restored(secondsAway: 10))
        _ = RecordMeeting.update(&state, event: .start)
        #expect(state == before)
    }

    @Test func aMeetingWhoseTimeRanOutWhileAwayIsSavedWithItsTranscript() {
        var state = checkpointed(elapsed: 4, speaker: 2, transcript: "Shipped", recording: true)
        state.meetingID = UUID(number: 9)
        _ = RecordMeeting.update(&state, event: .restored(secondsAway: 60))
        #expect(state.secondsElapsed == 6 && state.ending == .saving && state.recognition == .off)
        _ = RecordMeeting.update(
            &state,
            event: .made(Meeting(id: UUID(number: 9), date: Date(timeIntervalSince1970: 0), transcript: "Shipped")))
        #expect(
            state.ending
                == .saved(Meeting(id: UUID(number: 9), date: Date(timeIntervalSince1970: 0), transcript: "Shipped")))
    }

    @Test func whatIsHeardAfterARestoreGoesAfterWhatWasHeardBefore() {
        var state = checkpointed(elapsed: 1, speaker: 0, transcript: "Before the restart", recording: true)
        _ = RecordMeeting.update(&state, event: .restored(secondsAway: 0))
        #expect(state.recognition == .listening)
        _ = RecordMeeting.update(&state, event: .speechResult("and after"))
        #expect(state.transcript == "Before the restart and after")
        _ = RecordMeeting.update(&state, event: .speechResult("and after it"))
        #expect(state.transcript == "Before the restart and after it")
    }
}
