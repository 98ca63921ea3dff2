// The form that adds or edits a stand-up: title, length, theme and
// attendees, with the focus and a text cursor in state. A pure transducer:
// its parent (the list when adding, the detail when editing) embeds it,
// works on a copy, and takes the copy (validated) on Done.

import Common
import Foundation
import Models
import Oak

/// The StandupForm transducer.
public enum StandupForm: Transducer {
    /// What has the focus.
    public enum Field: Equatable, Hashable, Sendable {
        /// The title.
        case title
        /// The length.
        case length
        /// The theme.
        case theme
        /// An attendee's name.
        case attendee(Attendee.ID)
    }

    /// The form's state.
    public struct State: NonTerminal, Equatable, Hashable, Sendable {
        /// The stand-up being edited (a copy).
        public var standup: Standup
        /// What has the focus.
        public var focus: Field
        /// The cursor in the focused text field (title or attendee).
        public var cursor: Int

        /// A form for `standup`, the title focused, the cursor at its end;
        /// a stand-up with no attendees gets a blank one, `blankAttendee`
        /// (the stand-up's id by default).
        public init(standup: Standup, blankAttendee: Attendee.ID? = nil) {
            var standup = standup
            if standup.attendees.isEmpty {
                standup.attendees.append(Attendee(id: blankAttendee ?? standup.id))
            }
            self.standup = standup
            self.focus = .title
            self.cursor = standup.title.count
        }

        /// The fields in focus order.
        public var fields: [Field] {
            [.title, .length, .theme] + standup.attendees.map { .attendee($0.id) }
        }

        /// The focused text and its cursor, when a text field has the focus.
        public var focusedText: EditableText? {
            switch focus {
            case .title: EditableText(standup.title, cursor: cursor)
            case .attendee(let id): standup.attendees[id: id].map { EditableText($0.name, cursor: cursor) }
            case .length, .theme: nil
            }
        }
    }

    /// What a page's form posts, all at once: the values of the fields it
    /// sent. A field not sent (`nil`, or an attendee without a name) is
    /// kept as it is; an attendee the form no longer has is ignored.
    public struct Fields: Equatable, Sendable {
        /// The title typed.
        public var title: String?
        /// The length chosen, in minutes (kept within 5…30).
        public var minutes: Int?
        /// The theme chosen.
        public var theme: Theme?
        /// The attendees' names typed, by attendee.
        public var names: [Attendee.ID: String]

        /// The values of a form's fields.
        public init(title: String? = nil, minutes: Int? = nil, theme: Theme? = nil, names: [Attendee.ID: String] = [:])
        {
            self.title = title
            self.minutes = minutes
            self.theme = theme
            self.names = names
        }
    }

    /// What happens to the form.
    public enum Event: Equatable, Sendable {
        /// Set every field a page's form posted, in one event, whatever
        /// their number (a form is one intent of the user, not one per
        /// field).
        case fill(Fields)
        /// Focus a field (the cursor goes to its end).
        case focus(Field)
        /// Focus the next field.
        case focusNext
        /// Focus the previous field.
        case focusPrevious
        /// Edit the focused text field.
        case edit(TextEdit)
        /// Set the title (a page sends the whole value).
        case setTitle(String)
        /// Set an attendee's name.
        case setName(String, of: Attendee.ID)
        /// Set the length in minutes (kept within 5…30).
        case setMinutes(Int)
        /// One minute longer, or shorter (`by: -1`).
        case changeMinutes(by: Int)
        /// Set the theme.
        case setTheme(Theme)
        /// The next theme, or the previous one (`by: -1`).
        case changeTheme(by: Int)
        /// Add a blank attendee with this id after the others, focused.
        case addAttendee(Attendee.ID)
        /// Remove an attendee; the next one (or the previous) gets the
        /// focus; removing the last one leaves it, blank.
        case removeAttendee(Attendee.ID)
    }

    /// The transitions.
    public static func update(_ state: inout State, event: Event) {
        switch event {
        case .fill(let fields):
            if let title = fields.title { update(&state, event: .setTitle(title)) }
            if let minutes = fields.minutes { update(&state, event: .setMinutes(minutes)) }
            if let theme = fields.theme { update(&state, event: .setTheme(theme)) }
            for attendee in state.standup.attendees {
                if let name = fields.names[attendee.id] { update(&state, event: .setName(name, of: attendee.id)) }
            }
        case .focus(let field):
            focus(field, &state)
        case .focusNext, .focusPrevious:
            let fields = state.fields
            let index = fields.firstIndex(of: state.focus) ?? 0
            let step = event == .focusNext ? 1 : -1
            focus(fields[(index + step + fields.count) % fields.count], &state)
        case .edit(let edit):
            guard var text = state.focusedText else { return }
            switch state.focus {
            case .title:
                text.apply(edit, limit: Standup.maxTitleLength)
                state.standup.title = text.text
            case .attendee(let id):
                text.apply(edit, limit: Attendee.maxNameLength)
                state.standup.attendees[id: id]?.name = text.text
            case .length, .theme:
                return
            }
            state.cursor = text.cursor
        case .setTitle(let title):
            state.standup.title = clean(title, limit: Standup.maxTitleLength)
            if state.focus == .title { state.cursor = state.standup.title.count }
        case .setName(let name, let id):
            guard state.standup.attendees[id: id] != nil else { return }
            state.standup.attendees[id: id]?.name = clean(name, limit: Attendee.maxNameLength)
            if state.focus == .attendee(id) { state.cursor = state.standup.attendees[id: id]?.name.count ?? 0 }
        case .setMinutes(let minutes):
            state.standup.durationSeconds = min(max(minutes, Standup.minMinutes), Standup.maxMinutes) * 60
        case .changeMinutes(let step):
            update(&state, event: .setMinutes(state.standup.durationSeconds / 60 + step))
        case .setTheme(let theme):
            state.standup.theme = theme
        case .changeTheme(let step):
            let themes = Theme.allCases
            let index = themes.firstIndex(of: state.standup.theme) ?? 0
            state.standup.theme = themes[((index + step) % themes.count + themes.count) % themes.count]
        case .addAttendee(let id):
            guard state.standup.attendees[id: id] == nil else { return }
            state.standup.attendees.append(Attendee(id: id))
            focus(.attendee(id), &state)
        case .removeAttendee(let id):
            guard let index = state.standup.attendees.index(id: id) else { return }
            guard state.standup.attendees.count > 1 else {
                // Never zero attendees: the last one stays, blank.
                state.standup.attendees[id: id]?.name = ""
                focus(.attendee(id), &state)
                return
            }
            state.standup.attendees.remove(id: id)
            let next = state.standup.attendees[min(index, state.standup.attendees.count - 1)]
            focus(.attendee(next.id), &state)
        }
    }

    static func focus(_ field: Field, _ state: inout State) {
        if case .attendee(let id) = field, state.standup.attendees[id: id] == nil { return }
        state.focus = field
        state.cursor = state.focusedText?.text.count ?? 0
    }

    static func clean(_ text: String, limit: Int) -> String {
        var field = EditableText("")
        field.apply(.insert(text), limit: limit)
        return field.text
    }
}
