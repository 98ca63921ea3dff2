// The whole app in a web page, rendered on the server: the screen on top of
// the stack (the list, a stand-up, a meeting, a past meeting) with its sheet
// or question, as HTML forms bound to the intents of the state the page is
// made for (`WebContext`): a post performs the intent its key is bound to on
// the page of the current state, so a form that makes no sense now does
// nothing. No feature logic here, no table of names: intents bound as
// values, and text escaped on its way into the page.

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

/// Renders the app as HTML, its forms bound to the intents they perform.
public enum MainWebView {
    /// The page's title for `state`.
    public static func title(_ state: Main.State) -> String {
        switch state.top {
        case nil: state.list.adding == nil ? "Oak Standups" : "New stand-up · Oak Standups"
        case .detail(let child): "\(name(child.state.standup)) · Oak Standups"
        case .meeting(let room): "Meeting · \(name(room.state.standup)) · Oak Standups"
        case .pastMeeting: "Past meeting · Oak Standups"
        }
    }

    /// Whether `state` is worth a session's first page: the stand-ups are
    /// loaded, or loading them failed.
    public static func isSettled(_ state: Main.State) -> Bool {
        switch state.data.phase {
        case .loaded: state.opening == nil && !state.isOpeningMeeting
        case .failed: true
        case .idle, .loading: false
        }
    }

    /// The page's content for `state`; the forms are bound in `context` to
    /// the intents of `intents` (the model of `state`), made only when the
    /// content is rendered. `newID` makes the identifiers of what the user
    /// adds, when a form is posted.
    ///
    /// A meeting's page shows the room's meeting and the store's failure,
    /// and nothing else of its session: it is rendered once for every
    /// viewer of the room at each tick, from one snapshot of both, which is
    /// also its key.
    public static func content(
        _ state: Main.State, intents: @autoclosure () -> StandupsIntents, context: WebContext,
        newID: @escaping () -> UUID = UUID.init
    ) -> HTML {
        let failure = failure(of: state.data)
        guard case .meeting(let room) = state.top else {
            return content(state, meeting: nil, failure: failure, intents: intents(), context: context, newID: newID)
        }
        let meeting = room.state
        return context.shared(MeetingPage(meeting: meeting, failure: failure)) {
            content(state, meeting: meeting, failure: failure, intents: intents(), context: context, newID: newID)
        }
    }

    /// The failure a page shows: a write the store has not taken, once the
    /// stand-ups are loaded.
    static func failure(of data: StandupsProvider.State) -> StoreFailure? {
        data.phase == .loaded ? data.failure : nil
    }

    /// The page's content for `state`, showing `meeting` (a snapshot of the
    /// room's, when a meeting is on top) and `failure`.
    static func content(
        _ state: Main.State, meeting shown: RecordMeeting.State?, failure: StoreFailure?, intents: StandupsIntents,
        context: WebContext, newID: @escaping () -> UUID
    ) -> HTML {
        let app = intents.app
        let screen: HTML
        switch state.top {
        case nil:
            if let adding = state.list.adding {
                screen = form(
                    adding, isNew: true, send: { app(.list(.form($0))) }, done: app(.list(.confirmAdd)),
                    cancel: app(.list(.dismissAdd)), newID: newID, context: context)
            } else {
                screen = list(state, app: app, newID: newID, context: context)
            }
        case .detail(let child):
            let detail = self.detail(
                child.state, isMeetingRunning: state.meetingsRunning.contains(child.state.standup.id),
                intents: intents.detail, newID: newID, context: context)
            let standup = child.state.standup
            let notices = HTML.join(
                [
                    state.meetingElsewhere.map(elsewhere),
                    child.state.isDeletedElsewhere
                        ? HTML(
                            "<p class=\"notice\" id=\"deleted-elsewhere\" role=\"status\">\(StandupDetail.State.deletedWhileEditing)</p>"
                        )
                        : nil,
                    child.state.destination == nil
                        ? state.data.conflicts[standup.id].map { conflicts(standup, $0, app: app, context: context) }
                        : nil,
                ].compactMap { $0 })
            screen = "\(notices)\(detail)"
        case .meeting(let room):
            // Rendered once for every viewer of the room with the rest of
            // the page (``content(_:intents:context:newID:)``): its forms'
            // keys and the placeholder of the token are the same for all.
            screen = self.meeting(shown ?? room.state, intents: intents.meeting, context: context)
        case .pastMeeting(let meetingID, let standupID):
            screen = pastMeeting(state.data.standups[id: standupID], meetingID, context: context)
        }
        var banner: HTML?
        if let failure {
            banner = """
                <p class="failure" id="save-failure">Not saved yet: \(failure.summary) \
                Your changes wait here and are written as soon as the store can take them. \
                \(context.button("Try again", key: "app.retrySave", intent: app(.retrySave)))</p>
                """
        } else if shown == nil, state.isSaving {
            // A change shows at once and is durable a moment later: until
            // then the page does not pass it off as kept. (Not on a
            // meeting's page, rendered once for all its viewers: the
            // meeting says when it is saved.)
            banner = "<p class=\"saving\" id=\"saving-changes\" role=\"status\">Saving…</p>"
        }
        let back: HTML? =
            switch state.top {
            case .detail(let child) where child.state.destination == nil:
                context.button("‹ Stand-ups", key: "app.back", intent: app(.back))
            case .pastMeeting: context.button("‹ Back", key: "app.back", intent: app(.back))
            default: nil
            }
        return """
            <header><nav><h1>Oak Standups</h1>\(back)</nav></header>
            \(banner)<div class="screen" id="screen">
            \(screen)
            </div>
            """
    }

