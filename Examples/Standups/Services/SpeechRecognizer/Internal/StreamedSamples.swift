// Samples as another task sends them (a browser's microphone on a server).

/// Gives out the chunks of a stream as they arrive; ends with the stream.
final class StreamedSamples: ChunkReader {
    private var chunks: AsyncStream<[Int16]>.AsyncIterator

    init(_ stream: AsyncStream<[Int16]>) {
        chunks = stream.makeAsyncIterator()
    }

    func next() async throws -> [Int16]? {
        let chunk = await chunks.next()
        // A cancelled stream ends: that is the recognition stopping.
        try Task.checkCancellation()
        return chunk
    }
}
