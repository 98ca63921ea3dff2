// A stand-up's screen explored by OakTesting's StateGraph: every
// transition found from the screen of SyncUps' mock with sample events,
// for each answer the recogniser may give, replayed as a test against the
// real runtime; the coverage is printed (CI's output shows it) and must
// be complete.

import Devices
import Foundation
import Models
import Oak
import OakTesting
import StandupDetail
import Testing

@Suite("A stand-up's screen, every transition")
struct StandupDetailGraphTests {
    static let meeting = Standup.mock.meetings[0].id

    static let events: [StandupDetail.Event] = [
        .edit, .form(.setTitle("Retro")), .cancelEdit, .doneEditing, .delete, .deleteMeeting(meeting),
        .confirmDeletion, .dismissQuestion, .startMeeting, .continueWithoutRecording, .openSettings, .select(0),
        .openMeeting(meeting), .standupChanged(nil),
    ]

    /// What the screen shows and asks, by kind.
    static func node(_ state: StandupDetail.State) -> String {
        var parts: [String] =
            switch state.destination {
            case nil: ["screen"]
            case .edit(let form): [form.standup.title == Standup.mock.title ? "form" : "form, edited"]
            case .question(.deleteMeeting): ["asks: delete meeting?"]
            case .question(let question): ["asks: \(question)"]
            }
        if state.isCheckingSpeech { parts.append("checking speech") }
        if state.isDeletedElsewhere { parts.append("deleted elsewhere") }
        if state.standup.meetings.isEmpty { parts.append("no meetings") }
        switch state.request {
        case .save(.edit)?: parts.append("→ save edit")
        case .save(.deleteMeeting)?: parts.append("→ delete meeting")
        case .save?: parts.append("→ save")
        case .deleteStandup?: parts.append("→ delete stand-up")
        case .startMeeting(_, let isRecording)?: parts.append(isRecording ? "→ record meeting" : "→ meeting")
        case .openMeeting?: parts.append("→ open meeting")
        case .close?: parts.append("→ close")
        case nil: break
        }
        return parts.joined(separator: " · ")
    }

    @Test(arguments: [SpeechAuthorization.authorized, .denied, .restricted])
    func everyTransitionIsTaken(by authorization: SpeechAuthorization) async {
        let graph = await StateGraph.explore(
            StandupDetail.self, from: StandupDetail.State(standup: .mock), events: Self.events,
            env: { StandupDetail.Env(speech: .mock(authorization: authorization), openSettings: {}) },
            node: Self.node, maxStates: 200)
        graph.requireComplete()
        let coverage = await graph.verifyTransitions()
        print("Transition coverage (recogniser \(authorization)): \(coverage)")
        #expect(coverage.covered == coverage.found && coverage.found > 10)
    }
}
