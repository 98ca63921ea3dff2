// A meeting in a page: the ring with one arc per speaker, the speaker's
// name, the time, and the buttons that pass the turn and end it.

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
            controls = dialog("End meeting?", meeting.endQuestionMessage(isDiscardable: isDiscardable), answers)
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
        // clocks, the arc of the speaker speaking, their time left. (No
        // ids in them: every byte is sent to every viewer every second;
        // the stylesheet finds the clocks by where they are.)
        let clocks: HTML = """
            <span data-elapsed="\(meeting.secondsElapsed)">\(duration(meeting.secondsElapsed))</span>\
            <span>\(duration(meeting.secondsRemaining))</span>
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

        /// `value` to one decimal, as SVG takes it ("-12.5"); a value
        /// that is not finite as zero (none is today: a schedule lasts at
        /// least a second), where `Int(_:)` would stop the server. Not
        /// `String(format:)`: a ring is drawn at every tick of every
        /// meeting, and Foundation's formatting was its largest cost.
        static func format(_ value: Double) -> String {
            guard value.isFinite else { return "0.0" }
            // Within ±1e9, so that the tenths fit an Int.
            let tenths = Int((min(max(value, -1e9), 1e9) * 10).rounded())
            return "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
        }

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
}
