// The whole app in a web page, rendered on the server: the screen on top of
// the stack (the list, a stand-up, a meeting, a past meeting) with its sheet
// or question, as HTML forms bound to the intents of the state the page is
// made for (`WebContext`): a post performs the intent its key is bound to on
// the page of the current state, so a form that makes no sense now does
// nothing. No feature logic here, no table of names: intents bound as
// values, and text escaped on its way into the page.

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

/// Renders the app as HTML, its forms bound to the intents they perform.
public enum StandupsWebView {
    /// The page's title for `state`.
    public static func title(_ state: AppFeature.State) -> String {
        switch state.top {
        case nil: state.list.adding == nil ? "Oak Standups" : "New stand-up · Oak Standups"
        case .detail(let child): "\(name(child.state.standup)) · Oak Standups"
        case .meeting(let room): "Meeting · \(name(room.state.standup)) · Oak Standups"
        case .pastMeeting: "Past meeting · Oak Standups"
        }
    }

    /// Whether `state` is worth a session's first page: the stand-ups are
    /// loaded, or loading them failed.
    public static func isSettled(_ state: AppFeature.State) -> Bool {
        switch state.data.phase {
        case .loaded: state.opening == nil && !state.isOpeningMeeting
        case .failed: true
        case .idle, .loading: false
        }
    }

    /// The page's content for `state`; the forms are bound in `context` to
    /// the intents of `intents` (the model of `state`). `newID` makes the
    /// identifiers of what the user adds, when a form is posted.
    public static func content(
        _ state: AppFeature.State, intents: StandupsIntents, context: WebContext,
        newID: @escaping () -> UUID = UUID.init
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
            let meeting = room.state
            // Rendered once for every viewer of the room (its forms' keys
            // and the placeholder of the token are the same for all).
            screen = context.shared(MeetingSection(meeting: meeting)) {
                self.meeting(meeting, intents: intents.meeting, context: context)
            }
        case .pastMeeting(let meetingID, let standupID):
            screen = pastMeeting(state.data.standups[id: standupID], meetingID, context: context)
        }
        var banner: HTML?
        if let failure = state.data.failure, state.data.phase == .loaded {
            banner = """
                <p class="failure" id="save-failure">Not saved yet: \(failure.summary) \
                Your changes wait here and are written as soon as the store can take them. \
                \(context.button("Try again", key: "app.retrySave", intent: app(.retrySave)))</p>
                """
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

    // MARK: Screens

    static func list(
        _ state: AppFeature.State, app: Intents<AppFeature, AppFeature.Scope>, newID: @escaping () -> UUID,
        context: WebContext
    ) -> HTML {
        switch state.data.phase {
        case .idle, .loading:
            return "<p class=\"loading\" id=\"loading\">Loading your stand-ups…</p>"
        case .failed(let failure) where failure.isDamaged:
            return """
                <section class="message" id="load-failure"><h2>\(failure.summary)</h2><p>\(failure.detail)</p>
                <p>The damaged file is kept aside, untouched. Start over with an empty list or with the samples.</p>
                \(context.button("Start empty", key: "app.startOver", intent: app(.startOver(withSamples: false))))\
                \(context.button(
                    "Start with the samples", key: "app.startOverWithSamples",
                    intent: app(.startOver(withSamples: true))))</section>
                """
        case .failed(let failure):
            // Away (locked, busy, unreachable), not damaged: the stand-ups
            // are still there; nothing offers to replace them.
            return """
                <section class="message" id="load-failure"><h2>\(failure.summary)</h2><p>\(failure.detail)</p>
                <p>Your stand-ups are kept. This page tries again by itself.</p>
                \(context.button("Try again", key: "app.retryLoad", intent: app(.retryLoad), isPrimary: true))\
                </section>
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
                <input type="hidden" name="intent" \
                value="\(context.bind("list.open:\(standup.id.uuidString)", to: app(.open(standup.id))))">\
                <button type="submit" aria-label="\(name(standup)), \(standup.minutes) min · \(attendeeCount(standup))">\
                <strong>\(name(standup))</strong><span class="facts">\
                <span class="fact">\(Icons.clock)\(standup.minutes) min</span>\
                <span class="fact">\(Icons.people)\(attendeeCount(standup))</span></span></button></form></li>
                """)
        }
        let empty: HTML? = cards.isEmpty ? "<p class=\"empty\" id=\"empty\">No stand-ups yet.</p>" : nil
        return """
            <section class="list"><h2>Stand-ups</h2>\(empty)<ul class="cards" id="standups">\(HTML.join(cards))</ul>
            \(context.button(
                "New stand-up", key: "list.add", intent: app(.list(.add(newID(), attendee: newID()))), isPrimary: true))\
            </section>
            """
    }

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
        _ standup: Standup, _ conflicts: [StandupConflict], app: Intents<AppFeature, AppFeature.Scope>,
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

