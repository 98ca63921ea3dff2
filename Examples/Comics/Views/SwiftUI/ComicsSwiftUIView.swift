// The Comics feature in SwiftUI: the comic (number, title, date, alt text),
// what is loading with Cancel, an error with Retry, and a button for each
// intent the model offers now. It renders the same `ComicsModel` as the
// terminal view; an action the state does not allow has no button.

#if canImport(SwiftUI)
import ComicsFeature
import Common
import Oak
import SwiftUI

/// Shows a ``ComicsModel``: the comic or what happened instead, and a button
/// for each of its intents.
public struct ComicsView: View {
    /// What is shown and offered.
    public let model: ComicsModel
    @State private var number = ""

    /// A view of `model`.
    public init(_ model: ComicsModel) {
        self.model = model
    }

    /// The comic, what is loading, the last notice, and the buttons.
    public var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            content
            if let request = model.loading {
                HStack {
                    Text("Loading \(request.description)…").foregroundStyle(.secondary)
                    if let cancel = model.intent(.cancel) {
                        Button("Cancel") { cancel() }
                    }
                }
            }
            if let notice = model.notice {
                Text(notice.description.plainText)
            }
            HStack {
                ForEach(navigation, id: \.kind) { action in
                    Button(label(action.kind)) { action.intent() }
                }
            }
            if model.offersGoTo {
                HStack {
                    TextField("Comic number", text: $number)
                    Button("Go") {
                        if let number = Int(number) { model.goTo(number)?() }
                    }
                }
            }
        }
    }

    /// The comic, or why there is none.
    @ViewBuilder private var content: some View {
        switch model.content {
        case .empty:
            Text("No comic yet.").foregroundStyle(.secondary)
        case .comic(let comic, let isFavourite):
            HStack {
                Text("#\(comic.number)").foregroundStyle(.secondary)
                Text(comic.title.plainText).font(.headline)
                if isFavourite { Text("★") }
            }
            Text(comic.date.plainText).foregroundStyle(.secondary)
            Text(comic.alt.plainText)
        case .notFound(let number):
            Text("There is no comic #\(number).")
        case .failure(let request, let error):
            Text("Could not load \(request.description): \(error.description.plainText)").foregroundStyle(.red)
            if let retry = model.intent(.retry) {
                Button("Retry") { retry() }
            }
        }
    }

    /// The intents that move between comics or mark one; Cancel and Retry
    /// are shown next to what they act on.
    private var navigation: [ComicsModel.Action] {
        model.intents.filter { $0.kind != .cancel && $0.kind != .retry }
    }

    private func label(_ kind: ComicsModel.Kind) -> String {
        switch kind {
        case .previous: "Previous"
        case .next: "Next"
        case .latest: "Latest"
        case .random: "Random"
        case .cancel: "Cancel"
        case .retry: "Retry"
        case .toggleFavourite: isFavourite ? "Unfavourite" : "Favourite"
        }
    }

    private var isFavourite: Bool {
        if case .comic(_, isFavourite: true) = model.content { true } else { false }
    }
}
#endif
