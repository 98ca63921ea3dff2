// `--speed`: a factor from 1 to 600, refused with the range otherwise
// (negative numbers are values, not options), and the clock it gives.

import AppCommands
import ArgumentParser
import Testing

@Suite("The speed option")
struct SpeedOptionTests {
    @Test func realTimeIsTheDefault() throws {
        #expect(try SpeedOption.parse([]).speed == 1)
        #expect(try SpeedOption.parse(["--speed", "60"]).clock.factor == 60)
    }

    @Test(arguments: ["0", "-1", "601", "nan", "inf"])
    func aFactorOutOfRangeIsRefusedWithTheRange(factor: String) {
        do {
            _ = try SpeedOption.parse(["--speed", factor])
            Issue.record("--speed \(factor) was taken")
        } catch {
            #expect(SpeedOption.message(for: error).contains("--speed takes a factor from 1 (real time) to 600"))
        }
    }

    @Test func itsVariableIsNamedAfterTheOption() {
        #expect(SpeedOption.variables.map { $0.variable(prefix: "NOTES_") } == ["NOTES_SPEED"])
    }
}
