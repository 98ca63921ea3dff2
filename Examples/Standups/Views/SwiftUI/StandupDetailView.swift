// A stand-up's screen in SwiftUI: Start meeting, its length and theme, its
// attendees and past meetings; Edit in a sheet; the questions as dialogs
// and alerts (delete the stand-up or a past meeting; recognition declined
// or unavailable). Every control sends an intent of the screen's run.

#if canImport(SwiftUI)
import StandupsMain
import Models
import Oak
import StandupDetail
import StandupsIntents
import SwiftUI

/// A stand-up's screen.
public struct StandupDetailView: View {
    /// The screen's state drawn.
    public let detail: StandupDetail.State
    /// The screen's intents for that state, while the screen is on top (a
    /// screen under another one offers none).
    public let intents: Intents<StandupDetail, StandupDetail.Scope>?
    /// What an edit of the stand-up met elsewhere (said above the rest).
    public let conflicts: [StandupConflict]
    /// The app's intents ("Use theirs", OK), while the screen is on top.
    public let app: Intents<Main, Main.Scope>?
    /// Whether the stand-up's meeting runs now (Start joins it).
    public let isMeetingRunning: Bool

    /// A view of `detail`, acting through `intents`; `conflicts` said, and
    /// answered through `app`.
    public init(
        _ detail: StandupDetail.State, intents: Intents<StandupDetail, StandupDetail.Scope>?,
        conflicts: [StandupConflict] = [], app: Intents<Main, Main.Scope>? = nil,
        isMeetingRunning: Bool = false
    ) {
        self.detail = detail
        self.intents = intents
        self.conflicts = conflicts
        self.app = app
        self.isMeetingRunning = isMeetingRunning
    }

    /// The stand-up, its sheet and its questions.
    public var body: some View {
        content
            .navigationTitle(detail.standup.displayTitle)
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    Button("Edit") { intents?(.edit)() }
                }
            }
            .sheet(isPresented: presented(isEditing, dismiss: intents?(.cancelEdit))) { editSheet }
            .confirmationDialog(
                "Delete “\(detail.standup.displayTitle)”?",
                isPresented: isAsking(.deleteStandup), titleVisibility: .visible
            ) {
                Button("Delete", role: .destructive) { intents?(.confirmDeletion)() }
                Button("Keep", role: .cancel) { intents?(.dismissQuestion)() }
            } message: {
                Text("Its past meetings are deleted with it.")
            }
            .confirmationDialog(
                "Delete this meeting?", isPresented: isAskingToDeleteMeeting, titleVisibility: .visible
            ) {
                Button("Delete", role: .destructive) { intents?(.confirmDeletion)() }
                Button("Keep", role: .cancel) { intents?(.dismissQuestion)() }
            } message: {
                Text("Its transcript is deleted with it.")
            }
            .alert("Speech recognition is off", isPresented: isAsking(.speechDenied)) {
                Button("Continue without recording") { intents?(.continueWithoutRecording)() }
                Button("Open Settings") { intents?(.openSettings)() }
                Button("Cancel", role: .cancel) { intents?(.dismissQuestion)() }
            } message: {
                Text("You declined speech recognition, so the meeting will not be recorded.")
            }
            .alert("Speech recognition is unavailable", isPresented: isAsking(.speechRestricted)) {
                Button("Continue without recording") { intents?(.continueWithoutRecording)() }
                Button("Cancel", role: .cancel) { intents?(.dismissQuestion)() }
            } message: {
                Text("This device cannot recognise speech, so the meeting will not be recorded.")
            }
    }

    /// Start meeting, the stand-up's length, theme and attendees, its past
    /// meetings (open one, or swipe to delete it), and Delete.
    private var content: some View {
        let standup = detail.standup
        return List {
            if !conflicts.isEmpty {
                Section("Edited in two places at once") {
                    ForEach(conflicts, id: \.self) { conflict in Text(conflict.sentence(in: standup)) }
                    if StandupConflict.canTakeTheirs(conflicts) {
                        Button("Use theirs") { app?(.takeTheirs(standup.id))() }
                    }
                    Button("OK") { app?(.dismissConflicts(standup.id))() }
                }
            }
            Section("Meeting info") {
                Button {
                    intents?(.startMeeting)()
                } label: {
                    Label(
                        detail.isCheckingSpeech ? "Starting…" : isMeetingRunning ? "Join meeting" : "Start meeting",
                        systemImage: "timer")
                }
                .disabled(detail.isCheckingSpeech)
                HStack {
                    Label("Length", systemImage: "clock")
                    Spacer()
                    Text("\(standup.minutes) min")
                }
                HStack {
                    Label("Theme", systemImage: "paintpalette")
                    Spacer()
                    ThemeLabel(theme: standup.theme)
                }
            }
            Section("Attendees") {
                ForEach(standup.attendees) { attendee in
                    Label(attendee.name.isEmpty ? "(no name)" : attendee.name, systemImage: "person")
                }
            }
            Section("Past meetings") {
                if standup.meetings.isEmpty {
                    Label("No meetings yet", systemImage: "calendar.badge.exclamationmark")
                }
                ForEach(standup.meetings) { meeting in
                    Button {
                        intents?(.openMeeting(meeting.id))()
                    } label: {
                        HStack {
                            Image(systemName: "calendar")
                            Text(meeting.date, style: .date)
                            Text(meeting.date, style: .time)
                        }
                    }
                    .swipeActions {
                        Button("Delete", role: .destructive) { intents?(.deleteMeeting(meeting.id))() }
                    }
                }
            }
            Section {
                Button("Delete stand-up", role: .destructive) { intents?(.delete)() }
            }
        }
    }

    /// The form editing a copy, with Cancel and Done.
    @ViewBuilder private var editSheet: some View {
        if case .edit(let form) = detail.destination, let intents {
            NavigationStack {
                VStack {
                    if detail.isDeletedElsewhere { Text(StandupDetail.State.deletedWhileEditing) }
                    StandupFormView(form) { intents(.form($0)) }
                }
                .navigationTitle(detail.standup.displayTitle)
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        Button("Cancel") { intents(.cancelEdit)() }
                    }
                    ToolbarItem(placement: .confirmationAction) {
                        Button("Done") { intents(.doneEditing)() }
                    }
                }
            }
        }
    }

    private var isEditing: Bool {
        if case .edit = detail.destination { true } else { false }
    }

    /// Presents `question` while the screen asks it.
    private func isAsking(_ question: StandupDetail.Question) -> Binding<Bool> {
        presented(detail.destination == .question(question), dismiss: intents?(.dismissQuestion))
    }

    private var isAskingToDeleteMeeting: Binding<Bool> {
        let isAsking = if case .question(.deleteMeeting) = detail.destination { true } else { false }
        return presented(isAsking, dismiss: intents?(.dismissQuestion))
    }
}
#endif
