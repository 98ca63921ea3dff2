// A recognition's decoding, on a thread of its own. pocketsphinx is
// synchronous C: making a decoder loads its models (a second or more of
// CPU), and each 100 ms chunk takes milliseconds to decode. On Swift's
// concurrency pool — as many threads as cores — that held a thread every
// other task of the process waited for: a server's pages and timers, and
// in the tests every other test (a 100 ms sleep woke up seconds late while
// a few recognitions loaded their models). A serial dispatch queue of its
// own runs on a thread outside that pool.

import Foundation

/// An executor that runs its jobs, one at a time, on a dispatch queue of
/// its own.
final class DecodingExecutor: SerialExecutor {
    /// Its queue's label (a thread's name in a debugger's list).
    static let label = "oak.standups.speech-decoding"
    private static let marker = DispatchSpecificKey<Bool>()

    private let queue: DispatchQueue

    init() {
        queue = DispatchQueue(label: Self.label)
        queue.setSpecific(key: Self.marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the caller runs on a decoding queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
}

/// One recognition's decoder and transcript, isolated to a thread of their
/// own (``DecodingExecutor``). The decoder is made on the first chunk, and
/// freed when the decoding is dropped.
actor Decoding {
    private let executor = DecodingExecutor()
    private let library: PocketsphinxLibrary
    private let model: PocketsphinxRecognizer.Model
    private let didFreeDecoder: @Sendable () -> Void
    private var decoder: Decoder?
    private var transcript = Transcript()
    private var wasInSpeech = false

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(
        library: PocketsphinxLibrary, model: PocketsphinxRecognizer.Model,
        didFreeDecoder: @escaping @Sendable () -> Void
    ) {
        self.library = library
        self.model = model
        self.didFreeDecoder = didFreeDecoder
    }

    /// Decodes `chunk` (the decoder is made for the first one); returns
    /// the whole transcript when it changed. An utterance ends when the
    /// speech detector goes from speech to silence.
    func take(_ chunk: [Int16]) throws(RecognitionError) -> String? {
        let decoder = try started()
        try decoder.process(chunk)
        let isInSpeech = decoder.isInSpeech
        if wasInSpeech && !isInSpeech {
            try decoder.endUtterance()
            transcript.finishUtterance(with: decoder.hypothesis)
            try decoder.startUtterance()
        } else {
            transcript.update(partial: decoder.hypothesis)
        }
        wasInSpeech = isInSpeech
        return transcript.changedText()
    }

    /// Ends the last utterance and frees the decoder; returns the whole
    /// transcript when that changed it.
    func finish() throws(RecognitionError) -> String? {
        guard let decoder else { return nil }
        try decoder.endUtterance()
        transcript.finishUtterance(with: decoder.hypothesis)
        self.decoder = nil
        return transcript.changedText()
    }

    private func started() throws(RecognitionError) -> Decoder {
        if let decoder { return decoder }
        let decoder = try Decoder(library: library, model: model, didFree: didFreeDecoder)
        try decoder.startUtterance()
        self.decoder = decoder
        return decoder
    }
}
