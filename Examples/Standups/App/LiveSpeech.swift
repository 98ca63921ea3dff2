// The speech recogniser the program uses: the user's opt-out, else the live
// one. (Until the pocketsphinx adapter is wired in, recognition is
// "restricted".)

import Devices

enum LiveSpeech {
    /// The recogniser for the options given.
    static func client(audio: String?, optedOut: Bool, clock: any Clock<Duration>) -> SpeechClient {
        if optedOut { return .unavailable(.denied) }
        return .unavailable(.restricted)
    }
}
