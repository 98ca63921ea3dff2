// A stand-up in a page: its attendees and past meetings, a meeting
// running elsewhere, changes made meanwhile, and a past meeting.

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
    /// Where the stand-up's meeting runs, when another process runs it: a
    /// link to that server, or the words of a terminal app's claim.
    static func elsewhere(_ address: String) -> HTML {
        if let url = URL(string: address), url.scheme == "http" || url.scheme == "https" {
            return """
                <p class="notice" id="meeting-elsewhere" role="status">This stand-up's meeting runs on another \
                server: <a href="\(address)">open it there</a>.</p>
                """
        }
        return """
            <p class="notice" id="meeting-elsewhere" role="status">This stand-up's meeting runs elsewhere \
            (\(address)); it is not started here too.</p>
            """
    }

    /// What an edit of `standup` met elsewhere, and the way to put the
    /// other values back.
    static func conflicts(
        _ standup: Standup, _ conflicts: [StandupConflict], app: Intents<Main, Main.Scope>,
        context: WebContext
    ) -> HTML {
        let sentences = conflicts.map { HTML("<li>\($0.sentence(in: standup))</li>") }
        let takeTheirs: HTML? =
            StandupConflict.canTakeTheirs(conflicts)
            ? context.button("Use theirs", key: "app.takeTheirs", intent: app(.takeTheirs(standup.id))) : nil
        return """
            <section class="notice" id="conflicts" role="status"><p>Edited in two places at once:</p>\
            <ul>\(HTML.join(sentences))</ul><p class="actions">\(takeTheirs)\
            \(context.button("OK", key: "app.dismissConflicts", intent: app(.dismissConflicts(standup.id))))</p>\
            </section>
            """
    }

    static func detail(
        _ detail: StandupDetail.State, isMeetingRunning: Bool = false,
        intents: Intents<StandupDetail, StandupDetail.Scope>?,
        newID: @escaping () -> UUID, context: WebContext
    ) -> HTML {
        guard let intents else { return "" }
        if case .edit(let editing) = detail.destination {
            return form(
                editing, isNew: false, send: { intents(.form($0)) }, done: intents(.doneEditing),
                cancel: intents(.cancelEdit), newID: newID, context: context)
        }
        let standup = detail.standup
        let names = standup.attendees.map { HTML("<li>\(Icons.person)<span>\(attendeeName($0))</span></li>") }
        let meetings = standup.meetings.map { meeting in
            HTML(
                """
                <li data-meeting="\(meeting.id.uuidString)">\
                \(context.button(
                    date(meeting.date), key: "detail.openMeeting:\(meeting.id.uuidString)",
                    intent: intents(.openMeeting(meeting.id))))\
                \(context.button(
                    "Delete", key: "detail.deleteMeeting:\(meeting.id.uuidString)",
                    intent: intents(.deleteMeeting(meeting.id))))</li>
                """)
        }
        var question: HTML?
        if case .question(let asked) = detail.destination {
            question = self.question(asked, standup: standup, intents: intents, context: context)
        }
        return """
            <section class="detail" id="detail" data-standup="\(standup.id.uuidString)">
            <h2 class="card theme-\(standup.theme.rawValue)">\(name(standup))</h2>
            \(isMeetingRunning ? "<p class=\"notice\" id=\"meeting-in-progress\">A meeting is in progress.</p>" : HTML.empty)\
            \(context.button(
                detail.isCheckingSpeech ? "Starting…" : isMeetingRunning ? "Join meeting" : "Start meeting", key: startKey,
                intent: intents(.startMeeting), isPrimary: true))
            <p class="facts"><span class="fact">\(Icons.clock)\(standup.minutes) min</span>\
            <span class="fact theme-badge theme-\(standup.theme.rawValue)">\(standup.theme.name)</span></p>
            <h3>Attendees</h3><ul class="attendees" id="attendees">\(HTML.join(names))</ul>
            <h3>Past meetings</h3>\
            \(meetings.isEmpty ? "<p class=\"empty\" id=\"no-meetings\">None yet.</p>" : HTML.empty)\
            <ul class="meetings" id="meetings">\(HTML.join(meetings))</ul>
            <p class="actions">\(context.button("Edit", key: "detail.edit", intent: intents(.edit)))\
            \(context.button("Delete stand-up", key: "detail.delete", intent: intents(.delete)))</p>
            \(question)</section>
            """
    }

    /// The key of the intent that starts a stand-up's meeting.
    public static let startKey = "detail.start"

    /// The key of the intent that starts a stand-up's meeting without
    /// recording it.
    public static let continueKey = "detail.continue"

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
}
