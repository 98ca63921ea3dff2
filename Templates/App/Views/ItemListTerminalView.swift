// The list in a terminal: a row per item, the selected one highlighted,
// and the keys the list offers now (shown in the status bar). Titles are
// made plain before they are drawn: text from the store never reaches the
// terminal as escape sequences.

import Common
import Oak
import TerminalUI
import __Name__Feature

/// Draws the list and binds its keys.
public enum ItemListTerminalView {
    /// The screen for `state`, its keys bound to the intents of `host`.
    @MainActor
    public static func screen(
        _ state: ItemList.State, host: ObservableTransducer<ItemList>, context: ScreenContext
    ) -> Screen {
        let intents = Intents<ItemList, ItemList.Mode>(
            for: state, proxy: host.proxy, scope: ItemList.mode(of:), current: { host.state })
        var canvas = Canvas(width: context.width, height: context.height)
        canvas.add("Oak __Name__", .bold)
        canvas.skip()
        if state.isLoading {
            canvas.add("Reading the items…", .dim)
        } else if state.items.isEmpty {
            canvas.add("No items yet: press a to add one.", .dim)
        }
        for (row, item) in state.items.enumerated() {
            let line = " \(item.title.plainText) "
            canvas.add(line, row == state.selection && state.draft == nil ? .reverse : .normal)
        }
        if let problem = state.problem {
            canvas.skip()
            canvas.addWrapped(problem.description.plainText, .error)
        }
        var bindings: [KeyBinding]
        var textField: TextFieldInput?
        if let draft = state.draft {
            canvas.skip()
            canvas.add("New item: \(draft.text.plainText)▏", .accent)
            bindings = [
                KeyBinding([.enter], "add", intent: intents(.add(draft.text))),
                KeyBinding([.escape], "cancel", intent: intents(.cancelAdding)),
            ]
            textField = TextFieldInput { intents(.edit($0)) }
        } else {
            bindings = [
                KeyBinding([.character("a")], "add", intent: intents(.beginAdding)),
                KeyBinding([.up, .character("k")], "up", inStatusBar: false, intent: intents(.up)),
                KeyBinding([.down, .character("j")], "down", inStatusBar: false, intent: intents(.down)),
            ]
            if let selected = state.selected {
                bindings.append(KeyBinding([.character("d")], "remove", intent: intents(.remove(selected.id))))
            }
            bindings.append(KeyBinding([.character("q")], "quit", action: { host.cancel() }))
        }
        bindings.append(KeyBinding([.interrupt], "quit", inStatusBar: false, action: { host.cancel() }))
        // The last line: the keys offered now.
        canvas.status = Line(bindings.filter(\.isShownInStatusBar).map(\.summary).joined(separator: "  "), .reverse)
        return Screen(canvas: canvas, bindings: bindings, textField: textField)
    }
}
