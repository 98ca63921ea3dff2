// A stand-up's screen, exhaustively, with a mock recogniser: SyncUps'
// detail scenarios (their names in the comments) and deleting a past
// meeting.

import Devices
import Foundation
import Models
import Oak
import OakTesting
import StandupDetail
import StandupForm
import StandupsTestSupport
import Synchronization
import Testing

@Suite("A stand-up's screen")
struct StandupDetailTests {
    /// The screen of SyncUps' mock with `speech`; checks every output.
    func steps(
        speech: SpeechClient = .mock(), openSettings: (@Sendable () async -> Void)? = nil,
        destination: StandupDetail.Destination? = nil
    ) -> Steps<StandupDetail> {
        var initial = StandupDetail.State(standup: .mock)
        initial.destination = destination
        // `update` clears the request of the step before.
        return Steps(
            TransducerTester(
                StandupDetail.self, initialState: initial,
                env: StandupDetail.Env(speech: speech, openSettings: openSettings)),
            initialState: initial, eachStep: { $0.request = nil })
    }

    // SyncUps: testSpeechRestricted.
    @Test func startingWhereRecognitionIsRestrictedAsks() async {
        let steps = steps(speech: .unavailable(.restricted))
        await steps.send(.startMeeting) { $0.isCheckingSpeech = true }
        await steps.receive(.authorization(.restricted)) {
            $0.isCheckingSpeech = false
            $0.destination = .question(.speechRestricted)
        }
        await steps.tester.finish()
    }

    // SyncUps: testSpeechDenied.
    @Test func startingWhereRecognitionIsDeniedAsks() async {
        let steps = steps(speech: .unavailable(.denied))
        await steps.send(.startMeeting) { $0.isCheckingSpeech = true }
        await steps.receive(.authorization(.denied)) {
            $0.isCheckingSpeech = false
            $0.destination = .question(.speechDenied)
        }
        await steps.tester.finish()
    }

    // SyncUps: testOpenSettings.
    @Test func openSettingsOpensThePlatformsSettings() async {
        let opened = Mutex(0)
        let steps = steps(openSettings: { opened.withLock { $0 += 1 } }, destination: .question(.speechDenied))
        await steps.send(.openSettings) { $0.destination = nil }
        await steps.tester.finish()
        #expect(opened.withLock { $0 } == 1)
    }

    // SyncUps: testContinueWithoutRecording.
    @Test func continuingWithoutRecordingStartsAnUnrecordedMeeting() async {
        let steps = steps(destination: .question(.speechDenied))
        await steps.send(.continueWithoutRecording) {
            $0.destination = nil
            $0.request = .startMeeting(.mock, isRecording: false)
        }
        await steps.tester.finish()
    }

    // SyncUps: testSpeechAuthorized.
    @Test func startingWhenAuthorisedStartsARecordedMeeting() async {
        let steps = steps(speech: .mock(authorization: .authorized))
        await steps.send(.startMeeting) { $0.isCheckingSpeech = true }
        await steps.receive(.authorization(.authorized)) {
            $0.isCheckingSpeech = false
            $0.request = .startMeeting(.mock, isRecording: true)
        }
        await steps.tester.finish()
    }

    @Test func startingWhenNotAskedYetAsksThePlatform() async {
        let steps = steps(speech: .mock(authorization: .notDetermined))
        await steps.send(.startMeeting) { $0.isCheckingSpeech = true }
        await steps.receive(.authorization(.authorized)) {
            $0.isCheckingSpeech = false
            $0.request = .startMeeting(.mock, isRecording: true)
        }
        await steps.tester.finish()
    }

    // SyncUps: testEdit.
    @Test func editingWorksOnACopyThatDoneSaves() async {
        let steps = steps()
        await steps.send(.edit) {
            $0.destination = .edit(StandupForm.State(standup: .mock))
            $0.editedFrom = .mock
        }
        await steps.send(.form(.setTitle("Blob's Meeting"))) {
            var form = StandupForm.State(standup: .mock)
            form.standup.title = "Blob's Meeting"
            form.cursor = 14
            $0.destination = .edit(form)
        }
        var edited = Standup.mock
        edited.title = "Blob's Meeting"
        await steps.send(.doneEditing) {
            $0.destination = nil
            $0.editedFrom = nil
            $0.standup = edited
            $0.request = .save(.edit(edited, from: .mock))
        }
        await steps.tester.finish()
    }

