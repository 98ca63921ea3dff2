// The Favourites feature in SwiftUI: the list with its selected row, and a
// button for each intent the model offers now (Open and Remove act on the
// selected row). It renders the same `FavouritesModel` as the terminal view.

#if canImport(SwiftUI)
import Common
import FavouritesFeature
import Oak
import SwiftUI

/// Shows a ``FavouritesModel``: the favourites, the selected one in bold,
/// and a button for each of its intents.
public struct FavouritesView: View {
    /// What is shown and offered.
    public let model: FavouritesModel

    /// A view of `model`.
    public init(_ model: FavouritesModel) {
        self.model = model
    }

    /// The list, or why there is none, the last notice, and the buttons.
    public var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text("Favourites").font(.headline)
            switch model.state.phase {
            case .loading:
                Text("Reading your favourites…").foregroundStyle(.secondary)
            case .unavailable(let error):
                Text("Favourites are not available: \((error.detail ?? error.description).plainText)")
                    .foregroundStyle(.red)
            case .list(let favourites) where favourites.isEmpty:
                Text("No favourites yet: mark a comic as a favourite to keep it.").foregroundStyle(.secondary)
            case .list(let favourites):
                List(favourites) { favourite in
                    Text("#\(favourite.number)  \(favourite.title.plainText)")
                        .font(favourite == model.state.selected ? .headline : .body)
                }
            }
            if let notice = model.state.notice {
                Text(notice.plainText)
            }
            HStack {
                ForEach(model.intents, id: \.kind) { offered in
                    Button(label(offered.kind)) { offered.intent() }
                }
            }
        }
    }

    private func label(_ kind: FavouritesModel.Kind) -> String {
        let number = model.state.selected.map { " #\($0.number)" } ?? ""
        return switch kind {
        case .up: "Up"
        case .down: "Down"
        case .open: "Open" + number
        case .remove: "Remove" + number
        case .reload: "Retry"
        }
    }
}
#endif
