// The meeting: a countdown per speaker from an injected clock, Next, ending
// early (save, discard or resume), the time running out, a sound at each
// speaker change and the transcript from the speech recogniser. The timer
// and the recogniser are operations of this run: they start once, with
// `start`, and stop when the meeting ends or its screen goes away (the run
// is cancelled), so neither is ever left running.

import Devices
import Foundation
import Models
import Oak

/// The RecordMeeting transducer.
public enum RecordMeeting: EffectTransducer {
    /// A question the meeting asks; while one is open the timer's ticks
    /// change nothing.
    public enum Question: Equatable, Hashable, Sendable {
        /// "End meeting?": save and end, discard (when `isDiscardable`:
        /// ended early, not by Next on the last speaker), or resume.
        case endMeeting(isDiscardable: Bool)
        /// The recogniser failed: continue without it, or discard.
        case speechFailed
    }

    /// What the recogniser is doing.
    public enum Recognition: Equatable, Hashable, Sendable {
        /// Not used in this meeting (not authorised, or declined).
        case off
        /// Listening.
        case listening
        /// The audio ended; the transcript is complete.
        case ended
        /// It failed; the transcript is marked.
        case failed(SpeechFailure)
    }

    /// How the meeting ended.
    public enum Ending: Equatable, Hashable, Sendable {
        /// Being made into a ``Meeting`` (its id and date come from the
        /// port).
        case saving
        /// Saved: the parent stores `meeting`.
        case saved(Meeting)
        /// Discarded: nothing is stored.
        case discarded
    }

    /// The meeting's state.
    public struct State: Terminable, Equatable, Hashable, Sendable {
        /// The stand-up as it was when the meeting started.
        public var standup: Standup
        /// Whose turn it is.
        public var speakerIndex: Int
        /// Seconds since the start.
        public var secondsElapsed: Int
        /// What the recogniser heard so far.
        public var transcript: String
        /// The open question, if any.
        public var question: Question?
        /// Whether the meeting is recorded (recognition was authorised and
        /// wanted when it started).
        public var isRecording: Bool
        /// What the recogniser is doing.
        public var recognition: Recognition
        /// Whether `start` has started the timer.
        public var isStarted: Bool
        /// How the meeting ended, once it has.
        public var ending: Ending?
        /// The id the meeting is saved with, when it is fixed before it
        /// ends (a room's: a meeting saved twice — by its room and by a
        /// viewer, or again after a restart — is one meeting); else a new
        /// one from the port.
        public var meetingID: UUID?
        /// What was heard before the meeting was restored (another process
        /// ran it until then): the recogniser's transcripts go after it.
        public var transcriptBefore: String

        /// A meeting of `standup`, not started; recorded when
        /// `isRecording`.
        public init(standup: Standup, isRecording: Bool) {
            self.standup = standup
            self.speakerIndex = 0
            self.secondsElapsed = 0
            self.transcript = ""
            self.question = nil
            self.isRecording = isRecording
            self.recognition = .off
            self.isStarted = false
            self.ending = nil
            self.meetingID = nil
            self.transcriptBefore = ""
        }

        /// The run ends once the meeting is saved or discarded.
        public var isTerminal: Bool {
            switch ending {
            case .saved, .discarded: true
            case .saving, nil: false
            }
        }

        /// When each speaker starts.
        public var schedule: SpeakerSchedule { standup.schedule }
        /// Seconds left in the meeting.
        public var secondsRemaining: Int { max(schedule.durationSeconds - secondsElapsed, 0) }
        /// Seconds left in the current speaker's turn.
        public var speakerSecondsRemaining: Int { schedule.remaining(for: speakerIndex, at: secondsElapsed) }
        /// Whether the current speaker is the last one.
        public var isLastSpeaker: Bool { speakerIndex >= standup.attendees.count - 1 }
        /// The current speaker, if any.
        public var speaker: Attendee? {
            standup.attendees.indices.contains(speakerIndex) ? standup.attendees[speakerIndex] : nil
        }