    // MARK: Questions and dialogs

    static func question(
        _ question: StandupDetail.Question, standup: Standup, intents: Intents<StandupDetail, StandupDetail.Scope>,
        context: WebContext
    ) -> HTML {
        // Only the answers shown are bound.
        typealias Answer = (label: String, key: String, event: StandupDetail.Event)
        func answers(_ first: Answer, _ second: Answer) -> [HTML] {
            [first, second].map { context.button($0.label, key: $0.key, intent: intents($0.event)) }
        }
        let keep = ("Keep", "detail.dismiss", StandupDetail.Event.dismissQuestion)
        let continueWithout = ("Continue without recording", continueKey, StandupDetail.Event.continueWithoutRecording)
        let cancel = ("Cancel", "detail.dismiss", StandupDetail.Event.dismissQuestion)
        switch question {
        case .deleteStandup:
            return dialog(
                "Delete “\(name(standup))”?", "Its past meetings are deleted with it.",
                answers(("Delete", "detail.confirm", .confirmDeletion), keep))
        case .deleteMeeting:
            return dialog(
                "Delete this meeting?", "Its transcript is deleted with it.",
                answers(("Delete", "detail.confirm", .confirmDeletion), keep))
        case .speechDenied:
            return dialog(
                "Speech recognition is off", "The meeting will not be recorded.", answers(continueWithout, cancel))
        case .speechRestricted:
            return dialog(
                "Speech recognition is unavailable",
                "This server cannot recognise speech, so the meeting will not be recorded.",
                answers(continueWithout, cancel))
        }
    }

    static func dialog(_ title: String, _ message: String, _ answers: [HTML]) -> HTML {
        """
        <div class="dialog" role="alertdialog" id="question"><h3>\(title)</h3><p>\(message)</p>\
        <p class="actions">\(HTML.join(answers))</p></div>
        """
    }

    /// The key of a meeting's page: its meeting and the failure it shows;
    /// equal keys render alike. Hashed by what changes every second
    /// (cheap), compared whole (copies of one published state share their
    /// storage: cheap too).
    struct MeetingPage: Hashable, Sendable {
        let meeting: RecordMeeting.State
        let failure: StoreFailure?

