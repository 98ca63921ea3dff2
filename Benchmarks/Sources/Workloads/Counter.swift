import BenchSupport
import Oak

/// The pure counter transducer of W1, W1b and W4: every event goes through
/// the shared, never-inlined `counterUpdate`.
enum CounterTransducer: Transducer {
    typealias State = CounterState
    typealias Event = CounterEvent
    typealias Output = Int

    static func update(_ state: inout State, event: Event) -> Int {
        counterUpdate(&state, event)
    }
}
