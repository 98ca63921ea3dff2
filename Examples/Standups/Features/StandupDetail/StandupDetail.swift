// A stand-up's screen: its length, theme, attendees and past meetings;
// starting a meeting (asking the recogniser first), editing a copy, and
// deleting the stand-up or a past meeting after a question. The stand-up
// shown is the provider's: the parent passes each new version in
// (`standupChanged`), and takes this screen's requests from its state.

import Devices
import Foundation
import Models
import Oak
import StandupForm

/// The StandupDetail transducer.
public enum StandupDetail: EffectTransducer {
    /// A question the screen asks.
    public enum Question: Equatable, Hashable, Sendable {
        /// "Delete?" the stand-up.
        case deleteStandup
        /// Delete this past meeting?
        case deleteMeeting(Meeting.ID)
        /// Recognition was declined: continue without recording (or open
        /// the settings, where the platform has them), or cancel.
        case speechDenied
        /// This machine cannot recognise speech: continue without
        /// recording, or cancel.
        case speechRestricted
    }

    /// What the screen shows over itself: the edit sheet or a question.
    public enum Destination: Equatable, Hashable, Sendable {
        /// Editing a copy of the stand-up.
        indirect case edit(StandupForm.State)
        /// A question.
        case question(Question)
    }

    /// What the screen asks its parent to do.
    public enum Request: Equatable, Hashable, Sendable {
        /// Save this change.
        indirect case save(StandupChange)
        /// Delete the stand-up, and close this screen.
        case deleteStandup(Standup.ID)
        /// Start a meeting of this stand-up, recorded or not.
        indirect case startMeeting(Standup, isRecording: Bool)
        /// Show this past meeting.
        case openMeeting(Meeting.ID)
        /// Close this screen (its stand-up was deleted elsewhere and the
        /// edit was let go).
        case close
    }

    /// The screen's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// The stand-up, as the provider last said.
        public var standup: Standup
        /// The sheet or question shown, if any.
        public var destination: Destination?
        /// The selected past meeting, by position.
        public var selection: Int
        /// Whether the recogniser is being asked before a meeting starts.
        public var isCheckingSpeech: Bool
        /// What the last event asks the parent to do, if anything.
        public var request: Request?
        /// While the form is open: the stand-up as the edit began, which
        /// Done's edit is merged from (so that what others change meanwhile
        /// is kept: ``Models/StandupChange/edit(_:from:)``).
        public var editedFrom: Standup?
        /// While the form is open: the stand-up was deleted elsewhere. The
        /// form stays (nothing typed is dropped) and says so; Done adds the
        /// stand-up back, Cancel lets it go.
        public var isDeletedElsewhere: Bool

