import Clocks
import Common
import Testing

@Suite("A scaled clock")
struct ScaledClockTests {
    @Test func aMinutePassesInASecondAtSixtyTimes() async throws {
        let base = TestClock<Duration>()
        let clock = ScaledClock(base: base, factor: 60)
        #expect(clock.now.offset == .zero)
        await base.advance(by: .seconds(1))
        #expect(clock.now.offset == .seconds(60))
        #expect(clock.now.duration(to: clock.now.advanced(by: .seconds(5))) == .seconds(5))
    }

    @Test func aSleepEndsOnceTheBaseClockPassedTheScaledDeadline() async throws {
        let base = TestClock<Duration>()
        let clock = ScaledClock(base: base, factor: 60)
        let deadline = clock.now.advanced(by: .seconds(120))
        let woke = Task { try await clock.sleep(until: deadline, tolerance: nil) }
        // Past the deadline on the base clock (2 s): the sleeper wakes
        // whether it started sleeping before the advance or after it.
        await base.advance(by: .seconds(3))
        try await woke.value
        #expect(clock.now.offset == .seconds(180))
        // A deadline already passed returns at once.
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)), tolerance: nil)
    }
}
