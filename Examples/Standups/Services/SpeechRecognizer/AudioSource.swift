// Where the recogniser's audio comes from: a WAV file played as if recorded
// (paced by a clock), the microphone, or samples sent from elsewhere (a
// browser's microphone, streamed to a server).

import Foundation

/// Audio for the recogniser: 16 kHz mono 16-bit samples, in chunks of
/// 100 ms as they become available.
///
/// ```swift
/// let meeting = AudioSource.wavFile(URL(filePath: "standup.wav"), clock: ContinuousClock())
/// let live = AudioSource.microphone()
/// ```
public struct AudioSource: Sendable {
    private enum Kind: Sendable {
        case wavFile(URL, any Clock<Duration>)
        case microphone(device: String)
        case samples(@Sendable () -> AsyncStream<[Int16]>)
    }

    private let kind: Kind

    /// The WAV file at `url` (16 kHz mono 16-bit PCM), given out one 100 ms
    /// chunk per 100 ms of `clock`: the transcript grows as if the file
    /// were being recorded, faster when the clock runs faster, at once
    /// with a clock that does not wait.
    public static func wavFile(_ url: URL, clock: any Clock<Duration>) -> AudioSource {
        AudioSource(kind: .wavFile(url, clock))
    }

    /// The microphone: ALSA's capture `device` (`libasound.so.2`, loaded at
    /// run time), 16 kHz mono with ALSA resampling. Untested by the test
    /// suite (its machines have no microphone); unavailable when ALSA or
    /// the device is missing.
    public static func microphone(device: String = "default") -> AudioSource {
        AudioSource(kind: .microphone(device: device))
    }

    /// Samples that arrive from elsewhere, such as a browser's microphone
    /// streamed to a server: each recognition iterates a new stream of
    /// `chunks` (16 kHz mono 16-bit samples), until it ends. Always
    /// available: a stream with nobody sending is silence.
    public static func samples(_ chunks: @escaping @Sendable () -> AsyncStream<[Int16]>) -> AudioSource {
        AudioSource(kind: .samples(chunks))
    }

    /// Whether the audio can be opened now: the file reads as 16 kHz mono
    /// 16-bit PCM, or the microphone opens. Reads the whole file.
    public var availability: Availability {
        switch kind {
        case .wavFile(let url, _):
            do {
                _ = try WAVAudio(contentsOf: url)
                return .available
            } catch {
                return .unavailable(reason: error.description)
            }
        case .microphone(let device):
            return microphoneAvailability(device: device)
        case .samples:
            return .available
        }
    }

    /// Opens the audio for one recognition.
    func open() throws(RecognitionError) -> any ChunkReader {
        switch kind {
        case .wavFile(let url, let clock):
            do {
                return Self.paced(try WAVAudio(contentsOf: url).samples, clock: clock)
            } catch {
                throw .audio(error.description)
            }
        case .microphone(let device):
            return try Microphone(device: device)
        case .samples(let chunks):
            return StreamedSamples(chunks())
        }
    }

    private static func paced(_ samples: [Int16], clock: some Clock<Duration>) -> any ChunkReader {
        PacedSamples(samples, clock: clock)
    }
}