        /// The screen of `standup`.
        public init(standup: Standup) {
            self.standup = standup
            self.destination = nil
            self.selection = 0
            self.isCheckingSpeech = false
            self.request = nil
            self.editedFrom = nil
            self.isDeletedElsewhere = false
        }
    }

    /// What happens to the screen.
    public enum Event: Equatable, Sendable {
        /// The provider's version of the stand-up (nil: it was deleted;
        /// the parent closes the screen unless its form is open).
        indirect case standupChanged(Standup?)
        /// Select the past meeting at a position.
        case select(Int)
        /// Open the selected past meeting.
        case openMeeting(Meeting.ID)
        /// Edit a copy.
        case edit
        /// An event of the edit form.
        case form(StandupForm.Event)
        /// Drop the copy.
        case cancelEdit
        /// Save the copy (validated).
        case doneEditing
        /// Ask before deleting the stand-up.
        case delete
        /// Ask before deleting a past meeting.
        case deleteMeeting(Meeting.ID)
        /// Yes to the question about deleting.
        case confirmDeletion
        /// Close the question.
        case dismissQuestion
        /// Start a meeting (asks the recogniser first).
        case startMeeting
        /// The recogniser's answer.
        case authorization(SpeechAuthorization)
        /// Start the meeting without recording.
        case continueWithoutRecording
        /// Open the platform's settings (where the port has them).
        case openSettings
    }

    /// The port: the recogniser's authorization, and the platform's
    /// settings where it has them.
    public struct Env: Sendable {
        /// The recogniser.
        public var speech: SpeechClient
        /// Opens the platform's settings (Apple's); `nil` where there are
        /// none to open (Linux: recognition is declined with `--no-speech`).
        public var openSettings: (@Sendable () async -> Void)?

        /// A port.
        public init(speech: SpeechClient, openSettings: (@Sendable () async -> Void)? = nil) {
            self.speech = speech
            self.openSettings = openSettings
        }
    }

    /// Every state: the parent shows it and takes its ``State/request``.
    public typealias Output = State

    /// The transitions.
    public static func update(_ state: inout State, event: Event) -> (Self.Effect?, Output) {
        state.request = nil
        let effect = transition(&state, event)
        return (effect, state)
    }

    static func transition(_ state: inout State, _ event: Event) -> Self.Effect? {
        switch event {
        case .standupChanged(let standup):
            guard let standup else {
                if case .edit = state.destination { state.isDeletedElsewhere = true }
                return nil
            }
            state.isDeletedElsewhere = false
            state.standup = standup
            state.selection = min(state.selection, max(standup.meetings.count - 1, 0))
        case .select(let index):
            state.selection = min(max(index, 0), max(state.standup.meetings.count - 1, 0))
        case .openMeeting(let id):
            guard state.destination == nil, state.standup.meetings[id: id] != nil else { return nil }
            state.request = .openMeeting(id)
        case .edit:
            guard state.destination == nil else { return nil }
            state.destination = .edit(StandupForm.State(standup: state.standup))
            state.editedFrom = state.standup
        case .form(let event):
            guard case .edit(var form) = state.destination else { return nil }
            StandupForm.update(&form, event: event)
            state.destination = .edit(form)
        case .cancelEdit:
            guard case .edit = state.destination else { return nil }
            state.destination = nil
            state.editedFrom = nil
            // Deleted meanwhile and let go: the parent closes the screen.
            if state.isDeletedElsewhere { state.request = .close }
        case .doneEditing:
            guard case .edit(let form) = state.destination else { return nil }
            let base = state.editedFrom ?? state.standup
            state.destination = nil
            state.editedFrom = nil
            var edited = form.standup.validated()
            edited.meetings = state.standup.meetings
            let wasDeleted = state.isDeletedElsewhere
            state.isDeletedElsewhere = false
            // Nothing changed: nothing to save (unless the stand-up was
            // deleted meanwhile: Done adds it back, as the form said).
            guard edited != base || wasDeleted else { return nil }
            // Shown at once as merged with what is known here; the store
            // merges it again with what it has.
            state.standup = Standup.merge(edited, from: base, into: wasDeleted ? nil : state.standup).standup
            state.request = .save(.edit(edited, from: base))
        case .delete:
            guard state.destination == nil else { return nil }
            state.destination = .question(.deleteStandup)
        case .deleteMeeting(let id):
            guard state.destination == nil, state.standup.meetings[id: id] != nil else { return nil }
            state.destination = .question(.deleteMeeting(id))
        case .confirmDeletion:
            switch state.destination {
            case .question(.deleteStandup):
                state.destination = nil
                state.request = .deleteStandup(state.standup.id)
            case .question(.deleteMeeting(let id)):
                state.destination = nil
                state.standup.meetings.remove(id: id)
                state.selection = min(state.selection, max(state.standup.meetings.count - 1, 0))
                state.request = .save(.deleteMeeting(id, from: state.standup.id))
            default:
                return nil
            }
        case .dismissQuestion:
            guard case .question = state.destination else { return nil }
            state.destination = nil
        case .startMeeting:
            guard state.destination == nil, !state.isCheckingSpeech else { return nil }
            state.isCheckingSpeech = true
            return Effect(action: { env in
                var status = await env.speech.authorization()
                if status == .notDetermined { status = await env.speech.requestAuthorization() }
                return .authorization(status)
            })
        case .authorization(let status):
            guard state.isCheckingSpeech else { return nil }
            state.isCheckingSpeech = false
            switch status {
            case .authorized, .notDetermined:
                state.request = .startMeeting(state.standup, isRecording: status == .authorized)
            case .denied:
                state.destination = .question(.speechDenied)
            case .restricted:
                state.destination = .question(.speechRestricted)
            }
        case .continueWithoutRecording:
            switch state.destination {
            case .question(.speechDenied), .question(.speechRestricted):
                state.destination = nil
                state.request = .startMeeting(state.standup, isRecording: false)
            default:
                return nil
            }
        case .openSettings:
            guard state.destination == .question(.speechDenied) else { return nil }
            state.destination = nil
            return Effect(operation: { env, _ in await env.openSettings?() })
        }
        return nil
    }
}
