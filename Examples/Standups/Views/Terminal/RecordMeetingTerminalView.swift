// A meeting in a terminal: the speaker, the time, the segments, and the
// keys that pass the turn and end it.

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
                message: meeting.endQuestionMessage(isDiscardable: isDiscardable),
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
}