    @Test func anEditMeanwhileElsewhereIsKeptAndDoneSavesTheEditFromWhereItBegan() async {
        let steps = steps()
        await steps.send(.edit) {
            $0.destination = .edit(StandupForm.State(standup: .mock))
            $0.editedFrom = .mock
        }
        var elsewhere = Standup.mock
        elsewhere.theme = .navy
        await steps.send(.standupChanged(elsewhere)) { $0.standup = elsewhere }
        await steps.send(.form(.setTitle("Mine"))) {
            var form = StandupForm.State(standup: .mock)
            form.standup.title = "Mine"
            form.cursor = 4
            $0.destination = .edit(form)
        }
        var mine = Standup.mock
        mine.title = "Mine"
        var merged = elsewhere
        merged.title = "Mine"
        await steps.send(.doneEditing) {
            $0.destination = nil
            $0.editedFrom = nil
            // Shown merged: the theme chosen elsewhere stays.
            $0.standup = merged
            $0.request = .save(.edit(mine, from: .mock))
        }
        await steps.tester.finish()
    }

    @Test func aStandupDeletedWhileItsFormIsOpenKeepsTheFormAndSaysSo() async {
        let steps = steps()
        await steps.send(.edit) {
            $0.destination = .edit(StandupForm.State(standup: .mock))
            $0.editedFrom = .mock
        }
        await steps.send(.standupChanged(nil)) { $0.isDeletedElsewhere = true }
        // Let go: the screen asks to close.
        await steps.send(.cancelEdit) {
            $0.destination = nil
            $0.editedFrom = nil
            $0.request = .close
        }
        // Or, in another run, Done adds it back (the edit from where it began).
        let again = self.steps()
        await again.send(.edit) {
            $0.destination = .edit(StandupForm.State(standup: .mock))
            $0.editedFrom = .mock
        }
        await again.send(.standupChanged(nil)) { $0.isDeletedElsewhere = true }
        var kept = Standup.mock
        kept.meetings = []
        await again.send(.doneEditing) {
            $0.destination = nil
            $0.editedFrom = nil
            $0.isDeletedElsewhere = false
            $0.standup = kept
            $0.request = .save(.edit(.mock, from: .mock))
        }
        await steps.tester.finish()
        await again.tester.finish()
    }

    @Test func cancellingAnEditDropsTheCopy() async {
        let steps = steps()
        await steps.send(.edit) {
            $0.destination = .edit(StandupForm.State(standup: .mock))
            $0.editedFrom = .mock
        }
        await steps.send(.form(.setMinutes(20))) {
            var form = StandupForm.State(standup: .mock)
            form.standup.durationSeconds = 20 * 60
            $0.destination = .edit(form)
        }
        await steps.send(.cancelEdit) {
            $0.destination = nil
            $0.editedFrom = nil
        }
        await steps.tester.finish()
    }

    // SyncUps: testDelete.
    @Test func deletingAsksAndYesDeletesTheStandup() async {
        let steps = steps()
        await steps.send(.delete) { $0.destination = .question(.deleteStandup) }
        await steps.send(.confirmDeletion) {
            $0.destination = nil
            $0.request = .deleteStandup(Standup.mock.id)
        }
        await steps.tester.finish()
    }

    @Test func deletingAPastMeetingAsksFirst() async {
        let meeting = Standup.mock.meetings[0]
        let steps = steps()
        await steps.send(.deleteMeeting(meeting.id)) { $0.destination = .question(.deleteMeeting(meeting.id)) }
        await steps.send(.dismissQuestion) { $0.destination = nil }
        await steps.send(.deleteMeeting(meeting.id)) { $0.destination = .question(.deleteMeeting(meeting.id)) }
        await steps.send(.confirmDeletion) {
            $0.destination = nil
            $0.standup.meetings = []
            $0.request = .save(.deleteMeeting(meeting.id, from: Standup.mock.id))
        }
        await steps.tester.finish()
    }

    @Test func theScreenFollowsTheProvidersVersion() async {
        var renamed = Standup.mock
        renamed.title = "Renamed elsewhere"
        let steps = steps()
        await steps.send(.standupChanged(renamed)) { $0.standup = renamed }
        // Deleted elsewhere: the parent closes the screen; it keeps showing
        // the last version meanwhile.
        await steps.send(.standupChanged(nil))
        await steps.tester.finish()
    }
}
