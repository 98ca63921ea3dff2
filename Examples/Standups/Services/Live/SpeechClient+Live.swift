// The speech recogniser's live dependency: pocketsphinx offline (the
// SpeechRecognizer adapter), listening to a WAV file or the microphone.
// Here, on the adapter side, so that no feature imports the recogniser; the
// injector calls it.

import Devices
import Foundation
import SpeechRecognizer
import Synchronization

extension SpeechClient {
    /// The offline recogniser listening to `audio`; a WAV file is given out
    /// at the pace of `clock` (the meeting's), so that its transcript grows
    /// as the meeting runs.
    ///
    /// Authorization is `.denied` when the user `optedOut`, `.restricted`
    /// when pocketsphinx, its model or the audio is missing, else
    /// `.authorized` (there is no one to ask on Linux). The transcripts'
    /// errors are ``SpeechFailure``s with a message for the user.
    public static func live(audio: AudioInput, clock: any Clock<Duration>, optedOut: Bool) -> SpeechClient {
        let recognizer = PocketsphinxRecognizer()
        let source: AudioSource =
            switch audio {
            case .wavFile(let url): .wavFile(url, clock: clock)
            case .microphone: .microphone()
            }
        let authorization: @Sendable () async -> SpeechAuthorization = {
            if optedOut { return .denied }
            guard recognizer.availability == .available, source.availability == .available else { return .restricted }
            return .authorized
        }
        return SpeechClient(
            authorization: authorization, requestAuthorization: authorization,
            transcripts: { recognizer.transcripts(from: source).mappingFailures() })
    }

    /// What keeps the offline recogniser from listening to `audio`, said
    /// to the user (what is missing, and how to install it), or `nil` when
    /// nothing does.
    public static func unavailability(of audio: AudioInput) -> String? {
        let source: AudioSource =
            switch audio {
            case .wavFile(let url): .wavFile(url, clock: ContinuousClock())
            case .microphone: .microphone()
            }
        let reasons = [PocketsphinxRecognizer().availability, source.availability].compactMap { availability in
            if case .unavailable(let reason) = availability { reason } else { nil }
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}

extension SpeechClient {
    /// The offline recogniser listening to `meeting`'s microphones on other
    /// machines (a web server's meeting hears its viewers' browsers): the
    /// audio of whoever holds the meeting's floor, as it arrives.
    ///
    /// Authorization is `.restricted` when pocketsphinx or its model is
    /// missing, else `.authorized`: whether anyone sends audio is up to
    /// the viewers.
    ///
    /// Each recognition takes one of `recordings`' places while it runs (a
    /// decoder holds about 100 MB once someone speaks): when none is free
    /// it fails at once, saying so, and the meeting goes on without a
    /// transcript.
    public static func live(
        microphones: RemoteMicrophones, meeting: UUID, recordings: RecordingLimit = RecordingLimit(16)
    ) -> SpeechClient {
        let recognizer = PocketsphinxRecognizer()
        let source = AudioSource.samples { microphones.audio(of: meeting) }
        let authorization: @Sendable () async -> SpeechAuthorization = {
            recognizer.availability == .available ? .authorized : .restricted
        }
        return SpeechClient(
            authorization: authorization, requestAuthorization: authorization,
            transcripts: {
                guard recordings.take() else {
                    return AsyncThrowingStream {
                        $0.finish(
                            throwing: SpeechFailure(
                                "This server already records as many meetings as it may (\(recordings.places)); "
                                    + "this one goes on without a transcript."))
                    }
                }
                return recognizer.transcripts(from: source).mappingFailures(onEnd: { recordings.give() })
            })
    }
}

/// How many recognitions may run at once on a server (each of its
/// decoders holds about 100 MB once someone speaks).
public final class RecordingLimit: Sendable {
    /// How many may run at once.
    public let places: Int
    private let taken = Mutex(0)

    /// At most `places` at once (at least one).
    public init(_ places: Int) {
        self.places = max(1, places)
    }

    /// How many run now.
    public var running: Int { taken.withLock { $0 } }

    func take() -> Bool {
        taken.withLock { taken in
            guard taken < places else { return false }
            taken += 1
            return true
        }
    }

    func give() {
        taken.withLock { $0 = max(0, $0 - 1) }
    }
}

extension AsyncThrowingStream<String, any Error> {
    /// The same transcripts, their errors as ``SpeechFailure``s; cancelling
    /// the consumer stops the recogniser. `onEnd` runs once, when the
    /// stream ends or its consumer stops.
    fileprivate func mappingFailures(onEnd: @escaping @Sendable () -> Void = {}) -> Self {
        let (stream, continuation) = Self.makeStream()
        let task = Task {
            do {
                for try await transcript in self { continuation.yield(transcript) }
                continuation.finish()
            } catch let error as RecognitionError {
                continuation.finish(throwing: SpeechFailure(error.description))
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: SpeechFailure("speech recognition failed: \(error)"))
            }
        }
        continuation.onTermination = { _ in
            task.cancel()
            onEnd()
        }
        return stream
    }
}
