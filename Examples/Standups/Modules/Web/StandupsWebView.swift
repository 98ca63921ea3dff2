// The whole app in a web page, rendered on the server: the screen on top of
// the stack (the list, a stand-up, a meeting, a past meeting) with its sheet
// or question, as HTML forms that post intents by name. `perform` turns a
// posted name (and its fields) into that intent of the state the page was
// made for; a form that makes no sense now does nothing. No feature logic
// here: only names to intents, and text escaped on its way into the page.

import AppFeature
import Foundation
import Models
import Oak
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsIntents
import StandupsList
import StandupsProvider
import WebUI

/// Renders the app as HTML and performs the intents its forms post.
public enum StandupsWebView {
    /// The page's title for `state`.
    public static func title(_ state: AppFeature.State) -> String {
        switch state.top {
        case nil: state.list.adding == nil ? "Oak Standups" : "New stand-up · Oak Standups"
        case .detail(_, let detail): "\(name(detail.standup)) · Oak Standups"
        case .meeting(_, let meeting): "Meeting · \(name(meeting.standup)) · Oak Standups"
        case .pastMeeting: "Past meeting · Oak Standups"
        }
    }

    /// Whether `state` is worth a session's first page: the stand-ups are
    /// loaded, or loading them failed.
    public static func isSettled(_ state: AppFeature.State) -> Bool {
        switch state.data.phase {
        case .loaded, .failed: true
        case .idle, .loading: false
        }
    }

    /// The page's content for `state`; the forms carry `context`'s token.
    public static func content(_ state: AppFeature.State, context: WebContext) -> HTML {
        let screen: HTML
        switch state.top {
        case nil:
            screen = state.list.adding.map { form($0, isNew: true, context: context) } ?? list(state, context: context)
        case .detail(_, let detail):
            screen = self.detail(detail, context: context)
        case .meeting(_, let meeting):
            screen = self.meeting(meeting, context: context)
        case .pastMeeting(let meetingID, let standupID):
            screen = pastMeeting(state.data.standups[id: standupID], meetingID, context: context)
        }
        var banner: HTML?
        if let failure = state.data.failure, state.data.phase == .loaded {
            banner = """
                <p class="failure" id="save-failure">Not saved: \(failure.summary) \
                \(context.button("Try again", intent: "app.retrySave"))</p>
                """
        }
        let back: HTML? =
            switch state.top {
            case .detail(_, let detail) where detail.destination == nil:
                context.button("‹ Stand-ups", intent: "app.back")
            case .pastMeeting: context.button("‹ Back", intent: "app.back")
            default: nil
            }
        return """
            <header><nav><h1>Oak Standups</h1>\(back)</nav></header>
            \(banner)<div class="screen" id="screen">
            \(screen)
            </div>
            """
    }

    // MARK: Screens

    static func list(_ state: AppFeature.State, context: WebContext) -> HTML {
        switch state.data.phase {
        case .idle, .loading:
            return "<p class=\"loading\" id=\"loading\">Loading your stand-ups…</p>"
        case .failed(let failure):
            return """
                <section class="message" id="load-failure"><h2>\(failure.summary)</h2><p>\(failure.detail)</p>
                <p>\(failure.isDamaged ? "The damaged file is kept aside, untouched." : "") \
                Start over with an empty list or with the samples.</p>
                \(context.button("Start empty", intent: "app.startOver"))\
                \(context.button("Start with the samples", intent: "app.startOverWithSamples"))</section>
                """
        case .loaded:
            break
        }
        let cards = state.data.standups.map { standup in
            HTML(
                """
                <li class="card theme-\(standup.theme.rawValue)" data-standup="\(standup.id.uuidString)">\
                <form method="post" action="\(WebPage.intentPath)" class="intent">\
                <input type="hidden" name="token" value="\(context.token)">\
                <input type="hidden" name="intent" value="list.open">\
                <input type="hidden" name="standup" value="\(standup.id.uuidString)">\
                <button type="submit"><strong>\(name(standup))</strong>\
                <span>\(standup.minutes) min · \(attendeeCount(standup))</span></button></form></li>
                """)
        }
        let empty: HTML? = cards.isEmpty ? "<p class=\"empty\" id=\"empty\">No stand-ups yet.</p>" : nil
        return """
            <section class="list"><h2>Stand-ups</h2>\(empty)<ul class="cards" id="standups">\(HTML.join(cards))</ul>
            \(context.button("New stand-up", intent: "list.add", isPrimary: true))</section>
            """
    }

