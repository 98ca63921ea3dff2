// Options from the environment: the command line first, then the
// environment, then the defaults.

import AppCommands
import ArgumentParser
import Testing

@Suite("Options from the environment")
struct EnvironmentArgumentsTests {
    static let options = ServeOptions.environment + [EnvironmentOption("no-speech", .flag)]

    static func merged(_ arguments: [String], _ environment: [String: String]) -> [String] {
        EnvironmentArguments.merged(arguments, options: options, prefix: "APP_", environment: environment)
    }

    @Test func eachVariableGivesItsOptionAndTheCommandLineWins() throws {
        let environment = [
            "APP_PORT": "9000", "APP_MAX_SESSIONS": "5", "APP_IDLE_MINUTES": "0.5",
            "APP_ALLOWED_HOST": "app.example.com, .example.org", "APP_NO_SPEECH": "true", "OTHER": "x",
        ]
        let arguments = Self.merged(["--port", "8081"], environment)
        #expect(
            arguments == [
                "--port", "8081", "--max-sessions=5", "--idle-minutes=0.5", "--allowed-host=app.example.com",
                "--allowed-host=.example.org", "--no-speech",
            ])
        let options = try ServeOptions.parse(arguments.filter { $0 != "--no-speech" })
        #expect(options.port == 8081 && options.maxSessions == 5 && options.idleMinutes == 0.5)
        #expect(options.allowedHosts == ["app.example.com", ".example.org"])
        // `--port=8081` is given too.
        #expect(Self.merged(["--port=8081"], ["APP_PORT": "9000"]) == ["--port=8081"])
    }

    @Test func aFlagIsGivenOnlyWhenTheVariableSaysSo() {
        #expect(Self.merged([], ["APP_NO_SPEECH": "0"]) == [])
        #expect(Self.merged([], ["APP_NO_SPEECH": "1"]) == ["--no-speech"])
    }

    @Test func aValueFromTheEnvironmentIsValidatedLikeOneTyped() {
        // A negative number stays a value (`--name=value`), and is refused
        // with the range.
        let arguments = Self.merged([], ["APP_IDLE_MINUTES": "-1"])
        #expect(arguments == ["--idle-minutes=-1"])
        #expect(throws: (any Error).self) { try ServeOptions.parse(arguments) }
        #expect(
            ServeOptions.message(for: ValidationError("x")).isEmpty == false,
            "ArgumentParser says what is wrong")
    }

    /// Typed as two words, a negative number is refused with the range
    /// too, not taken for an option ("Missing value for '--port <port>'").
    @Test(arguments: [
        (["--port", "-1"], "--port takes 0 to 65535."),
        (["--max-sessions", "-5"], "--max-sessions takes a number from 1."),
        (["--idle-minutes", "-1"], "--idle-minutes takes a number of minutes above 0, at most a week (10080)."),
    ])
    func aNegativeNumberTypedIsRefusedWithItsRange(arguments: [String], message: String) {
        #expect {
            try ServeOptions.parse(arguments)
        } throws: { error in
            ServeOptions.message(for: error) == message
        }
    }

    @Test func optionsAfterADoubleDashAreValuesAndTheEnvironmentsGoBefore() {
        #expect(Self.merged(["serve", "--", "--port"], ["APP_PORT": "1"]) == ["serve", "--port=1", "--", "--port"])
    }

    @Test func theHelpNamesEachVariable() {
        let help = EnvironmentArguments.help(options: Self.options, prefix: "APP_")
        for option in Self.options {
            #expect(help.contains("APP_" + option.name.uppercased().replacing("-", with: "_")))
        }
    }

    @Test func aPublicAddressIsAnHTTPAddressWhoseNameTheServerAnswersFor() throws {
        let options = try ServeOptions.parse(Self.merged([], ["APP_PUBLIC_URL": "https://standups.example.com"]))
        #expect(options.publicURL == "https://standups.example.com")
        #expect(options.allowed.allows("standups.example.com"))
        #expect(!options.allowed.allows("other.example.com"))
        // An https address: the session cookie goes over HTTPS only.
        #expect(options.secureCookies)
        #expect(try !ServeOptions.parse(["--public-url", "http://standups.example.com"]).secureCookies)
        #expect(try !ServeOptions.parse([]).secureCookies)
        #expect {
            try ServeOptions.parse(["--public-url", "standups.example.com"])
        } throws: { error in
            ServeOptions.message(for: error)
                == "--public-url takes an http(s) address, such as https://app.example.com."
        }
    }
}
