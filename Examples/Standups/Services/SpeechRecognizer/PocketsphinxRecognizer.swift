// Offline speech recognition with pocketsphinx (Debian's pocketsphinx and
// pocketsphinx-en-us packages), loaded at run time: where the library or the
// model is missing, the recogniser says so through `availability` and
// recognition fails with `RecognitionError.unavailable`.

import Foundation

/// Recognises English speech offline with pocketsphinx, as a stream of the
/// whole transcript so far.
///
/// ```swift
/// let recognizer = PocketsphinxRecognizer()
/// guard recognizer.availability == .available else { return }
/// let audio = AudioSource.wavFile(URL(filePath: "standup.wav"), clock: ContinuousClock())
/// for try await transcript in recognizer.transcripts(from: audio) {
///     print(transcript)
/// }
/// ```
public struct PocketsphinxRecognizer: Sendable {
    /// The files of a pocketsphinx model.
    public struct Model: Equatable, Hashable, Sendable {
        /// The acoustic model's directory (`-hmm`).
        public var acousticModel: URL
        /// The language model (`-lm`).
        public var languageModel: URL
        /// The pronunciation dictionary (`-dict`).
        public var dictionary: URL

        /// A model from its files.
        public init(acousticModel: URL, languageModel: URL, dictionary: URL) {
            self.acousticModel = acousticModel
            self.languageModel = languageModel
            self.dictionary = dictionary
        }

        /// The US English model in `directory`, laid out as Debian's
        /// `pocketsphinx-en-us` package lays it out: `en-us/`,
        /// `en-us.lm.bin` and `cmudict-en-us.dict`.
        public init(directory: URL) {
            self.init(
                acousticModel: directory.appendingPathComponent("en-us", isDirectory: true),
                languageModel: directory.appendingPathComponent("en-us.lm.bin"),
                dictionary: directory.appendingPathComponent("cmudict-en-us.dict"))
        }

        /// Debian's US English model, in `/usr/share/pocketsphinx/model/en-us`.
        public static let debianEnglish = Model(
            directory: URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us", isDirectory: true))
    }

    /// The model it recognises with.
    public var model: Model
    private let didFreeDecoder: @Sendable () -> Void

    /// A recogniser with `model`.
    public init(model: Model = .debianEnglish) {
        self.init(model: model, didFreeDecoder: {})
    }

    /// A recogniser that calls `didFreeDecoder` each time it frees a
    /// decoder (tests check that each recognition frees its own, once).
    init(model: Model, didFreeDecoder: @escaping @Sendable () -> Void) {
        self.model = model
        self.didFreeDecoder = didFreeDecoder
    }

    /// Whether recognition can start: the model's files are there and the
    /// pocketsphinx library loads.
    public var availability: Availability {
        switch loadLibrary() {
        case .success: .available
        case .failure(.unavailable(let reason)): .unavailable(reason: reason)
        case .failure(let error): .unavailable(reason: error.description)
        }
    }

    /// Recognises `source`'s audio. Each element is the whole transcript so
    /// far: the finished utterances and the current one's partial
    /// hypothesis, joined with spaces; an element comes only when the text
    /// changed. The stream ends after the last utterance's final
    /// hypothesis when the audio ends, and throws ``RecognitionError`` when
    /// the recogniser, its model or the audio is missing or fails.
    /// Recognition stops, and its decoder is freed, as soon as the consumer
    /// stops iterating.
    ///
    /// Decoding runs on a thread of its own, a few milliseconds per
    /// 100 ms chunk.
    public func transcripts(from source: AudioSource) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        let recognizer = self
        let task = Task.detached {
            do {
                let library = try recognizer.loadLibrary().get()
                let audio = try source.open()
                try await Self.recognise(
                    audio, library: library, model: recognizer.model, didFreeDecoder: recognizer.didFreeDecoder,
                    into: continuation)
                // The decoder is freed: the stream ends after it.
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Feeds `audio` to a decoder of its own, one utterance after another,
    /// yielding the transcript whenever it changed; frees the decoder
    /// before returning. The decoder (its models take tens of megabytes
    /// and a second or more to load) is made when the first chunk
    /// arrives, so a server's meeting nobody speaks into costs nothing,
    /// and it decodes on a thread of its own (``Decoding``), never on the
    /// concurrency pool the rest of the process shares.
    private static func recognise(
        _ audio: any ChunkReader, library: PocketsphinxLibrary, model: Model,
        didFreeDecoder: @escaping @Sendable () -> Void,
        into continuation: AsyncThrowingStream<String, any Error>.Continuation
    ) async throws {
        let decoding = Decoding(library: library, model: model, didFreeDecoder: didFreeDecoder)
        while let chunk = try await audio.next() {
            try Task.checkCancellation()
            if let text = try await decoding.take(chunk) { continuation.yield(text) }
        }
        if let text = try await decoding.finish() { continuation.yield(text) }
    }

    /// The library, once the model's files are found.
    private func loadLibrary() -> Result<PocketsphinxLibrary, RecognitionError> {
        let install = "install Debian's pocketsphinx-en-us package"
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: model.acousticModel.path, isDirectory: &isDirectory), isDirectory.boolValue,
            files.fileExists(atPath: model.acousticModel.appendingPathComponent("mdef").path)
        else {
            return .failure(.unavailable(reason: "no acoustic model in \(model.acousticModel.path): \(install)"))
        }
        for file in [model.languageModel, model.dictionary] where !files.isReadableFile(atPath: file.path) {
            return .failure(.unavailable(reason: "no model file \(file.path): \(install)"))
        }
        return PocketsphinxLibrary.shared.mapError { missing in
            .unavailable(
                reason: "pocketsphinx is not installed (\(missing.reason)): install Debian's pocketsphinx package")
        }
    }
}