    /// The key of the intent that starts a stand-up's meeting.
    public static let startKey = "detail.start"
    /// The key of the intent that starts a stand-up's meeting without
    /// recording it.
    public static let continueKey = "detail.continue"

    /// The name of the stream a meeting page sends its microphone to.
    public static let microphoneStream = "microphone"

    static func meeting(
        _ meeting: RecordMeeting.State, intents: Intents<RecordMeeting, RecordMeeting.Scope>?, context: WebContext
    ) -> HTML {
        let standup = meeting.standup
        func button(_ label: String, _ key: String, _ event: RecordMeeting.Event, isPrimary: Bool = false) -> HTML {
            context.button(label, key: key, intent: intents?(event), isPrimary: isPrimary)
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
            var answers = [button("Save and end", "meeting.save", .confirmSave, isPrimary: true)]
            if isDiscardable { answers.append(button("Discard", "meeting.discard", .confirmDiscard)) }
            answers.append(button("Resume", "meeting.resume", .resume))
            controls = dialog("End meeting?", "Save it with its transcript, or resume.", answers)
        case (nil, .speechFailed?):
            controls = dialog(
                "Speech recognition failed", "Continue the meeting without the transcript, or discard it.",
                [button("Continue", "meeting.resume", .resume), button("Discard", "meeting.discard", .confirmDiscard)])
        case (nil, nil):
            controls = """
                <p class="actions">\(button(meeting.isLastSpeaker ? "End" : "Next", "meeting.next", .next, isPrimary: true))\
                \(button("End meeting", "meeting.end", .endMeeting))</p>
                """
        }
        // What changes every second (the clock, the speaker's time left)
        // and the growing transcript are parts: an open page is sent only
        // those while the rest stays as it is (`HTML.part`).
        // Only what a tick changes is in parts, each small: the two
        // clocks, the arc of the speaker speaking, their time left.
        let clocks: HTML = """
            <span id="elapsed" data-elapsed="\(meeting.secondsElapsed)">\(duration(meeting.secondsElapsed))</span>\
            <span id="remaining">\(duration(meeting.secondsRemaining))</span>
            """
        let times: HTML = """
            <p class="times"><span class="label">\(Icons.hourglass) Elapsed</span>\
            <span class="label end">Remaining \(Icons.hourglass)</span>\(HTML.part("clocks", clocks))</p>
            """
        // The text in the ring says who speaks; what changes every second
        // is in parts.
        let turn = "Speaker \(meeting.speakerIndex + 1) of \(standup.attendees.count)"
        return """
            <section class="meeting theme-\(standup.theme.rawValue)" id="meeting" \
            data-speaker="\(meeting.speakerIndex)" data-tone="\(meeting.speakerIndex)">
            <h2>\(name(standup))</h2>
            \(times)
            <div class="ring">\(ring(meeting))\(HTML.part("arc", arc(meeting)))\
            <p class="speaker" id="speaker"><span class="turn">\(turn)</span><strong>\(speaker)</strong>\
            <span class="left">\(HTML.part("left", "\(duration(meeting.speakerSecondsRemaining))")) left</span></p></div>
            \(recognition)\(microphone)<p class="transcript" id="transcript">\
            \(HTML.part("transcript", "\(meeting.transcript)"))</p>
            \(controls)</section>
            """
    }

    /// The meeting's ring: an arc per speaker, as long as their turn,
    /// filled for the speakers who have spoken (inline SVG: no script, no
    /// inline style; the colours are the stylesheet's). It changes when the
    /// speaker does; the arc of the one speaking is ``arc(_:)``.
    static func ring(_ meeting: RecordMeeting.State) -> HTML {
        let schedule = meeting.schedule
        var circles: [String] = []
        for index in 0..<schedule.speakers {
            let turn = Turn(meeting, index)
            circles.append(turn.circle("track", filled: 1))
            if index < meeting.speakerIndex { circles.append(turn.circle("fill", filled: 1)) }
        }
        return Turn.svg(circles)
    }

