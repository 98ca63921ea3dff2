// A transducer whose events, states and outputs are Codable: what the
// inspector's export round trip records, exports and replays. A module of
// its own, so that the generated test imports it as it would an app's.

import Oak

/// A turnstile: a coin of enough cents unlocks it, a push lets one through
/// and locks it again, a push while locked is refused.
public enum Turnstile: Transducer {
    /// Whether it is locked, and what it has taken.
    public struct State: NonTerminal, Codable, Equatable, Sendable {
        /// Whether a push is refused.
        public var isLocked = true
        /// Every cent taken.
        public var cents = 0
        /// How many went through.
        public var passes = 0

        /// A locked turnstile that took nothing.
        public init() {}
    }

    /// What happens to it.
    public enum Event: Codable, Sendable {
        /// A coin of `cents`.
        case coin(cents: Int)
        /// Someone pushes.
        case push
        /// A note on the run, which changes nothing.
        case note(String)
    }

    /// What it says after each event.
    public typealias Output = String

    /// Unlocks for 50 cents or more, locks after one pass.
    public static func update(_ state: inout State, event: Event) -> String {
        switch event {
        case .coin(let cents):
            state.cents += cents
            if cents >= 50 { state.isLocked = false }
            return state.isLocked ? "still locked" : "unlocked"
        case .push where state.isLocked:
            return "refused"
        case .push:
            state.isLocked = true
            state.passes += 1
            return "passed"
        case .note(let text):
            return text
        }
    }
}
