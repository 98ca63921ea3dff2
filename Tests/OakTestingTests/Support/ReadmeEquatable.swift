// The README's transducers (Support/ReadmeTransducers.swift, shared with the
// Oak-spelling tests) are written without `Equatable`; the testers compare
// states and events, so this target adds it.

import Oak

extension EffectCounter.State: Equatable {
    /// Equal when value and pending operation are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value && lhs.pending == rhs.pending
    }
}

extension EffectCounter.Env {
    /// Services that take one second on `clock`, as the README's take one
    /// second of real time.
    static func waiting(on clock: some Clock<Duration>) -> Self {
        var env = Self()
        env.serviceIncrement = { try await clock.sleep(for: .seconds(1)) }
        env.serviceDecrement = { try await clock.sleep(for: .seconds(1)) }
        return env
    }
}

extension SimpleCounter.State: Equatable {
    /// Equal when the counts are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count
    }
}