        /// What the question to end the meeting says, in every front end:
        /// what saving keeps (its transcript, when the meeting is
        /// recorded) and the choices it offers (discarding, when
        /// `isDiscardable`).
        public func endQuestionMessage(isDiscardable: Bool) -> String {
            let save = isRecording ? "Save it with its transcript" : "Save it (it was not recorded)"
            return isDiscardable ? "\(save), discard it, or resume." : "\(save), or resume."
        }

        /// The meeting of a checkpoint taken `secondsAway` ago, the time
        /// away counted as elapsed (the people met on; never past the
        /// end), on the speaker of that time, with what was heard kept
        /// apart from what will be; not started. A resumed room begins in
        /// this state, so that a viewer who joins it at once already sees
        /// where the meeting is.
        public func advanced(bySecondsAway secondsAway: Int) -> Self {
            var state = self
            state.question = nil
            state.secondsElapsed = min(state.secondsElapsed + max(secondsAway, 0), schedule.durationSeconds)
            state.speakerIndex = max(state.speakerIndex, schedule.speaker(at: state.secondsElapsed))
            state.transcriptBefore = state.transcript
            return state
        }
    }

    /// What happens to the meeting.
    public enum Event: Equatable, Sendable {
        /// Start the timer (and the recogniser, when recording).
        case start
        /// The meeting was restored from a checkpoint taken `secondsAway`
        /// ago (its process stopped): the time away counts as elapsed (the
        /// people met on), the timer and the recogniser start again, or the
        /// meeting is saved when its time ran out meanwhile.
        case restored(secondsAway: Int)
        /// A second passed.
        case tick
        /// The next speaker.
        case next
        /// End the meeting early (asks).
        case endMeeting
        /// Save the meeting and end it.
        case confirmSave
        /// Discard the meeting.
        case confirmDiscard
        /// Close the question and go on.
        case resume
        /// The transcript so far.
        case speechResult(String)
        /// The audio ended.
        case speechEnded
        /// The recogniser failed.
        case speechFailed(SpeechFailure)
        /// The meeting, made with its id and date.
        case made(Meeting)
    }

    /// The port: time, the recogniser, the sound, and what makes a
    /// meeting's id and date.
    public struct Env: Sendable {
        /// Ticks the timer.
        public var clock: any Clock<Duration>
        /// The recogniser.
        public var speech: SpeechClient
        /// The speaker-change sound.
        public var sound: SoundPlayer
        /// Now, for the meeting's date.
        public var now: @Sendable () -> Date
        /// A new id, for the meeting.
        public var uuid: @Sendable () -> UUID

        /// A port.
        public init(
            clock: any Clock<Duration>, speech: SpeechClient, sound: SoundPlayer,
            now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID
        ) {
            self.clock = clock
            self.speech = speech
            self.sound = sound
            self.now = now
            self.uuid = uuid
        }
    }

    /// Every state, for the parent: it shows the meeting and stores it
    /// once it is saved.
    public typealias Output = State

    /// Effects send their events and wait until they are processed: a
    /// clock that does not wait (a test's, a demo's) never overruns the
    /// buffer, and no tick is lost.
    public typealias Proxy = SyncSuspendingProxy<Event>