    static func form(_ form: StandupForm.State, isNew: Bool, context: WebContext) -> HTML {
        let standup = form.standup
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
                <button type="submit" name="intent" value="form.removeAttendee:\(attendee.id.uuidString)" \
                class="remove" aria-label="Remove attendee \(index + 1)">Remove</button></li>
                """)
        }
        return """
            <section class="form" id="standup-form"><h2>\(isNew ? "New stand-up" : "Edit \(name(standup))")</h2>
            <form method="post" action="\(WebPage.intentPath)" class="intent edit">\
            <input type="hidden" name="token" value="\(context.token)">\
            <button type="submit" name="intent" value="form.done" class="default" tabindex="-1" \
            aria-hidden="true">Done</button>\
            <label>Title <input type="text" name="title" value="\(standup.title)" \
            maxlength="\(Standup.maxTitleLength)" placeholder="Title"></label>
            <label>Length <input type="number" name="minutes" min="\(Standup.minMinutes)" \
            max="\(Standup.maxMinutes)" value="\(standup.minutes)"> min</label>
            <label>Theme <select name="theme">\(HTML.join(themes))</select></label>
            <fieldset><legend>Attendees</legend><ol class="attendees">\(HTML.join(attendees))</ol>
            <button type="submit" name="intent" value="form.addAttendee">Add attendee</button></fieldset>
            <p class="actions"><button type="submit" name="intent" value="form.done" class="primary">\
            \(isNew ? "Add" : "Done")</button>\
            <button type="submit" name="intent" value="form.cancel" formnovalidate>Cancel</button></p>
            </form></section>
            """
    }

    static func detail(_ detail: StandupDetail.State, context: WebContext) -> HTML {
        if case .edit(let editing) = detail.destination { return form(editing, isNew: false, context: context) }
        let standup = detail.standup
        let names = standup.attendees.map { HTML("<li>\(attendeeName($0))</li>") }
        let meetings = standup.meetings.map { meeting in
            HTML(
                """
                <li data-meeting="\(meeting.id.uuidString)">\
                \(context.button(date(meeting.date), intent: "detail.openMeeting:\(meeting.id.uuidString)"))\
                \(context.button("Delete", intent: "detail.deleteMeeting:\(meeting.id.uuidString)"))</li>
                """)
        }
        var question: HTML?
        if case .question(let asked) = detail.destination {
            question = self.question(asked, standup: standup, context: context)
        }
        return """
            <section class="detail" id="detail" data-standup="\(standup.id.uuidString)">
            <h2 class="card theme-\(standup.theme.rawValue)">\(name(standup))</h2>
            \(context.button(detail.isCheckingSpeech ? "Starting…" : "Start meeting", intent: "detail.start", isPrimary: true))
            <p>\(standup.minutes) min · \(standup.theme.name)</p>
            <h3>Attendees</h3><ul class="attendees" id="attendees">\(HTML.join(names))</ul>
            <h3>Past meetings</h3>\
            \(meetings.isEmpty ? "<p class=\"empty\" id=\"no-meetings\">None yet.</p>" : HTML.empty)\
            <ul class="meetings" id="meetings">\(HTML.join(meetings))</ul>
            <p class="actions">\(context.button("Edit", intent: "detail.edit"))\
            \(context.button("Delete stand-up", intent: "detail.delete"))</p>
            \(question)</section>
            """
    }

    static func question(_ question: StandupDetail.Question, standup: Standup, context: WebContext) -> HTML {
        switch question {
        case .deleteStandup:
            dialog(
                "Delete “\(name(standup))”?", "Its past meetings are deleted with it.",
                [context.button("Delete", intent: "detail.confirm"), context.button("Keep", intent: "detail.dismiss")])
        case .deleteMeeting:
            dialog(
                "Delete this meeting?", "Its transcript is deleted with it.",
                [context.button("Delete", intent: "detail.confirm"), context.button("Keep", intent: "detail.dismiss")])
        case .speechDenied:
            dialog(
                "Speech recognition is off", "The meeting will not be recorded.",
                [
                    context.button("Continue without recording", intent: "detail.continue"),
                    context.button("Cancel", intent: "detail.dismiss"),
                ])
        case .speechRestricted:
            dialog(
                "Speech recognition is unavailable",
                "This server cannot recognise speech, so the meeting will not be recorded.",
                [
                    context.button("Continue without recording", intent: "detail.continue"),
                    context.button("Cancel", intent: "detail.dismiss"),
                ])
        }
    }

    /// The name of the stream a meeting page sends its microphone to.
    public static let microphoneStream = "microphone"

    static func meeting(_ meeting: RecordMeeting.State, context: WebContext) -> HTML {
        let standup = meeting.standup
        let total = max(meeting.schedule.durationSeconds, 1)
        let segments = standup.attendees.indices.map { index in
            let kind = index < meeting.speakerIndex ? "done" : index == meeting.speakerIndex ? "current" : "next"
            return HTML("<li class=\"\(kind)\"></li>")
        }
        let speaker = meeting.speaker.map { attendeeName($0) } ?? ""
        let recognition: HTML =
            switch meeting.recognition {
            case .listening: "<p class=\"recording\" id=\"recognition\">● Recording</p>"
            case .off:
                meeting.isRecording
                    ? "<p id=\"recognition\">Starting the recogniser…</p>"
                    : "<p id=\"recognition\">Not recording</p>"
            case .ended: "<p id=\"recognition\">The audio has ended.</p>"
            case .failed(let failure):
                "<p class=\"failure\" id=\"recognition\">Speech recognition failed: \(failure)</p>"
            }
        // While the meeting records, any viewer may speak into it (one at a
        // time: the stream's floor).
        let microphone: HTML =
            meeting.recognition == .listening && meeting.ending == nil
            ? context.microphone(Self.microphoneStream) : .empty
        var controls: HTML
        switch (meeting.ending, meeting.question) {
        case (.saving?, _), (.saved?, _):
            controls = "<p id=\"saving\">Saving the meeting…</p>"
        case (.discarded?, _):
            controls = .empty
        case (nil, .endMeeting(let isDiscardable)?):
            var answers = [context.button("Save and end", intent: "meeting.save", isPrimary: true)]
            if isDiscardable { answers.append(context.button("Discard", intent: "meeting.discard")) }
            answers.append(context.button("Resume", intent: "meeting.resume"))
            controls = dialog("End meeting?", "Save it with its transcript, or resume.", answers)
        case (nil, .speechFailed?):
            controls = dialog(
                "Speech recognition failed", "Continue the meeting without the transcript, or discard it.",
                [
                    context.button("Continue", intent: "meeting.resume"),
                    context.button("Discard", intent: "meeting.discard"),
                ])
        case (nil, nil):
            controls = """
                <p class="actions">\(context.button(meeting.isLastSpeaker ? "End" : "Next", intent: "meeting.next", isPrimary: true))\
                \(context.button("End meeting", intent: "meeting.end"))</p>
                """
        }
        // What changes every second (the clock, the speaker's time left)
        // and the growing transcript are parts: an open page is sent only
        // those while the rest stays as it is (`HTML.part`).
        let times: HTML = """
            <p class="times"><span id="elapsed" data-elapsed="\(meeting.secondsElapsed)">Elapsed \
            \(duration(meeting.secondsElapsed))</span> \
            <span id="remaining">Remaining \(duration(meeting.secondsRemaining))</span></p>\
            <progress max="\(total)" value="\(min(meeting.secondsElapsed, total))"></progress>
            """
        return """
            <section class="meeting theme-\(standup.theme.rawValue)" id="meeting" \
            data-speaker="\(meeting.speakerIndex)" data-tone="\(meeting.speakerIndex)">
            <h2>\(name(standup))</h2>
            \(HTML.part("times", times))
            <ol class="segments">\(HTML.join(segments))</ol>
            <p class="speaker" id="speaker">Speaker \(meeting.speakerIndex + 1) of \(standup.attendees.count): \
            <strong>\(speaker)</strong> · \(HTML.part("left", "\(duration(meeting.speakerSecondsRemaining))")) left</p>
            \(recognition)\(microphone)<p class="transcript" id="transcript">\
            \(HTML.part("transcript", "\(meeting.transcript)"))</p>
            \(controls)</section>
            """
    }

    static func pastMeeting(_ standup: Standup?, _ id: Meeting.ID, context: WebContext) -> HTML {
        guard let standup, let meeting = standup.meetings[id: id] else {
            return "<p class=\"empty\">This meeting was deleted.</p>"
        }
        let names = standup.attendees.map { attendeeName($0) }.joined(separator: ", ")
        let transcript: HTML =
            meeting.transcript.isEmpty
            ? "<p class=\"empty\">No transcript: the meeting was not recorded.</p>"
            : "<p class=\"transcript\" id=\"transcript\">\(meeting.transcript)</p>"
        return """
            <section class="past-meeting" id="past-meeting"><h2>\(date(meeting.date))</h2>
            <h3>Attendees</h3><p>\(names)</p><h3>Transcript</h3>\(transcript)</section>
            """
    }

    static func dialog(_ title: String, _ message: String, _ answers: [HTML]) -> HTML {
        """
        <div class="dialog" role="alertdialog" id="question"><h3>\(title)</h3><p>\(message)</p>\
        <p class="actions">\(HTML.join(answers))</p></div>
        """
    }

    // MARK: Intents

    /// Performs the intent a form posted (`form.intent`, with its fields)
    /// for the model of `state`; `nil` when the state offers no such
    /// intent. `newID` makes the identifiers of what the user adds.
    public static func perform(
        _ fields: [String: String], in state: AppFeature.State, intents: StandupsIntents,
        newID: () -> UUID = UUID.init
    ) -> IntentResult? {
        let name = fields["intent"] ?? ""
        let app = intents.app
        let (kind, argument) = split(name)
        switch kind {
        case "app.back": return app(.back)()
        case "app.retrySave": return app(.retrySave)()
        case "app.startOver": return app(.startOver(withSamples: false))()
        case "app.startOverWithSamples": return app(.startOver(withSamples: true))()
        case "list.add": return state.top == nil ? app(.list(.add(newID(), attendee: newID())))() : nil
        case "list.open":
            guard let id = fields["standup"].flatMap(UUID.init(uuidString:)) else { return nil }
            return app(.open(id))()
        default: break
        }
        if kind.hasPrefix("form.") {
            if let adding = state.list.adding, state.top == nil {
                return performForm(
                    kind, argument, fields, adding, newID: newID, send: { app(.list(.form($0))) },
                    done: app(.list(.confirmAdd)), cancel: app(.list(.dismissAdd)))
            }
            if case .detail(_, let detail) = state.top, case .edit(let editing) = detail.destination,
                let intents = intents.detail
            {
                return performForm(
                    kind, argument, fields, editing, newID: newID, send: { intents(.form($0)) },
                    done: intents(.doneEditing), cancel: intents(.cancelEdit))
            }
            return nil
        }
        if kind.hasPrefix("detail."), let detail = intents.detail {
            let meetingID = argument.flatMap(UUID.init(uuidString:))
            switch kind {
            case "detail.start": return detail(.startMeeting)()
            case "detail.edit": return detail(.edit)()
            case "detail.delete": return detail(.delete)()
            case "detail.confirm": return detail(.confirmDeletion)()
            case "detail.dismiss": return detail(.dismissQuestion)()
            case "detail.continue": return detail(.continueWithoutRecording)()
            case "detail.openMeeting": return meetingID.map { detail(.openMeeting($0))() }
            case "detail.deleteMeeting": return meetingID.map { detail(.deleteMeeting($0))() }
            default: return nil
            }
        }
        if kind.hasPrefix("meeting."), let meeting = intents.meeting {
            switch kind {
            case "meeting.next": return meeting(.next)()
            case "meeting.end": return meeting(.endMeeting)()
            case "meeting.save": return meeting(.confirmSave)()
            case "meeting.discard": return meeting(.confirmDiscard)()
            case "meeting.resume": return meeting(.resume)()
            default: return nil
            }
        }
        return nil
    }

    /// A form's post: its fields are applied in one event, whatever their
    /// number (the values typed are kept whatever button was pressed), then
    /// the button's intent.
    static func performForm<Event>(
        _ kind: String, _ argument: String?, _ fields: [String: String], _ form: StandupForm.State,
        newID: () -> UUID,
        send: (StandupForm.Event) -> Intent<Event>, done: Intent<Event>, cancel: Intent<Event>
    ) -> IntentResult? {
        if kind == "form.cancel" { return cancel() }
        var names: [Attendee.ID: String] = [:]
        for attendee in form.standup.attendees {
            if let name = fields["attendee.\(attendee.id.uuidString)"] { names[attendee.id] = name }
        }
        let filled = send(
            .fill(
                StandupForm.Fields(
                    title: fields["title"], minutes: fields["minutes"].flatMap { Int($0) },
                    theme: fields["theme"].flatMap(Theme.init(rawValue:)), names: names)))()
        guard filled == .sent else { return filled }
        switch kind {
        case "form.done": return done()
        case "form.addAttendee": return send(.addAttendee(newID()))()
        case "form.removeAttendee":
            guard let id = argument.flatMap(UUID.init(uuidString:)) else { return nil }
            return send(.removeAttendee(id))()
        default:
            return nil
        }
    }

    /// `name:argument` split at its first colon.
    static func split(_ name: String) -> (String, String?) {
        guard let colon = name.firstIndex(of: ":") else { return (name, nil) }
        return (String(name[..<colon]), String(name[name.index(after: colon)...]))
    }

    // MARK: Style

    /// The app's rules: the themes' colours as classes (the policy allows
    /// no inline style), cards, the meeting's segments, dialogs.
    public static var style: String {
        let themes = Theme.allCases.map { theme in
            ".theme-\(theme.rawValue) { --main: \(css(theme.mainColor)); --accent: \(css(theme.accentColor)); }"
        }
        return themes.joined(separator: "\n") + "\n" + rules
    }

    static func css(_ color: RGB) -> String { "rgb(\(color.red), \(color.green), \(color.blue))" }

    static let rules = """
        .cards { list-style: none; padding: 0; display: grid; gap: 0.6rem; }
        .card button, h2.card { width: 100%; text-align: left; background: var(--main); color: var(--accent); \
        border: 0; border-radius: 0.6rem; padding: 0.8rem 1rem; }
        .card button span { display: block; opacity: 0.85; }
        form.edit label, form.edit fieldset { display: block; margin: 0.6rem 0; }
        form.edit .default { position: absolute; left: -9999px; }
        .attendees li { margin: 0.3rem 0; }
        .meeting { border-left: 0.5rem solid var(--main); padding-left: 1rem; }
        .meeting progress { width: 100%; accent-color: var(--main); }
        .segments { list-style: none; display: flex; gap: 0.3rem; padding: 0; }
        .segments li { flex: 1; height: 0.6rem; border-radius: 0.3rem; background: #ddd; }
        .segments li.done { background: var(--main); }
        .segments li.current { background: var(--main); opacity: 0.55; }
        .recording { color: #c00; font-weight: bold; }
        .transcript { font-style: italic; }
        .dialog { border: 1px solid #888; border-radius: 0.6rem; padding: 0.6rem 1rem; background: #fffbe6; }
        .failure { color: #a00; }
        """

    // MARK: Text

    static func name(_ standup: Standup) -> String { standup.title.isEmpty ? "Untitled" : standup.title }

    static func attendeeName(_ attendee: Attendee) -> String { attendee.name.isEmpty ? "(no name)" : attendee.name }

    static func attendeeCount(_ standup: Standup) -> String {
        standup.attendees.count == 1 ? "1 attendee" : "\(standup.attendees.count) attendees"
    }

    static func duration(_ seconds: Int) -> String {
        let seconds = max(seconds, 0)
        let rest = seconds % 60
        return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
    }

    static func date(_ date: Date) -> String { date.formatted(date: .abbreviated, time: .shortened) }
}
