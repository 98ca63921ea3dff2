// The terminal's building blocks for every screen of the app: a stand-up's
// card in its theme's colours, a text field with its cursor, a progress bar,
// the meeting's speaker segments and a question as a dialog over the screen.
// Each renders values onto a canvas and knows no transducer.

import Common
import Foundation
import Models
import TerminalUI

extension Theme {
    /// The theme's colours as a terminal style: the accent on the main
    /// colour.
    public var style: Style {
        .colored(accentColor.terminalColor, on: mainColor.terminalColor)
    }
}

extension Theme {
    /// The main colour alone: bars and segments drawn with "█" in it.
    public var barStyle: Style {
        .colored(mainColor.terminalColor, on: mainColor.terminalColor)
    }
}

extension RGB {
    /// The colour for a terminal.
    public var terminalColor: TerminalColor { TerminalColor(red: red, green: green, blue: blue) }
}

/// Renders values onto a terminal canvas.
public enum TerminalComponents {
    /// A stand-up as a card of two lines in its theme's colours, marked
    /// when selected.
    public static func card(_ standup: Standup, isSelected: Bool, width: Int) -> [Line] {
        let inner = max(width - 4, 8)
        let marker = isSelected ? "▶ " : "  "
        let title = standup.title.isEmpty ? "Untitled" : standup.title
        let attendees = standup.attendees.count == 1 ? "1 attendee" : "\(standup.attendees.count) attendees"
        let details = "\(standup.minutes) min · \(attendees)"
        return [
            Line([Span(marker, .bold), Span(padded(" " + title, to: inner), standup.theme.style)]),
            Line([Span("  "), Span(padded("   " + details, to: inner), standup.theme.style)]),
        ]
    }

    /// A one-line text field: `label`, then the text in brackets with the
    /// cursor shown (as a reversed cell) when focused.
    public static func textField(
        _ label: String, _ text: EditableText, isFocused: Bool, placeholder: String = "", width: Int
    ) -> Line {
        var spans = [Span(isFocused ? "› " : "  ", .bold), Span(padded(label, to: 12))]
        let room = max(width - 20, 8)
        guard isFocused else {
            let shown = text.text.isEmpty ? placeholder : text.text
            spans.append(
                Span(
                    "[" + padded(Canvas.truncate(shown, width: room), to: room) + "]",
                    text.text.isEmpty ? .dim : .normal))
            return Line(spans)
        }
        // Scroll so that the cursor is always visible.
        let characters = Array(text.text)
        let start = max(text.cursor - room + 1, 0)
        let before = String(characters[start..<text.cursor])
        let atCursor = text.cursor < characters.count ? String(characters[text.cursor]) : " "
        let after = text.cursor + 1 < characters.count ? String(characters[(text.cursor + 1)...]) : ""
        let used = TextWidth.columns(of: before) + TextWidth.columns(of: atCursor)
        let tail = Canvas.truncate(after, width: max(room - used, 0), ellipsis: false)
        spans += [
            Span("["), Span(before, .bold), Span(atCursor, .reverse),
            Span(padded(tail, to: max(room - used, 0)), .bold), Span("]"),
        ]
        return Line(spans)
    }

    /// A value chosen with ← and →: `label` and `value` between arrows
    /// when focused.
    public static func picker(_ label: String, _ value: String, isFocused: Bool, style: Style = .normal) -> Line {
        Line([
            Span(isFocused ? "› " : "  ", .bold), Span(padded(label, to: 12)),
            Span(isFocused ? "◀ " : "  ", .bold), Span(value, style), Span(isFocused ? " ▶" : "  ", .bold),
        ])
    }

    /// A bar `width` columns wide, `fraction` of it filled.
    public static func progressBar(_ fraction: Double, width: Int, style: Style) -> Line {
        let width = max(width, 1)
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        return Line([
            Span(String(repeating: "█", count: filled), style),
            Span(String(repeating: "░", count: width - filled), .dim),
        ])
    }

    /// One segment per speaker: done speakers filled, the current one
    /// highlighted, those to come empty.
    public static func speakerSegments(count: Int, current: Int, width: Int, style: Style) -> Line {
        guard count > 0 else { return Line() }
        let segment = max((width - count) / count, 1)
        var spans: [Span] = []
        for index in 0..<count {
            let mark: String
            let segmentStyle: Style
            if index < current {
                (mark, segmentStyle) = ("█", style)
            } else if index == current {
                (mark, segmentStyle) = ("▓", .bold)
            } else {
                (mark, segmentStyle) = ("░", .dim)
            }
            spans.append(Span(String(repeating: mark, count: segment), segmentStyle))
            spans.append(Span(" "))
        }
        return Line(spans)
    }

    /// `seconds` as "4:05", or "1:02:03" from an hour.
    public static func duration(_ seconds: Int) -> String {
        let seconds = max(seconds, 0)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let tail = String(rest).leftPadded(to: 2)
        return hours > 0 ? "\(hours):\(String(minutes).leftPadded(to: 2)):\(tail)" : "\(minutes):\(tail)"
    }

    /// A meeting's date, as the list of past meetings shows it.
    public static func date(_ date: Date) -> String {
        date.formatted(date: .abbreviated, time: .shortened)
    }

    /// Draws a question in a box over the middle of `canvas`: its title,
    /// its message wrapped, and the answers' keys.
    public static func dialog(_ title: String, message: String, answers: [String], on canvas: inout Canvas) {
        let boxWidth = min(max(canvas.width - 8, 20), 64)
        let inner = boxWidth - 4
        var body = [Line([Span("│ "), Span(padded(title, to: inner), .bold), Span(" │")])]
        body.append(Line("│ " + padded("", to: inner) + " │"))
        for line in Canvas.wrap(message, width: inner) {
            body.append(Line("│ " + padded(line, to: inner) + " │"))
        }
        body.append(Line("│ " + padded("", to: inner) + " │"))
        for line in Canvas.wrap(answers.joined(separator: " · "), width: inner) {
            body.append(Line([Span("│ "), Span(padded(line, to: inner), .accent), Span(" │")]))
        }
        let rule = String(repeating: "─", count: boxWidth - 2)
        let box = [Line("┌" + rule + "┐")] + body + [Line("└" + rule + "┘")]
        let bodyHeight = canvas.height - (canvas.status == nil ? 0 : 1)
        let top = max((bodyHeight - box.count) / 2, 0)
        let left = String(repeating: " ", count: max((canvas.width - boxWidth) / 2, 0))
        while canvas.lines.count < top + box.count { canvas.skip() }
        for (offset, line) in box.enumerated() {
            canvas.lines[top + offset] = Line([Span(left)] + line.spans)
        }
    }

    /// `text` followed by spaces up to `width` columns (cut when longer).
    public static func padded(_ text: String, to width: Int) -> String {
        let cut = Canvas.truncate(text, width: width)
        return cut + String(repeating: " ", count: max(width - TextWidth.columns(of: cut), 0))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}
