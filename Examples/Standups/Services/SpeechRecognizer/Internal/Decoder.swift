// One pocketsphinx decoder: created with a model, fed raw audio, asked for
// its hypothesis, freed exactly once (when the object goes away). Not
// thread-safe: one task owns it.

import Foundation

/// A pocketsphinx decoder (`ps_decoder_t`).
final class Decoder {
    private let library: PocketsphinxLibrary
    private let handle: UnsafeMutableRawPointer
    private let didFree: @Sendable () -> Void

    /// A decoder over `model`, its log silenced. `didFree` is called once,
    /// after `ps_free`.
    init(
        library: PocketsphinxLibrary, model: PocketsphinxRecognizer.Model,
        didFree: @escaping @Sendable () -> Void
    ) throws(RecognitionError) {
        let arguments = [
            "-hmm", model.acousticModel.path, "-lm", model.languageModel.path, "-dict", model.dictionary.path,
            "-logfn", "/dev/null",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { argv.forEach { Foundation.free($0) } }
        let config = argv.withUnsafeMutableBufferPointer { argv in
            library.parseArguments(nil, library.args(), Int32(arguments.count), argv.baseAddress, 1)
        }
        guard let config else {
            throw .decoder("pocketsphinx refused its configuration (model at \(model.acousticModel.path))")
        }
        // The decoder keeps its own reference to the configuration.
        let handle = library.initialize(config)
        _ = library.freeArguments(config)
        guard let handle else {
            throw .decoder(
                "pocketsphinx could not load the model at \(model.acousticModel.path): "
                    + "reinstall Debian's pocketsphinx-en-us package")
        }
        self.library = library
        self.handle = handle
        self.didFree = didFree
    }

    deinit {
        _ = library.free(handle)
        didFree()
    }

    /// Starts an utterance.
    func startUtterance() throws(RecognitionError) {
        guard library.startUtterance(handle) >= 0 else { throw .decoder("pocketsphinx could not start an utterance") }
    }

    /// Decodes `samples` (16 kHz mono) as part of the current utterance.
    func process(_ samples: [Int16]) throws(RecognitionError) {
        let searched = samples.withUnsafeBufferPointer { samples in
            library.processRaw(handle, samples.baseAddress, samples.count, 0, 0)
        }
        guard searched >= 0 else { throw .decoder("pocketsphinx failed to decode the audio") }
    }

    /// Whether the audio decoded last was speech (pocketsphinx's voice
    /// activity detection).
    var isInSpeech: Bool { library.isInSpeech(handle) != 0 }

    /// The current utterance's best hypothesis: partial while it runs,
    /// final after ``endUtterance()``; empty when there is none.
    var hypothesis: String {
        guard let text = library.hypothesis(handle, nil) else { return "" }
        return String(cString: text)
    }

    /// Ends the current utterance.
    func endUtterance() throws(RecognitionError) {
        guard library.endUtterance(handle) >= 0 else { throw .decoder("pocketsphinx could not end an utterance") }
    }
}
