// A file's audio, given out as if it were being recorded: chunk `k` is
// available `(k + 1) × 100 ms` of the clock after the first read, so that the
// transcript grows while the meeting runs, and a faster clock speeds it up.

/// Samples given out one 100 ms chunk per 100 ms of `clock`.
final class PacedSamples<C: Clock<Duration>>: ChunkReader {
    private let samples: [Int16]
    private let clock: C
    private var start: C.Instant?
    private var offset = 0

    init(_ samples: [Int16], clock: C) {
        self.samples = samples
        self.clock = clock
    }

    func next() async throws -> [Int16]? {
        guard offset < samples.count else { return nil }
        let start = self.start ?? clock.now
        self.start = start
        let chunkIndex = offset / samplesPerChunk
        // Deadlines from the start, so that time spent decoding does not
        // add up.
        try await clock.sleep(until: start.advanced(by: .milliseconds(100) * (chunkIndex + 1)), tolerance: nil)
        let end = min(offset + samplesPerChunk, samples.count)
        defer { offset = end }
        return Array(samples[offset..<end])
    }
}
