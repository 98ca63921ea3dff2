// swift-format-ignore-file
// README, "ObservableTransducer / Direct Usage in SwiftUI".
// Verbatim from the Oak README below the imports: it must compile unchanged.
import Oak
import SwiftUI

struct CounterView: View {
    @State private var counter = ObservableTransducer(
        of: CounterTransducer.self,
        initialState: CounterTransducer.State(),
        env: CounterTransducer.Env()
    )
    
    var body: some View {
        VStack {
            Text("Count: \(counter.state.count)")
            Button("Increment") { 
                try? counter.proxy.send(.increment) 
            }
            Button("Decrement") { 
                try? counter.proxy.send(.decrement) 
            }
        }
    }
}