        func hash(into hasher: inout Hasher) {
            hasher.combine(meeting.standup.id)
            hasher.combine(meeting.secondsElapsed)
            hasher.combine(meeting.speakerIndex)
        }
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
        .cards { list-style: none; padding: 0; display: grid; gap: 0.8rem; \
        grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); }
        .card form.intent { display: block; margin: 0; height: 100%; }
        .card button { height: 100%; display: flex; flex-direction: column; justify-content: flex-start; }
        .card button, h2.card { width: 100%; text-align: left; background: var(--main); color: var(--accent); \
        border: 0; border-radius: 0.9rem; padding: 1rem 1.1rem; box-sizing: border-box; }
        .card button strong { display: block; font-size: 1.25rem; margin-bottom: 0.6rem; }
        h1, h2, h3, .card button strong, .attendees li, .meetings li { overflow-wrap: anywhere; }
        .card button:hover { filter: brightness(1.05); }
        .facts { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; opacity: 0.9; }
        .fact { display: inline-flex; align-items: center; gap: 0.35rem; }
        .icon { width: 1.15em; height: 1.15em; flex: none; vertical-align: -0.2em; }
        form.edit label, form.edit fieldset { display: block; margin: 0.6rem 0; }
        form.edit .default { position: absolute; left: -9999px; }
        .attendees, .meetings { list-style: none; padding: 0; margin: 0.4rem 0 1rem; border-radius: 0.8rem; \
        overflow: hidden; background: color-mix(in srgb, CanvasText 5%, Canvas); }
        .attendees li, .meetings li { display: flex; align-items: center; gap: 0.6rem; padding: 0.55rem 0.9rem; \
        border-top: 1px solid color-mix(in srgb, CanvasText 10%, transparent); }
        .attendees li:first-child, .meetings li:first-child { border-top: 0; }
        .meetings li form.intent:first-child { flex: 1; }
        .meetings li form.intent:first-child button { width: 100%; text-align: left; }
        .theme-badge { padding: 0.1rem 0.6rem; border-radius: 1rem; background: var(--main); color: var(--accent); }
        .detail > form.intent button.primary, .list > form.intent button.primary { padding: 0.6rem 1.2rem; }
        .meeting { padding: 1rem; border-radius: 1rem; background: color-mix(in srgb, var(--main) 14%, Canvas); }
        .meeting h2 { margin-top: 0; }
        .times { display: grid; grid-template-columns: 1fr 1fr; gap: 0.1rem 1rem; margin: 0.4rem 0 1rem; \
        font-variant-numeric: tabular-nums; }
        .times .end, .times oak-part span + span { text-align: right; }
        .times .label { font-size: 0.85rem; opacity: 0.75; }
        .times oak-part span { font-size: 1.35rem; font-weight: 600; }
        .ring { position: relative; width: min(78vw, 19rem); aspect-ratio: 1; margin: 0 auto 1rem; }
        .ring svg { position: absolute; inset: 0; width: 100%; height: 100%; transform: rotate(-90deg); }
        .ring circle { cx: 18px; cy: 18px; r: 15.9155px; fill: none; stroke-width: 2.5; }
        .ring .track { stroke: color-mix(in srgb, var(--main) 28%, transparent); }
        .ring .fill, .ring oak-part circle { stroke: var(--main); }
        .ring .speaker { position: absolute; inset: 12%; display: flex; flex-direction: column; \
        align-items: center; justify-content: center; gap: 0.3rem; margin: 0; text-align: center; }
        .ring .turn, .ring .left { font-size: 0.9rem; opacity: 0.8; font-variant-numeric: tabular-nums; }
        .ring strong { font-size: clamp(1.4rem, 7vw, 2.2rem); line-height: 1.1; overflow-wrap: anywhere; \
        display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden; }
        .recording { color: #d22; font-weight: bold; }
        .transcript { font-style: italic; }
        .dialog { border: 1px solid #8886; border-radius: 0.8rem; padding: 0.6rem 1rem; \
        background: color-mix(in srgb, #fc0 14%, Canvas); }
        .failure { color: #d33; }
        .saving { position: fixed; right: 0.8rem; bottom: 0.8rem; margin: 0; padding: 0.3rem 0.8rem; \
        border-radius: 1rem; font-size: 0.9rem; background: color-mix(in srgb, CanvasText 8%, Canvas); }
        @media (max-width: 30rem) { body { padding: 0.6rem; } .cards { grid-template-columns: 1fr; } }
        """

    // MARK: Icons

    /// Small inline icons, drawn in the text's colour (`currentColor`).
    enum Icons {
        static let clock: HTML = """
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9" fill="none" \
            stroke="currentColor" stroke-width="2"/><path d="M12 7v5l3.5 2" fill="none" stroke="currentColor" \
            stroke-width="2" stroke-linecap="round"/></svg>
            """
        static let people: HTML = """
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="9" cy="8" r="3.5" \
            fill="currentColor"/><path d="M2 20c0-4 3-6.5 7-6.5s7 2.5 7 6.5z" fill="currentColor"/>\
            <circle cx="17" cy="9" r="2.8" fill="currentColor" opacity=".65"/><path d="M15.6 14c3.6.2 6.4 2.2 \
            6.4 6h-4.6c0-2.4-.7-4.4-1.8-6z" fill="currentColor" opacity=".65"/></svg>
            """
        static let person: HTML = """
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4" \
            fill="currentColor"/><path d="M4 21c0-4.5 3.6-7.5 8-7.5s8 3 8 7.5z" fill="currentColor"/></svg>
            """
        static let hourglass: HTML = """
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h12M6 21h12M7 3c0 6 10 5 10 \
            9s-10 3-10 9M17 3c0 6-10 5-10 9s10 3 10 9" fill="none" stroke="currentColor" stroke-width="1.8" \
            stroke-linecap="round"/></svg>
            """
    }

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
