// A stand-up's form in a page (adding or editing): one form whose fields
// arrive as one intent, and how the posted fields are read back.

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
import WebUI

extension MainWebView {
    /// The stand-up's form: its buttons send what was typed as one event
    /// (`send`), then their own intent (`done`, `cancel`, adding or removing
    /// an attendee).
    static func form<Event>(
        _ form: StandupForm.State, isNew: Bool, send: @escaping (StandupForm.Event) -> Intent<Event>,
        done: @autoclosure @escaping () -> Intent<Event>, cancel: @autoclosure @escaping () -> Intent<Event>,
        newID: @escaping () -> UUID, context: WebContext
    ) -> HTML {
        let standup = form.standup
        // Each button first applies the fields typed (kept whatever was
        // pressed), then performs its own intent.
        func submit(_ key: String, _ intent: @escaping () -> Intent<Event>) -> String {
            context.bind(key) { posted in
                let filled = send(.fill(fields(of: posted, for: form)))()
                return filled == .sent ? intent()() : filled
            }
        }
        let doneKey = submit("form.done", done)
        let themes = Theme.allCases.map { theme in
            HTML(
                "<option value=\"\(theme.rawValue)\"\(theme == standup.theme ? HTML(" selected") : .empty)>\(theme.name)</option>"
            )
        }
        let attendees = standup.attendees.enumerated().map { index, attendee in
            HTML(
                """
                <li><input type="text" name="attendee.\(attendee.id.uuidString)" value="\(attendee.name)" \
                maxlength="\(Attendee.maxNameLength)" aria-label="Attendee \(index + 1)" placeholder="Name">\
                <button type="submit" name="intent" \
                value="\(submit("form.removeAttendee:\(attendee.id.uuidString)", { send(.removeAttendee(attendee.id)) }))" \
                class="remove" aria-label="Remove attendee \(index + 1)">Remove</button></li>
                """)
        }
        return """
            <section class="form" id="standup-form"><h2>\(isNew ? "New stand-up" : "Edit \(name(standup))")</h2>
            <form method="post" action="\(WebPage.intentPath)" class="intent edit">\
            <input type="hidden" name="token" value="\(context.token)">\
            <button type="submit" name="intent" value="\(doneKey)" class="default" tabindex="-1" \
            aria-hidden="true">Done</button>\
            <label>Title <input type="text" name="title" value="\(standup.title)" \
            maxlength="\(Standup.maxTitleLength)" placeholder="Title"></label>
            <label>Length <input type="number" name="minutes" min="\(Standup.minMinutes)" \
            max="\(Standup.maxMinutes)" value="\(standup.minutes)"> min</label>
            <label>Theme <select name="theme">\(HTML.join(themes))</select></label>
            <fieldset><legend>Attendees</legend><ol class="attendees">\(HTML.join(attendees))</ol>
            <button type="submit" name="intent" \
            value="\(submit("form.addAttendee", { send(.addAttendee(newID())) }))">Add attendee</button></fieldset>
            <p class="actions"><button type="submit" name="intent" value="\(doneKey)" class="primary">\
            \(isNew ? "Add" : "Done")</button>\
            <button type="submit" name="intent" value="\(context.bind("form.cancel", to: cancel()))" \
            formnovalidate>Cancel</button></p>
            </form></section>
            """
    }

    /// What a post of the stand-up's form typed, for the attendees of
    /// `form`: one event's worth, whatever the number of fields.
    static func fields(of posted: WebForm, for form: StandupForm.State) -> StandupForm.Fields {
        let fields = posted.fields
        var names: [Attendee.ID: String] = [:]
        for attendee in form.standup.attendees {
            if let name = fields["attendee.\(attendee.id.uuidString)"] { names[attendee.id] = name }
        }
        return StandupForm.Fields(
            title: fields["title"], minutes: fields["minutes"].flatMap { Int($0) },
            theme: fields["theme"].flatMap(Theme.init(rawValue:)), names: names)
    }
}
