// What the live speech recogniser listens to.

import Foundation

/// The audio the live speech recogniser listens to during a meeting.
public enum AudioInput: Equatable, Hashable, Sendable {
    /// A WAV file (16 kHz mono 16-bit PCM) played as if recorded during the
    /// meeting, at the pace of the meeting's clock.
    case wavFile(URL)
    /// The microphone (ALSA's default capture device).
    case microphone
}
