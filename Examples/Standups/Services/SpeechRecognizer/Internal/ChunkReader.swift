// Audio as the decoding task reads it: chunks of about 100 ms of 16 kHz mono
// samples, as they become available.

/// A source of audio chunks, read by one task.
protocol ChunkReader: AnyObject {
    /// The next chunk, when it is available; `nil` when the audio ended.
    /// Throws `CancellationError` when the reading task is cancelled.
    func next() async throws -> [Int16]?
}

/// How many samples a chunk holds: 100 ms at 16 kHz.
let samplesPerChunk = WAVAudio.sampleRate / 10
