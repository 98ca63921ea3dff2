// The speech recogniser the program uses: pocketsphinx offline, listening
// to the WAV file given with --audio or else to the microphone; "denied"
// when the user opted out (--no-speech). Whether it can be used is asked
// once, before the terminal is taken over: ALSA prints its complaints
// about a missing sound card on standard error, which must not land on the
// screen the app draws.

import ArgumentParser
import Devices
import Foundation
import LiveProviders
import SpeechRecognizer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal app's speech options: a recorded meeting instead of the
/// microphone, or no speech at all.
struct SpeechOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A recorded meeting to transcribe instead of the microphone (a WAV file).", valueName: "file"))
    var audio: String?

    @Flag(help: "Do not recognise speech: meetings are not recorded.")
    var noSpeech = false

    /// Refuses a file that is not a WAV recording the recogniser reads.
    func validate() throws {
        guard let audio else { return }
        do {
            _ = try WAVAudio(contentsOf: URL(fileURLWithPath: audio))
        } catch {
            throw ValidationError("--audio: \(error)")
        }
    }
}

enum LiveSpeech {
    /// The recogniser for the options given, its authorization settled.
    static func client(audio: String?, optedOut: Bool, clock: any Clock<Duration>) async -> SpeechClient {
        if optedOut { return .unavailable(.denied) }
        let input: AudioInput = audio.map { .wavFile(URL(fileURLWithPath: $0)) } ?? .microphone
        let live = SpeechClient.live(audio: input, clock: clock, optedOut: false)
        let status = await withStandardErrorSilenced { await live.authorization() }
        guard status == .authorized else {
            let reason = await withStandardErrorSilenced { SpeechClient.unavailability(of: input) }
            return .unavailable(status, reason: reason)
        }
        return SpeechClient(
            authorization: { status }, requestAuthorization: { status }, transcripts: live.transcripts)
    }

    /// Runs `body` with standard error sent to /dev/null.
    private static func withStandardErrorSilenced<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
    ) async -> T {
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0, null >= 0 { dup2(null, STDERR_FILENO) }
        defer {
            if saved >= 0 {
                dup2(saved, STDERR_FILENO)
                close(saved)
            }
            if null >= 0 { close(null) }
        }
        return await body()
    }
}
