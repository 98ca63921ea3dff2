import Oak

/// The transducer of the article's samples (as in
/// Tests/OakTests/Hosts/HostingArticleTests.swift).
enum Counter: Transducer {
    struct State: NonTerminal {
        var count = 0
    }
    enum Event { case increment }
    // Declared although `update` implies it: with Swift 6.3.1, a pure
    // transducer whose `Output` is only inferred does not conform when it is
    // used from another file ("does not conform to protocol
    // 'BaseTransducer'"); reported to the runtime's owners.
    typealias Output = Int
    static func update(_ state: inout State, event: Event) -> Int {
        state.count += 1
        return state.count
    }
}