    /// The arc of the speaker speaking, as far as their turn has gone:
    /// drawn over the ring, and sent on its own each second.
    static func arc(_ meeting: RecordMeeting.State) -> HTML {
        let turn = Turn(meeting, meeting.speakerIndex)
        let filled = turn.length > 0 ? min(max((Double(meeting.secondsElapsed) - turn.start) / turn.length, 0), 1) : 0
        // No class: sent every second, it is styled by where it is.
        return Turn.svg(filled > 0 ? [turn.circle(nil, filled: filled)] : [])
    }

    /// A speaker's turn on the ring: where its arc starts and how long it
    /// is, in seconds of the meeting.
    struct Turn {
        /// The gap between two arcs, in hundredths of the ring.
        static let gapShare = 0.4
        let start: Double
        let length: Double
        let total: Double
        let gap: Double

        init(_ meeting: RecordMeeting.State, _ index: Int) {
            let schedule = meeting.schedule
            start = Double(schedule.start(of: index))
            length = Double(schedule.start(of: index + 1)) - start
            total = Double(schedule.durationSeconds)
            gap = schedule.speakers > 1 ? Self.gapShare : 0
        }

        static func format(_ value: Double) -> String { String(format: "%.1f", value) }

        /// The turn's circle of class `kind`, drawn `filled` of the way.
        func circle(_ kind: String?, filled: Double) -> String {
            let arc = max(length / total * 100 - gap, 0.2) * filled
            // A circle 100 round (r = 100 / 2π in a 36 × 36 box, the
            // stylesheet's): the dashes are hundredths of the ring.
            return "<circle\(kind.map { " class=\"\($0)\"" } ?? "") stroke-dasharray=\"\(Self.format(arc)) 100\" "
                + "stroke-dashoffset=\"\(Self.format(-start / total * 100))\"/>"
        }

        /// An SVG of the ring's size with `circles`, the top first.
        /// Trusted: made of numbers and fixed names only.
        static func svg(_ circles: [String]) -> HTML {
            HTML(
                trusted: "<svg viewBox=\"0 0 36 36\">" + circles.joined() + "</svg>")
        }
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

    /// The key of a meeting's rendering: equal meetings render alike.
    /// Hashed by what changes every second (cheap), compared whole (copies
    /// of one published state share their storage: cheap too).
    struct MeetingSection: Hashable, Sendable {
        let meeting: RecordMeeting.State

        func hash(into hasher: inout Hasher) {
            hasher.combine(meeting.standup.id)
            hasher.combine(meeting.secondsElapsed)
            hasher.combine(meeting.speakerIndex)
        }
    }

    // MARK: Forms

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
        .times .end, #remaining { text-align: right; }
        .times .label { font-size: 0.85rem; opacity: 0.75; }
        #elapsed, #remaining { font-size: 1.35rem; font-weight: 600; }
        .ring { position: relative; width: min(78vw, 19rem); aspect-ratio: 1; margin: 0 auto 1rem; }
        .ring svg { position: absolute; inset: 0; width: 100%; height: 100%; transform: rotate(-90deg); }
        .ring circle { cx: 18px; cy: 18px; r: 15.9155px; fill: none; stroke-width: 2.5; }
        .ring .track { stroke: color-mix(in srgb, var(--main) 28%, transparent); }
        .ring .fill, .ring oak-part circle { stroke: var(--main); }
        .ring .speaker { position: absolute; inset: 12%; display: flex; flex-direction: column; \
        align-items: center; justify-content: center; gap: 0.3rem; margin: 0; text-align: center; }
        .ring .turn, .ring .left { font-size: 0.9rem; opacity: 0.8; font-variant-numeric: tabular-nums; }
        .ring strong { font-size: clamp(1.4rem, 7vw, 2.2rem); line-height: 1.1; overflow-wrap: anywhere; }
        .recording { color: #d22; font-weight: bold; }
        .transcript { font-style: italic; }
        .dialog { border: 1px solid #8886; border-radius: 0.8rem; padding: 0.6rem 1rem; \
        background: color-mix(in srgb, #fc0 14%, Canvas); }
        .failure { color: #d33; }
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
