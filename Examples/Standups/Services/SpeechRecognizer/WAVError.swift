// Why a WAV file cannot be given to the recogniser, and what to do.

/// Why a file is not audio the recogniser can read: it reads 16 kHz mono
/// 16-bit PCM WAV files only.
public enum WAVError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The data is not a RIFF WAVE file.
    case notWAV
    /// A WAV file in another format than 16 kHz mono 16-bit PCM, as found
    /// (e.g. "44100 Hz, 2 channels, 16-bit PCM").
    case unsupportedFormat(found: String)
    /// A WAV file whose structure is broken (truncated, or a chunk missing).
    case damaged(String)

    /// The command that converts audio to what the recogniser reads.
    public static let conversionHint = "convert it with `sox in.wav -r 16000 -c 1 -b 16 out.wav`"

    /// What went wrong, and what to do about it.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notWAV: "not a WAV file (no RIFF WAVE header): \(Self.conversionHint)"
        case .unsupportedFormat(let found):
            "the recogniser needs 16000 Hz, 1 channel, 16-bit PCM audio, this is \(found): \(Self.conversionHint)"
        case .damaged(let problem): "damaged WAV file (\(problem)): \(Self.conversionHint) or record it again"
        }
    }
}
