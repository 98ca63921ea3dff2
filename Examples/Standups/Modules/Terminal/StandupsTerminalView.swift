// The whole app in a terminal: a title bar, the screen on top of the stack
// (the list, a stand-up, a meeting, a past meeting), its sheet or question
// as a dialog, and a status bar with the keys valid now. Every key goes to
// an intent made for the state drawn: a key that makes no sense now does
// nothing.

import AppFeature
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
import StandupsProvider
import TerminalUI

/// Draws the app and maps keys to intents.
@MainActor
public enum StandupsTerminalView {
    /// The screen of `state` hosted by `host`, in `context`;
    /// `speechUnavailable` says what keeps speech from being recognised
    /// here, if something does.
    public static func screen(
        _ state: AppFeature.State, host: ObservableTransducer<AppFeature>, context: ScreenContext,
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
        _ state: AppFeature.State, intents: StandupsIntents, width: Int, height: Int,
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
    static func isAsking(_ state: AppFeature.State) -> Bool {
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

    // MARK: The list

    static func renderList(
        _ state: AppFeature.State, app: Intents<AppFeature, AppFeature.Scope>, newID: @escaping () -> UUID,
        on canvas: inout Canvas
    ) -> [KeyBinding] {
        var bindings: [KeyBinding] = []
        switch state.data.phase {
        case .idle, .loading:
            canvas.add("Loading your stand-ups…", .dim)
            return bindings
        case .failed(let failure):
            canvas.add(failure.summary, .error)
            canvas.addWrapped(failure.detail, .dim)
            canvas.skip()
            guard failure.isDamaged else {
                // Away (locked, busy, unreachable), not damaged: nothing
                // offers to replace the stand-ups.
                canvas.addWrapped("Your stand-ups are kept. Trying again by itself.")
                bindings.append(KeyBinding([.character("r")], "try again", intent: app(.retryLoad)))
                return bindings
            }
            canvas.addWrapped(
                "The damaged file is kept aside, untouched. Start over with an empty list or with the samples.")
            bindings.append(KeyBinding([.character("e")], "start empty", intent: app(.startOver(withSamples: false))))
            bindings.append(
                KeyBinding([.character("s")], "start with samples", intent: app(.startOver(withSamples: true))))
            return bindings
        case .loaded:
            break
        }
        let standups = state.data.standups
        if standups.isEmpty {
            canvas.add("No stand-ups yet.")
            canvas.add("Press a to add one.", .dim)
        } else {
            // As many cards as fit, scrolled to keep the selection shown.
            let perCard = 3
            let fit = max((canvas.height - 5) / perCard, 1)
            let first = min(max(state.list.selection - fit + 1, 0), max(standups.count - fit, 0))
            for (index, standup) in standups.enumerated().dropFirst(first).prefix(fit) {
                for line in TerminalComponents.card(
                    standup, isSelected: index == state.list.selection, width: canvas.width)
                {
                    canvas.add(line)
                }
                canvas.skip()
            }
            let count = standups.count
            let selection = state.list.selection
            bindings.append(
                KeyBinding(
                    [.up], "select", inStatusBar: false, intent: app(.list(.select(selection - 1, count: count)))))
            bindings.append(
                KeyBinding(
                    [.down], "select", inStatusBar: false, intent: app(.list(.select(selection + 1, count: count)))))
            if standups.indices.contains(state.list.selection) {
                bindings.append(KeyBinding([.enter], "open", intent: app(.open(standups[state.list.selection].id))))
            }
        }
        bindings.append(
            KeyBinding([.character("a")], "add") {
                await app(.list(.add(newID(), attendee: newID()))).perform()
            })
        // For the status bar only: the keys above are found first.
        if !standups.isEmpty { bindings.append(KeyBinding([.up, .down], "select") {}) }
        return bindings
    }

    // MARK: The form

    /// Draws the form; returns the focused text field's input, if a text
    /// field has the focus.
    static func renderForm<Event>(
        _ form: StandupForm.State, on canvas: inout Canvas, send: @escaping (StandupForm.Event) -> Intent<Event>
    ) -> TextFieldInput? {
        let width = canvas.width
        let standup = form.standup
        canvas.add(
            TerminalComponents.textField(
                "Title", EditableText(standup.title, cursor: form.focus == .title ? form.cursor : nil),
                isFocused: form.focus == .title, placeholder: "Title", width: width))
        canvas.add(TerminalComponents.picker("Length", "\(standup.minutes) min", isFocused: form.focus == .length))
        canvas.add(
            TerminalComponents.picker(
                "Theme", " \(standup.theme.name) ", isFocused: form.focus == .theme, style: standup.theme.style))
        canvas.skip()
        canvas.add("  Attendees", .bold)
        for (index, attendee) in standup.attendees.enumerated() {
            let isFocused = form.focus == .attendee(attendee.id)
            canvas.add(
                TerminalComponents.textField(
                    "  \(index + 1).", EditableText(attendee.name, cursor: isFocused ? form.cursor : nil),
                    isFocused: isFocused, placeholder: "Name", width: width))
        }
        canvas.skip()
        canvas.add(
            "  Tab/↓ next field  ←/→ change  Ctrl-N add attendee  Ctrl-D remove attendee  Enter done  Esc cancel",
            .dim)
        guard form.focusedText != nil else { return nil }
        return TextFieldInput { edit in await send(.edit(edit)).perform() }
    }

    /// The form's keys besides typing.
    static func formBindings<Event>(
        _ form: StandupForm.State, newID: @escaping () -> UUID, send: @escaping (StandupForm.Event) -> Intent<Event>
    ) -> [KeyBinding] {
        var bindings = [
            KeyBinding([.tab, .down], "next field", inStatusBar: false, intent: send(.focusNext)),
            KeyBinding([.backTab, .up], "previous field", inStatusBar: false, intent: send(.focusPrevious)),
            KeyBinding([.control("n")], "add attendee", inStatusBar: false) {
                await send(.addAttendee(newID())).perform()
            },
        ]
        switch form.focus {
        case .length:
            bindings.append(
                KeyBinding(
                    [.left, .character("-")], "shorter", inStatusBar: false, intent: send(.changeMinutes(by: -1))))
            bindings.append(
                KeyBinding(
                    [.right, .character("+")], "longer", inStatusBar: false, intent: send(.changeMinutes(by: 1))))
        case .theme:
            bindings.append(
                KeyBinding([.left], "previous theme", inStatusBar: false, intent: send(.changeTheme(by: -1))))
            bindings.append(KeyBinding([.right], "next theme", inStatusBar: false, intent: send(.changeTheme(by: 1))))
        case .attendee(let id):
            bindings.append(
                KeyBinding([.control("d")], "remove attendee", inStatusBar: false, intent: send(.removeAttendee(id))))
        case .title:
            break
        }
        return bindings
    }

    // MARK: A stand-up

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

    // MARK: The meeting

    static func renderMeeting(
        _ meeting: RecordMeeting.State, intents: Intents<RecordMeeting, RecordMeeting.Scope>?,
        on canvas: inout Canvas
    ) -> [KeyBinding] {
        let width = canvas.width
        let style = meeting.standup.theme.style
        let bar = meeting.standup.theme.barStyle
        let schedule = meeting.schedule
        canvas.add(
            Line([
                Span("  "),
                Span(
                    TerminalComponents.padded(
                        " Elapsed \(TerminalComponents.duration(meeting.secondsElapsed))"
                            + "    Remaining \(TerminalComponents.duration(meeting.secondsRemaining))",
                        to: max(width - 4, 8)), style),
            ]))
        let fraction =
            schedule.durationSeconds > 0 ? Double(meeting.secondsElapsed) / Double(schedule.durationSeconds) : 1
        canvas.add(Line([Span("  ")] + TerminalComponents.progressBar(fraction, width: width - 4, style: bar).spans))
        canvas.skip()
        let count = meeting.standup.attendees.count
        if let speaker = meeting.speaker {
            let name = speaker.name.isEmpty ? "Speaker \(meeting.speakerIndex + 1)" : speaker.name
            canvas.add(
                Line([
                    Span("  Speaker \(meeting.speakerIndex + 1) of \(count): "), Span(name, .bold),
                    Span("   \(TerminalComponents.duration(meeting.speakerSecondsRemaining)) left"),
                ]))
        }
        canvas.add(
            Line(
                [Span("  ")]
                    + TerminalComponents.speakerSegments(
                        count: count, current: meeting.speakerIndex, width: width - 4, style: bar
                    ).spans))
        canvas.skip()
        switch meeting.recognition {
        case .listening: canvas.add("  ● Recording", .error)
        case .off: canvas.add(meeting.isRecording ? "  Starting the recogniser…" : "  Not recording", .dim)
        case .ended: canvas.add("  The audio has ended.", .dim)
        case .failed(let failure): canvas.add("  Speech recognition failed: \(failure)", .error)
        }
        if !meeting.transcript.isEmpty {
            let lines = Canvas.wrap(meeting.transcript, width: max(width - 4, 8))
            for line in lines.suffix(3) { canvas.add("  " + line, .dim) }
        }
        switch meeting.ending {
        case .saving, .saved:
            canvas.skip()
            canvas.add("  Saving the meeting…", .bold)
            return []
        case .discarded:
            return []
        case nil:
            break
        }
        guard let intents else { return [] }
        switch meeting.question {
        case .endMeeting(let isDiscardable)?:
            TerminalComponents.dialog(
                "End meeting?",
                message: isDiscardable
                    ? "Save it with its transcript, discard it, or resume."
                    : "Save it with its transcript, or resume.",
                answers: isDiscardable ? ["s save and end", "d discard", "r resume"] : ["s save and end", "r resume"],
                on: &canvas)
            var bindings = [
                KeyBinding([.character("s")], "save and end", intent: intents(.confirmSave)),
                KeyBinding([.character("r"), .escape], "resume", intent: intents(.resume)),
            ]
            if isDiscardable {
                bindings.insert(KeyBinding([.character("d")], "discard", intent: intents(.confirmDiscard)), at: 1)
            }
            return bindings
        case .speechFailed?:
            TerminalComponents.dialog(
                "Speech recognition failed",
                message: "The transcript stops here. Continue the meeting without it, or discard the meeting.",
                answers: ["c continue", "d discard"], on: &canvas)
            return [
                KeyBinding([.character("c"), .escape], "continue", intent: intents(.resume)),
                KeyBinding([.character("d")], "discard", intent: intents(.confirmDiscard)),
            ]
        case nil:
            return [
                KeyBinding([.character("n"), .right], meeting.isLastSpeaker ? "end" : "next", intent: intents(.next)),
                KeyBinding([.character("e"), .escape], "end meeting", intent: intents(.endMeeting)),
            ]
        }
    }

    // MARK: Saving

    /// A failed write, with the key that tries again.
    static func renderSaving(
        _ state: AppFeature.State, app: Intents<AppFeature, AppFeature.Scope>, bindings: inout [KeyBinding],
        on canvas: inout Canvas
    ) {
        guard let failure = state.data.failure, state.data.phase == .loaded else { return }
        let row = max(canvas.height - 3, canvas.lines.count)
        while canvas.lines.count < row { canvas.skip() }
        canvas.add(" Not saved yet: \(failure.summary) Trying again by itself  (r now)", .error)
        bindings.append(KeyBinding([.character("r")], "retry save", inStatusBar: false, intent: app(.retrySave)))
    }
}
