// A stand-up's form in a terminal (adding or editing): its fields as
// text fields, and the keys that move between them and finish.

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
}
