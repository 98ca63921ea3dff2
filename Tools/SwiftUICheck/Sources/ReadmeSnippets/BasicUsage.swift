// swift-format-ignore-file
// README, "SwiftUI Integration / TransducerView / Basic Usage".
// Verbatim from the Oak README below the imports: it must compile unchanged.
import Oak
import SwiftUI

struct CounterView: View {
    @State private var state = SimpleCounter.State()
    
    var body: some View {
        TransducerView(
            of: SimpleCounter.self,
            initialState: $state
        ) { state, input in
            VStack {
                Text("Count: \(state.count)")
                Button("Increment") { 
                    try? input.send(.increment) 
                }
                Button("Decrement") { 
                    try? input.send(.decrement) 
                }
            }
        }
    }
}
