// A stand-up in a terminal: its attendees and past meetings, and the
// keys that start a meeting, edit and delete.

import Common
import Components
import Foundation
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsIntents
import StandupsList
import StandupsMain
import StandupsProvider
import TerminalUI

extension MainTerminalView {
    static func renderDetail(
        _ detail: StandupDetail.State, isMeetingRunning: Bool = false,
        intents: Intents<StandupDetail, StandupDetail.Scope>,
        newID: @escaping () -> UUID, speechUnavailable: String? = nil, on canvas: inout Canvas
    ) -> ([KeyBinding], TextFieldInput?) {
        if case .edit(let form) = detail.destination {
            let field = renderForm(form, on: &canvas) { intents(.form($0)) }
            var bindings = formBindings(form, newID: newID) { intents(.form($0)) }
            bindings.append(KeyBinding([.enter], "done", intent: intents(.doneEditing)))
            bindings.append(KeyBinding([.escape], "cancel", intent: intents(.cancelEdit)))
            return (bindings, field)
        }
        let standup = detail.standup
        for line in TerminalComponents.card(standup, isSelected: false, width: canvas.width) { canvas.add(line) }
        canvas.skip()
        canvas.add(
            detail.isCheckingSpeech
                ? "  Starting the meeting…"
                : isMeetingRunning ? "  s  Join the meeting in progress" : "  s  Start meeting",
            .bold)
        canvas.skip()
        canvas.add("  Attendees", .bold)
        let names = standup.attendees.map { $0.name.isEmpty ? "(no name)" : $0.name }.plainJoined(separator: ", ")
        for line in Canvas.wrap(names, width: max(canvas.width - 4, 8), maxLines: 3) { canvas.add("    " + line) }
        canvas.skip()
        canvas.add("  Past meetings", .bold)
        if standup.meetings.isEmpty {
            canvas.add("  None yet.", .dim)
        }
        let room = max(canvas.height - canvas.lines.count - 2, 1)
        let first = min(max(detail.selection - room + 1, 0), max(standup.meetings.count - room, 0))
        for (index, meeting) in standup.meetings.enumerated().dropFirst(first).prefix(room) {
            let isSelected = index == detail.selection
            canvas.add(
                Line([
                    Span(isSelected ? "  ▶ " : "    ", .bold),
                    Span(TerminalComponents.date(meeting.date), isSelected ? .reverse : .normal),
                ]))
        }

        var bindings = [
            KeyBinding(
                [.character("s")], isMeetingRunning ? "join meeting" : "start meeting", intent: intents(.startMeeting)),
            KeyBinding([.character("e")], "edit", intent: intents(.edit)),
            KeyBinding([.character("d")], "delete", intent: intents(.delete)),
        ]
        if standup.meetings.indices.contains(detail.selection) {
            let meeting = standup.meetings[detail.selection]
            bindings += [
                KeyBinding([.up], "select", inStatusBar: false, intent: intents(.select(detail.selection - 1))),
                KeyBinding([.down], "select", inStatusBar: false, intent: intents(.select(detail.selection + 1))),
                KeyBinding([.enter], "open meeting", intent: intents(.openMeeting(meeting.id))),
                KeyBinding([.character("x")], "delete meeting", intent: intents(.deleteMeeting(meeting.id))),
            ]
        }
        guard case .question(let question) = detail.destination else { return (bindings, nil) }
        // A question: only its answers.
        switch question {
        case .deleteStandup:
            TerminalComponents.dialog(
                "Delete “\(title(standup))”?", message: "Its past meetings are deleted with it.",
                answers: ["y delete", "n keep"], on: &canvas)
            bindings = [
                KeyBinding([.character("y")], "delete", intent: intents(.confirmDeletion)),
                KeyBinding([.character("n"), .escape], "keep", intent: intents(.dismissQuestion)),
            ]
        case .deleteMeeting:
            TerminalComponents.dialog(
                "Delete this meeting?", message: "Its transcript is deleted with it.",
                answers: ["y delete", "n keep"], on: &canvas)
            bindings = [
                KeyBinding([.character("y")], "delete", intent: intents(.confirmDeletion)),
                KeyBinding([.character("n"), .escape], "keep", intent: intents(.dismissQuestion)),
            ]
        case .speechDenied:
            TerminalComponents.dialog(
                "Speech recognition is off",
                message: "You turned speech recognition off (--no-speech), so the meeting will not be recorded.",
                answers: ["c continue without recording", "Esc cancel"], on: &canvas)
            bindings = [
                KeyBinding([.character("c")], "continue", intent: intents(.continueWithoutRecording)),
                KeyBinding([.escape], "cancel", intent: intents(.dismissQuestion)),
            ]
        case .speechRestricted:
            TerminalComponents.dialog(
                "Speech recognition is unavailable",
                message: Self.speechUnavailableMessage(speechUnavailable),
                answers: ["c continue without recording", "Esc cancel"], on: &canvas)
            bindings = [
                KeyBinding([.character("c")], "continue", intent: intents(.continueWithoutRecording)),
                KeyBinding([.escape], "cancel", intent: intents(.dismissQuestion)),
            ]
        }
        return (bindings, nil)
    }

    /// What the "unavailable" dialog says: what is missing, if known, and
    /// what to do instead.
    static func speechUnavailableMessage(_ reason: String?) -> String {
        "This machine cannot recognise speech"
            + (reason.map { ": \($0.plainText)." } ?? " (pocketsphinx, its English model or a microphone is missing).")
            + " The meeting will not be recorded. To transcribe a recording instead, start the app with "
            + "--audio FILE (a 16 kHz mono WAV file)."
    }
}
