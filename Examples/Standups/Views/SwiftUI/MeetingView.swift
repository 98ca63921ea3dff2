// The meeting in SwiftUI: progress, time elapsed and remaining, a segment
// per speaker, the current speaker and their time left, what the
// recogniser is doing and the transcript so far; Next and End meeting; the
// questions as alerts (end the meeting: save, discard or resume; the
// recogniser failed: continue or discard).

#if canImport(SwiftUI)
import Models
import Oak
import RecordMeeting
import StandupsIntents
import SwiftUI

/// The meeting's screen, in its stand-up's colours. SwiftUI's Back is
/// hidden: the meeting is ended by its question.
public struct MeetingView: View {
    /// The meeting's state drawn.
    public let meeting: RecordMeeting.State
    /// The meeting's intents for that state, while it runs and is on top.
    public let intents: Intents<RecordMeeting, RecordMeeting.Scope>?

    /// A view of `meeting`, acting through `intents`.
    public init(_ meeting: RecordMeeting.State, intents: Intents<RecordMeeting, RecordMeeting.Scope>?) {
        self.meeting = meeting
        self.intents = intents
    }

    /// The timer, the speakers, the transcript and the buttons.
    public var body: some View {
        let theme = meeting.standup.theme
        VStack(alignment: .leading, spacing: 16) {
            ProgressView(
                value: Double(meeting.secondsElapsed), total: Double(meeting.schedule.durationSeconds))
            HStack {
                VStack(alignment: .leading) {
                    Text("Elapsed").font(.caption)
                    Label(minutesAndSeconds(meeting.secondsElapsed), systemImage: "hourglass.tophalf.fill")
                }
                Spacer()
                VStack(alignment: .trailing) {
                    Text("Remaining").font(.caption)
                    Label(minutesAndSeconds(meeting.secondsRemaining), systemImage: "hourglass.bottomhalf.fill")
                }
            }
            HStack(spacing: 2) {
                ForEach(meeting.standup.attendees.indices, id: \.self) { index in
                    Color(theme.accentColor)
                        .opacity(index <= meeting.speakerIndex ? 1 : 0.3)
                        .frame(height: 8)
                }
            }
            speaker
            recognition
            if !meeting.transcript.isEmpty {
                Text(meeting.transcript).font(.caption)
            }
            Spacer()
            footer
        }
        .padding()
        .foregroundStyle(Color(theme.accentColor))
        .background(Color(theme.mainColor))
        .navigationTitle(meeting.standup.displayTitle)
        .navigationBarBackButtonHidden(true)
        .alert("End meeting?", isPresented: presented(endQuestion != nil, dismiss: intents?(.resume))) {
            Button("Save and end") { intents?(.confirmSave)() }
            if endQuestion == true {
                Button("Discard", role: .destructive) { intents?(.confirmDiscard)() }
            }
            Button("Resume", role: .cancel) { intents?(.resume)() }
        } message: {
            Text(meeting.endQuestionMessage(isDiscardable: endQuestion == true))
        }
        .alert(
            "Speech recognition failed",
            isPresented: presented(meeting.question == .speechFailed, dismiss: intents?(.resume))
        ) {
            Button("Continue", role: .cancel) { intents?(.resume)() }
            Button("Discard", role: .destructive) { intents?(.confirmDiscard)() }
        } message: {
            Text("The transcript stops here. Continue the meeting without it, or discard the meeting.")
        }
    }

    /// Whose turn it is, and their time left.
    @ViewBuilder private var speaker: some View {
        if let speaker = meeting.speaker {
            Text(
                "Speaker \(meeting.speakerIndex + 1) of \(meeting.standup.attendees.count): "
                    + (speaker.name.isEmpty ? "Speaker \(meeting.speakerIndex + 1)" : speaker.name)
            )
            .font(.headline)
            Text("\(minutesAndSeconds(meeting.speakerSecondsRemaining)) left")
        }
    }

    /// What the recogniser is doing.
    @ViewBuilder private var recognition: some View {
        switch meeting.recognition {
        case .listening:
            Label("Recording", systemImage: "waveform")
        case .off:
            Text(meeting.isRecording ? "Starting the recogniser…" : "Not recording")
        case .ended:
            Text("The audio has ended.")
        case .failed(let failure):
            Text("Speech recognition failed: \(failure.description)")
        }
    }

    /// Next (End on the last speaker) and End meeting while the meeting
    /// runs; "Saving…" once it ends.
    @ViewBuilder private var footer: some View {
        switch meeting.ending {
        case nil:
            HStack {
                Button(meeting.isLastSpeaker ? "End" : "Next speaker") { intents?(.next)() }
                Spacer()
                Button("End meeting") { intents?(.endMeeting)() }
            }
        case .saving?, .saved?:
            Text("Saving the meeting…").font(.headline)
        case .discarded?:
            EmptyView()
        }
    }

    /// Whether the meeting asks to end, and whether it may be discarded
    /// (nil: it does not ask).
    private var endQuestion: Bool? {
        if case .endMeeting(let isDiscardable) = meeting.question { isDiscardable } else { nil }
    }
}
#endif
