// swift-format-ignore-file
// Sources/Oak/Oak.docc/HostingATransducer.md, "Host a transducer in a SwiftUI view".
// Verbatim from the article below the imports: it must compile unchanged.
import Oak
import SwiftUI

struct CounterView: View {
    @State private var state = Counter.State()

    var body: some View {
        TransducerView(of: Counter.self, initialState: $state) { state, input in
            Button("Count: \(state.count)") {
                try? input.send(.increment)
            }
        }
    }
}
