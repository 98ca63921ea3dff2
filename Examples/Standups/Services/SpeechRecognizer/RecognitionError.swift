// Why recognition could not start or stopped.

/// Why recognition could not start or stopped before the audio ended.
public enum RecognitionError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The recogniser or its model is missing; the reason says what to
    /// install.
    case unavailable(reason: String)
    /// The audio could not be opened or read.
    case audio(String)
    /// pocketsphinx failed.
    case decoder(String)

    /// What went wrong, for the user.
    public var description: String {
        switch self {
        case .unavailable(let reason): "speech recognition is not available: \(reason)"
        case .audio(let problem): "no audio to recognise: \(problem)"
        case .decoder(let problem): "speech recognition failed: \(problem)"
        }
    }
}
