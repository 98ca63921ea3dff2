// swift-format-ignore-file
// README, "Quick Start / 3. Use in SwiftUI" (the snippet has its own `import SwiftUI`).
// Verbatim from the Oak README below the imports: it must compile unchanged.
import Oak

import SwiftUI

struct ContentView: View {
    @SwiftUI.State private var state = SimpleCounter.initialState
    
    var body: some View {
        TransducerView(
            of: SimpleCounter.self,
            initialState: $state,
            output: Callback { output in
                switch output {
                case .none:
                    break
                case .value(let count):
                    print("Count updated to: \(count)")
                }
            }
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
