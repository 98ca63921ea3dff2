// What the SwiftUI views share: the themes' colours, a title for untitled
// stand-ups, times as minutes and seconds, and the bindings through which
// SwiftUI's controls and presentations send intents (a binding reads the
// state drawn and sends an intent when SwiftUI writes it).

#if canImport(SwiftUI)
import Models
import Oak
import SwiftUI

extension Color {
    /// The colour of `rgb`, in sRGB.
    init(_ rgb: RGB) {
        self.init(red: Double(rgb.red) / 255, green: Double(rgb.green) / 255, blue: Double(rgb.blue) / 255)
    }
}

extension Standup {
    /// The title, or "Untitled".
    var displayTitle: String { title.isEmpty ? "Untitled" : title }
}

/// `seconds` as minutes and seconds: "4:05".
func minutesAndSeconds(_ seconds: Int) -> String {
    let rest = seconds % 60
    return "\(seconds / 60):" + (rest < 10 ? "0" : "") + "\(rest)"
}

/// A binding that reads `value` (the state drawn) and sends the intent
/// `send` makes of each value SwiftUI writes.
@MainActor
func binding<Value, Event>(_ value: Value, send: @escaping (Value) -> Intent<Event>?) -> Binding<Value> {
    Binding(
        get: { @MainActor in value },
        set: { @MainActor newValue in send(newValue)?() })
}

/// A binding that presents a sheet, an alert or a dialog while
/// `isPresented`, and sends `dismiss` when SwiftUI dismisses it (a swipe, a
/// tap outside, any button of an alert: the transducer ignores a dismissal
/// that comes after the answer).
@MainActor
func presented<Event>(_ isPresented: Bool, dismiss: Intent<Event>?) -> Binding<Bool> {
    Binding(
        get: { @MainActor in isPresented },
        set: { @MainActor newValue in
            if !newValue { dismiss?() }
        })
}

/// A theme's name on its colour.
struct ThemeLabel: View {
    let theme: Theme

    var body: some View {
        Text(theme.name)
            .padding(4)
            .foregroundStyle(Color(theme.accentColor))
            .background(Color(theme.mainColor))
    }
}
#endif
