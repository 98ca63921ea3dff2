// The speech recogniser the program uses: pocketsphinx offline, listening
// to the WAV file given with --audio or else to the microphone; "denied"
// when the user opted out (--no-speech). Whether it can be used is asked
// once, before the terminal is taken over: ALSA prints its complaints
// about a missing sound card on standard error, which must not land on the
// screen the app draws.

import Devices
import Foundation
import LiveProviders

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
