// The form that adds or edits a stand-up, in SwiftUI: title, length, theme
// and attendees (add, remove). Every change is an event of the form,
// whichever parent embeds it (the list when adding, a stand-up's screen
// when editing).

#if canImport(SwiftUI)
import Foundation
import Models
import Oak
import StandupForm
import SwiftUI

/// The form of a stand-up being added or edited. Its events go to the
/// parent that embeds the form, through `send`.
public struct StandupFormView<Event>: View {
    /// The form's state drawn.
    public let form: StandupForm.State
    /// The intent of the parent that carries an event of the form.
    public let send: (StandupForm.Event) -> Intent<Event>

    /// A view of `form` whose events go through `send`.
    public init(_ form: StandupForm.State, send: @escaping (StandupForm.Event) -> Intent<Event>) {
        self.form = form
        self.send = send
    }

    /// The stand-up's title, length and theme, and its attendees.
    public var body: some View {
        let standup = form.standup
        Form {
            Section("Stand-up info") {
                TextField("Title", text: binding(standup.title) { send(.setTitle($0)) })
                Stepper(
                    "Length: \(standup.minutes) min", value: binding(standup.minutes) { send(.setMinutes($0)) },
                    in: Standup.minMinutes...Standup.maxMinutes)
                Picker("Theme", selection: binding(standup.theme) { send(.setTheme($0)) }) {
                    ForEach(Theme.allCases) { theme in
                        ThemeLabel(theme: theme).tag(theme)
                    }
                }
            }
            Section("Attendees") {
                ForEach(standup.attendees) { attendee in
                    HStack {
                        TextField("Name", text: binding(attendee.name) { send(.setName($0, of: attendee.id)) })
                        Button(role: .destructive) {
                            send(.removeAttendee(attendee.id))()
                        } label: {
                            Label("Remove", systemImage: "minus.circle")
                        }
                    }
                }
                Button {
                    send(.addAttendee(UUID()))()
                } label: {
                    Label("Add attendee", systemImage: "person.badge.plus")
                }
            }
        }
    }
}
#endif
