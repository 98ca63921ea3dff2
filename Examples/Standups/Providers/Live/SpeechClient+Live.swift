// The speech recogniser's live dependency: pocketsphinx offline (the
// SpeechRecognizer adapter), listening to a WAV file or the microphone.
// Here, on the adapter side, so that no feature imports the recogniser; the
// injector calls it.

import Devices
import Foundation
import SpeechRecognizer

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
}

extension SpeechClient {
    /// The offline recogniser listening to `meeting`'s microphones on other
    /// machines (a web server's meeting hears its viewers' browsers): the
    /// audio of whoever holds the meeting's floor, as it arrives.
    ///
    /// Authorization is `.restricted` when pocketsphinx or its model is
    /// missing, else `.authorized`: whether anyone sends audio is up to
    /// the viewers.
    public static func live(microphones: RemoteMicrophones, meeting: UUID) -> SpeechClient {
        let recognizer = PocketsphinxRecognizer()
        let source = AudioSource.samples { microphones.audio(of: meeting) }
        let authorization: @Sendable () async -> SpeechAuthorization = {
            recognizer.availability == .available ? .authorized : .restricted
        }
        return SpeechClient(
            authorization: authorization, requestAuthorization: authorization,
            transcripts: { recognizer.transcripts(from: source).mappingFailures() })
    }
}

extension AsyncThrowingStream<String, any Error> {
    /// The same transcripts, their errors as ``SpeechFailure``s; cancelling
    /// the consumer stops the recogniser.
    fileprivate func mappingFailures() -> Self {
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
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
