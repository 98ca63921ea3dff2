// The list of stand-ups in a terminal: a card each, the selection, and
// the keys that add, open and remove.

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
    static func renderList(
        _ state: Main.State, app: Intents<Main, Main.Scope>, newID: @escaping () -> UUID,
        on canvas: inout Canvas
    ) -> [KeyBinding] {
        var bindings: [KeyBinding] = []
        switch state.data.phase {
        case .idle, .loading:
            canvas.add("Loading your stand-ups…", .dim)
            return bindings
        case .failed(let failure):
            canvas.add(failure.summary, .error)
            canvas.addWrapped(failure.detail, .dim)
            canvas.skip()
            guard failure.isDamaged else {
                // Away (locked, busy, unreachable), not damaged: nothing
                // offers to replace the stand-ups.
                canvas.addWrapped("Your stand-ups are kept. Trying again by itself.")
                bindings.append(KeyBinding([.character("r")], "try again", intent: app(.retryLoad)))
                return bindings
            }
            canvas.addWrapped(
                "The damaged file is kept aside, untouched. Start over with an empty list or with the samples.")
            bindings.append(KeyBinding([.character("e")], "start empty", intent: app(.startOver(withSamples: false))))
            bindings.append(
                KeyBinding([.character("s")], "start with samples", intent: app(.startOver(withSamples: true))))
            return bindings
        case .loaded:
            break
        }
        let standups = state.data.standups
        if standups.isEmpty {
            canvas.add("No stand-ups yet.")
            canvas.add("Press a to add one.", .dim)
        } else {
            // As many cards as fit, scrolled to keep the selection shown.
            let perCard = 3
            let fit = max((canvas.height - 5) / perCard, 1)
            let first = min(max(state.list.selection - fit + 1, 0), max(standups.count - fit, 0))
            for (index, standup) in standups.enumerated().dropFirst(first).prefix(fit) {
                for line in TerminalComponents.card(
                    standup, isSelected: index == state.list.selection, width: canvas.width)
                {
                    canvas.add(line)
                }
                canvas.skip()
            }
            let count = standups.count
            let selection = state.list.selection
            bindings.append(
                KeyBinding(
                    [.up], "select", inStatusBar: false, intent: app(.list(.select(selection - 1, count: count)))))
            bindings.append(
                KeyBinding(
                    [.down], "select", inStatusBar: false, intent: app(.list(.select(selection + 1, count: count)))))
            if standups.indices.contains(state.list.selection) {
                bindings.append(KeyBinding([.enter], "open", intent: app(.open(standups[state.list.selection].id))))
            }
        }
        bindings.append(
            KeyBinding([.character("a")], "add") {
                await app(.list(.add(newID(), attendee: newID()))).perform()
            })
        // For the status bar only: the keys above are found first.
        if !standups.isEmpty { bindings.append(KeyBinding([.up, .down], "select") {}) }
        return bindings
    }
}
