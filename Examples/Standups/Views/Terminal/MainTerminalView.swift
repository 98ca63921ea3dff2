// The whole app in a terminal: a title bar, the screen on top of the stack
// (the list, a stand-up, a meeting, a past meeting), its sheet or question
// as a dialog, and a status bar with the keys valid now. Every key goes to
// an intent made for the state drawn: a key that makes no sense now does
// nothing.

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

/// Draws the app and maps keys to intents.
@MainActor
public enum MainTerminalView {
    /// The screen of `state` hosted by `host`, in `context`;
    /// `speechUnavailable` says what keeps speech from being recognised
    /// here, if something does.
    public static func screen(
        _ state: Main.State, host: ObservableTransducer<Main>, context: ScreenContext,
        speechUnavailable: String? = nil
    ) -> Screen {
        screen(
            state, intents: StandupsIntents(for: state, proxy: host.proxy) { host.state }, width: context.width,
            height: context.height, newID: UUID.init, speechUnavailable: speechUnavailable)
    }

    /// The screen for `state` on a terminal of `width` × `height`, with the
    /// keys valid there; `newID` makes the identifiers of stand-ups and
    /// attendees the user adds.
    public static func screen(
        _ state: Main.State, intents: StandupsIntents, width: Int, height: Int,
        newID: @escaping () -> UUID, speechUnavailable: String? = nil
    ) -> Screen {
        var canvas = Canvas(width: width, height: height)
        var bindings: [KeyBinding] = []
        var textField: TextFieldInput?
        let app = intents.app

        switch state.top {
        case nil:
            if let form = state.list.adding {
                canvas.add(" Oak Standups · new stand-up", .reverse)
                canvas.skip()
                textField = renderForm(form, on: &canvas) { app(.list(.form($0))) }
                bindings += formBindings(form, newID: newID) { app(.list(.form($0))) }
                bindings.append(KeyBinding([.enter], "add", intent: app(.list(.confirmAdd))))
                bindings.append(KeyBinding([.escape], "cancel", intent: app(.list(.dismissAdd))))
            } else {
                canvas.add(" Oak Standups · stand-ups", .reverse)
                canvas.skip()
                bindings += renderList(state, app: app, newID: newID, on: &canvas)
            }
        case .detail(let child):
            let detail = child.state
            canvas.add(" Oak Standups · " + title(detail.standup), .reverse)
            canvas.skip()
            if let address = state.meetingElsewhere {
                canvas.addWrapped(
                    "This stand-up's meeting runs elsewhere (\(address)); it is not started here too.", .error)
                canvas.skip()
            }
            if detail.isDeletedElsewhere {
                canvas.addWrapped(StandupDetail.State.deletedWhileEditing, .error)
                canvas.skip()
            }
            let conflicts = detail.destination == nil ? state.data.conflicts[detail.standup.id] ?? [] : []
            if !conflicts.isEmpty {
                canvas.add("Edited in two places at once:", .error)
                for conflict in conflicts { canvas.addWrapped("  " + conflict.sentence(in: detail.standup)) }
                canvas.add(
                    StandupConflict.canTakeTheirs(conflicts) ? "  t  use theirs   k  ok" : "  k  ok", .bold)
                canvas.skip()
            }
            if let intents = intents.detail {
                (bindings, textField) = renderDetail(
                    detail, isMeetingRunning: state.meetingsRunning.contains(detail.standup.id), intents: intents,
                    newID: newID, speechUnavailable: speechUnavailable, on: &canvas)
            }
            if !conflicts.isEmpty {
                let id = detail.standup.id
                if StandupConflict.canTakeTheirs(conflicts) {
                    bindings.append(
                        KeyBinding([.character("t")], "use theirs", inStatusBar: false, intent: app(.takeTheirs(id))))
                }
                // Shown with the notice, not in the full status bar.
                bindings.append(
                    KeyBinding([.character("k")], "ok", inStatusBar: false, intent: app(.dismissConflicts(id))))
            }
            if detail.destination == nil {
                bindings.append(KeyBinding([.escape, .left], "back", intent: app(.back)))
            }
        case .meeting(let room):
            let meeting = room.state
            canvas.add(" Oak Standups · " + title(meeting.standup) + " · meeting", .reverse)
            canvas.skip()
            bindings += renderMeeting(meeting, intents: intents.meeting, on: &canvas)
        case .pastMeeting(let meetingID, let standupID):
            let standup = state.data.standups[id: standupID]
            canvas.add(" Oak Standups · " + (standup.map(title) ?? "stand-up") + " · past meeting", .reverse)
            canvas.skip()
            if let standup, let meeting = standup.meetings[id: meetingID] {
                canvas.add(TerminalComponents.date(meeting.date), .bold)
                canvas.skip()
                canvas.add("Attendees", .bold)
                let names = standup.attendees.map { $0.name.isEmpty ? "(no name)" : $0.name }.plainJoined(
                    separator: ", ")
                for line in Canvas.wrap(names, width: max(width - 2, 8), maxLines: 3) { canvas.add(line) }
                canvas.skip()
                if meeting.transcript.isEmpty {
                    canvas.add("No transcript: the meeting was not recorded.", .dim)
                } else {
                    canvas.add("Transcript", .bold)
                    // Whole: a transcript taller than the terminal scrolls
                    // (↑ ↓ PgUp PgDn Home End), its cuts marked.
                    canvas.addWrapped(meeting.transcript)
                }
            }
            bindings.append(KeyBinding([.escape, .left], "back", intent: app(.back)))
        }

        renderSaving(state, app: app, bindings: &bindings, on: &canvas)
        // While a text field has the focus "q" is typed; while a question
        // is open only its answers (and Ctrl-C) count.
        if textField == nil, !isAsking(state) {
            bindings.append(KeyBinding([.character("q")], "quit", intent: app(.quit)))
        }
        bindings.append(KeyBinding([.interrupt], "quit", inStatusBar: false, intent: app(.quit)))
        canvas.status = Line(
            state.isQuitting
                ? " Saving before quitting…  (q or Ctrl-C again: quit now)"
                : " " + bindings.filter(\.isShownInStatusBar).map(\.summary).joined(separator: "  "), .reverse)
        return Screen(canvas: canvas, bindings: bindings, textField: textField)
    }

    /// Whether the screen on top asks a question.
    static func isAsking(_ state: Main.State) -> Bool {
        switch state.top {
        case .detail(let child): if case .question = child.state.destination { true } else { false }
        case .meeting(let room): room.state.question != nil
        case .pastMeeting, nil: false
        }
    }

    /// The stand-up's title, made plain on its own (`plainText`):
    /// whatever it is put with is not swallowed by an escape sequence
    /// stored in it.
    static func title(_ standup: Standup) -> String {
        standup.title.isEmpty ? "Untitled" : standup.title.plainText
    }

    // MARK: Saving

    /// A failed write, with the key that tries again; changes not yet
    /// durable, while they are written.
    static func renderSaving(
        _ state: Main.State, app: Intents<Main, Main.Scope>, bindings: inout [KeyBinding],
        on canvas: inout Canvas
    ) {
        let failure = state.data.phase == .loaded ? state.data.failure : nil
        guard failure != nil || state.isSaving else { return }
        let row = max(canvas.height - 3, canvas.lines.count)
        while canvas.lines.count < row { canvas.skip() }
        guard let failure else {
            canvas.add(" Saving…", .dim)
            return
        }
        canvas.add(" Not saved yet: \(failure.summary) Trying again by itself  (r now)", .error)
        bindings.append(KeyBinding([.character("r")], "retry save", inStatusBar: false, intent: app(.retrySave)))
    }
}
