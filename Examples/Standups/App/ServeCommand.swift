// `standups serve`: its options; the injector builds StandupsWeb over them.

import AppCommands
import ArgumentParser
import StandupsWeb

/// What `standups serve` serves (`STANDUPS_PORT`, `STANDUPS_NO_SPEECH`… set its options too).
enum StandupsServed: ServedApp {
    static let variablePrefix = "STANDUPS_"
    static let variables =
        [EnvironmentOption("no-speech", .flag), EnvironmentOption("max-recordings")] + SpeedOption.variables
        + StorageOptions<StandupsCommand>.variables

    /// The web front end, over what the injector opened.
    static func web(_ options: ServeAppOptions, services: inout AppServices) async throws -> StandupsWeb {
        try await Injection.web(options, services: &services)
    }
}

/// `serve`'s own options, and where the stand-ups are kept.
struct ServeAppOptions: ParsableArguments {
    @Flag(help: "Do not record meetings (no recogniser runs, pages offer no microphone).")
    var noSpeech = false
    @Option(
        parsing: .unconditional,
        help: "The most meetings recorded at once (each recogniser holds about 100 MB while someone speaks).")
    var maxRecordings = 16
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard maxRecordings > 0 else { throw ValidationError("--max-recordings takes a number from 1.") }
    }
}
