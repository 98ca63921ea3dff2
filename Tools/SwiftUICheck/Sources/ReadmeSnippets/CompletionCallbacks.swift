// swift-format-ignore-file
// README, "SwiftUI Integration / TransducerView / Completion Callbacks".
// Verbatim from the Oak README below the imports: it must compile unchanged.
import Oak
import SwiftUI

struct ContentView: View {
    @SwiftUI.State private var state = MyTransducer.State()

    var body: some View {
        TransducerView(
            of: MyTransducer.self,
            initialState: $state,
            completion: { result in
                switch result {
                case .success(let output):
                    print("Transducer completed successfully with output: \(output)")
                case .failure(let error):
                    print("Transducer failed with error: \(error)")
                }
            }
        ) { state, input in
            // UI content
        }
    }
}