    static let timerID: EffectID = "timer"
    static let speechID: EffectID = "speech"

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        let effect = transition(&state, event)
        return (effect, state)
    }

    static func transition(_ state: inout State, _ event: Event) -> Self.Effect? {
        // Once ending, only the made meeting counts.
        if state.ending != nil {
            guard case .made(let meeting) = event, state.ending == .saving else { return nil }
            state.ending = .saved(meeting)
            return nil
        }
        switch event {
        case .start:
            guard !state.isStarted else { return nil }
            state.isStarted = true
            guard state.isRecording else { return timer() }
            state.recognition = .listening
            return .combine(timer(), recognise())
        case .restored(let secondsAway):
            guard !state.isStarted else { return nil }
            state = state.advanced(bySecondsAway: secondsAway)
            state.isStarted = true
            if state.secondsElapsed >= state.schedule.durationSeconds { return finish(&state) }
            guard state.isRecording else { return timer() }
            state.recognition = .listening
            return .combine(timer(), recognise())
        case .tick:
            guard state.isStarted, state.question == nil else { return nil }
            state.secondsElapsed += 1
            if state.secondsElapsed >= state.schedule.durationSeconds {
                return finish(&state)
            }
            let speaker = state.schedule.speaker(at: state.secondsElapsed)
            guard speaker != state.speakerIndex else { return nil }
            state.speakerIndex = speaker
            return playSound()
        case .next:
            guard state.question == nil else { return nil }
            guard !state.isLastSpeaker else {
                state.question = .endMeeting(isDiscardable: false)
                return nil
            }
            state.speakerIndex += 1
            state.secondsElapsed = state.schedule.start(of: state.speakerIndex)
            return playSound()
        case .endMeeting:
            guard state.question == nil else { return nil }
            state.question = .endMeeting(isDiscardable: true)
            return nil
        case .confirmSave:
            guard case .endMeeting = state.question else { return nil }
            state.question = nil
            return finish(&state)
        case .confirmDiscard:
            switch state.question {
            case .endMeeting(isDiscardable: true), .speechFailed:
                state.question = nil
                state.ending = .discarded
                return .combine(.cancelTask(timerID), .cancelTask(speechID))
            default:
                return nil
            }
        case .resume:
            state.question = nil
            return nil
        case .speechResult(let transcript):
            guard state.recognition == .listening else { return nil }
            state.transcript =
                state.transcriptBefore.isEmpty || transcript.isEmpty
                ? state.transcriptBefore + transcript : state.transcriptBefore + " " + transcript
            return nil
        case .speechEnded:
            guard state.recognition == .listening else { return nil }
            state.recognition = .ended
            return nil
        case .speechFailed(let failure):
            guard state.recognition == .listening else { return nil }
            state.recognition = .failed(failure)
            if !state.transcript.isEmpty { state.transcript += " ❌" }
            // A question about to be answered stays; this one waits.
            if state.question == nil { state.question = .speechFailed }
            return nil
        case .made:
            return nil
        }
    }

    /// Ends the meeting: the timer and the recogniser stop, and the port
    /// makes the meeting (its id and date).
    static func finish(_ state: inout State) -> Self.Effect {
        state.ending = .saving
        if state.recognition == .listening { state.recognition = .ended }
        let transcript = state.transcript
        let id = state.meetingID
        return .combine(
            .cancelTask(timerID), .cancelTask(speechID),
            Effect(action: { env in .made(Meeting(id: id ?? env.uuid(), date: env.now(), transcript: transcript)) }))
    }

    /// One tick a second from the port's clock, each due a second after the
    /// one before (no drift), each processed before the next is sent.
    static func timer() -> Self.Effect {
        Effect(
            id: timerID,
            operation: { env, input in
                // Refused only once the meeting's run has ended or the
                // timer was cancelled: nothing to tell.
                try await everySecond(env.clock) { try? await input.checkedSend(.tick) }
            })
    }

    static func everySecond<C: Clock<Duration>>(_ clock: C, _ body: () async -> Void) async throws {
        var next = clock.now.advanced(by: .seconds(1))
        while true {
            try await clock.sleep(until: next, tolerance: nil)
            try Task.checkCancellation()
            await body()
            next = next.advanced(by: .seconds(1))
        }
    }

    /// The recogniser's transcripts, until the meeting ends.
    static func recognise() -> Self.Effect {
        Effect(
            id: speechID,
            operation: { env, input in
                do {
                    for try await transcript in env.speech.transcripts() {
                        guard (try? await input.checkedSend(.speechResult(transcript))) != nil else { return }
                    }
                    // A stream whose consumer was cancelled just ends: that is
                    // the meeting stopping it, not the audio ending.
                    try Task.checkCancellation()
                    try? await input.checkedSend(.speechEnded)
                } catch is CancellationError {
                    return
                } catch let failure as SpeechFailure {
                    try? await input.checkedSend(.speechFailed(failure))
                } catch {
                    try? await input.checkedSend(.speechFailed(SpeechFailure(String(describing: error))))
                }
            })
    }

    /// Plays the speaker-change sound.
    static func playSound() -> Self.Effect {
        Effect(operation: { env, _ in await env.sound.play() })
    }
}
