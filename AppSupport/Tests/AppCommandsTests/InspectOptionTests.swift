// `--inspect [ADDRESS]`: a bare `--inspect` means the inspector running on
// this machine; an address must be an inspector's, on this machine.

import AppCommands
import ArgumentParser
import Testing

@Suite("The inspect option")
struct InspectOptionTests {
    @Test func aBareInspectTakesNoValue() throws {
        #expect(InspectOption.arguments(["--inspect"]) == ["--inspect", "running"])
        #expect(InspectOption.arguments(["--inspect", "serve"]) == ["--inspect", "running", "serve"])
        #expect(InspectOption.arguments(["--inspect", "--live"]) == ["--inspect", "running", "--live"])
        #expect(
            InspectOption.arguments(["--inspect", "oak://abc@127.0.0.1:7700"]) == [
                "--inspect", "oak://abc@127.0.0.1:7700",
            ])
        #expect(InspectOption.arguments(["--live"]) == ["--live"])
        #expect(try InspectOption.parse(InspectOption.arguments(["--inspect"])).address == "running")
        #expect(try InspectOption.parse([]).address == nil)
    }

    @Test func anAddressMustBeAnInspectorsOnThisMachine() throws {
        #expect(try InspectOption.parse(["--inspect", "oak://abc@127.0.0.1:7700"]).address != nil)
        do {
            _ = try InspectOption.parse(["--inspect", "oak://abc@10.1.2.3:7700"])
            Issue.record("a remote inspector was taken")
        } catch {
            #expect(InspectOption.message(for: error).contains("must run on this machine"))
        }
    }
}
