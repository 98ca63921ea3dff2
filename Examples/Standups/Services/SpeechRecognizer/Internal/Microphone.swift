// The microphone through ALSA (libasound.so.2, loaded at run time): 16 kHz
// mono 16-bit capture from the "default" device, read on a thread of its own
// (each read blocks for 100 ms). Not tested here: the machines the tests run
// on have no microphone; only the "unavailable" path runs there.

import CPocketsphinx
import Foundation
import Synchronization

/// ALSA's capture functions, loaded once per process.
///
/// `@unchecked Sendable`: C function pointers, set once when loading.
struct ALSALibrary: @unchecked Sendable {
    let open: oak_snd_pcm_open_fn
    let setParameters: oak_snd_pcm_set_params_fn
    let read: oak_snd_pcm_readi_fn
    let recover: oak_snd_pcm_recover_fn
    let close: oak_snd_pcm_close_fn

    /// The library, or why it cannot be used; loaded on first use.
    static let shared: Result<ALSALibrary, LibraryMissing> = Result { () throws(LibraryMissing) in
        let alsa = try DynamicLibrary("libasound.so.2")
        return ALSALibrary(
            open: try alsa.function("snd_pcm_open", as: oak_snd_pcm_open_fn.self),
            setParameters: try alsa.function("snd_pcm_set_params", as: oak_snd_pcm_set_params_fn.self),
            read: try alsa.function("snd_pcm_readi", as: oak_snd_pcm_readi_fn.self),
            recover: try alsa.function("snd_pcm_recover", as: oak_snd_pcm_recover_fn.self),
            close: try alsa.function("snd_pcm_close", as: oak_snd_pcm_close_fn.self))
    }
}

/// An open capture device (`snd_pcm_t *`), used by one thread at a time.
private struct PCMHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Opens `device` for 16 kHz mono 16-bit capture, or says why it cannot.
private func openCapture(_ device: String, alsa: ALSALibrary) throws(RecognitionError) -> PCMHandle {
    var pcm: UnsafeMutableRawPointer?
    let opened = alsa.open(&pcm, device, Int32(OAK_SND_PCM_STREAM_CAPTURE), 0)
    guard opened >= 0, let pcm else {
        let why =
            switch -opened {
            case ENOENT, ENODEV, ENXIO: "no microphone was found"
            case EBUSY: "the microphone is in use by another program"
            case EACCES, EPERM: "you may not use the microphone (is your user in the audio group?)"
            default: "the microphone cannot be opened"
            }
        throw .audio("\(why) (ALSA device \"\(device)\", error \(opened))")
    }
    let configured = alsa.setParameters(
        pcm, Int32(OAK_SND_PCM_FORMAT_S16_LE), Int32(OAK_SND_PCM_ACCESS_RW_INTERLEAVED), 1,
        UInt32(WAVAudio.sampleRate), 1, 500_000)
    guard configured >= 0 else {
        _ = alsa.close(pcm)
        throw .audio("the microphone (ALSA device \"\(device)\") cannot record 16 kHz mono (error \(configured))")
    }
    return PCMHandle(pointer: pcm)
}

/// Whether `device` can be opened for capture.
func microphoneAvailability(device: String) -> Availability {
    do {
        let alsa = try ALSALibrary.shared.get()
        let pcm = try openCapture(device, alsa: alsa)
        _ = alsa.close(pcm.pointer)
        return .available
    } catch let error as LibraryMissing {
        return .unavailable(reason: "ALSA is not installed (\(error.reason)): install Debian's libasound2 package")
    } catch {
        return .unavailable(reason: "\(error)")
    }
}

/// The microphone's audio, read on a thread of its own until the reader
/// goes away.
final class Microphone: ChunkReader {
    private var chunks: AsyncThrowingStream<[Int16], any Error>.Iterator
    private let stopped: StopFlag

    init(device: String) throws(RecognitionError) {
        let alsa: ALSALibrary
        do {
            alsa = try ALSALibrary.shared.get()
        } catch {
            throw .audio("ALSA is not installed (\(error.reason)): install Debian's libasound2 package")
        }
        let pcm = try openCapture(device, alsa: alsa)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [Int16].self)
        let stopped = StopFlag()
        continuation.onTermination = { _ in stopped.stop() }
        let thread = Thread {
            var buffer = [Int16](repeating: 0, count: samplesPerChunk)
            while !stopped.isStopped {
                let frames = buffer.withUnsafeMutableBytes {
                    alsa.read(pcm.pointer, $0.baseAddress, UInt($0.count / 2))
                }
                if frames < 0 {
                    // An overrun (the reader fell behind) is recovered from.
                    guard alsa.recover(pcm.pointer, Int32(frames), 1) >= 0 else {
                        continuation.finish(throwing: RecognitionError.audio("reading the microphone failed"))
                        break
                    }
                    continue
                }
                continuation.yield(Array(buffer.prefix(frames)))
            }
            _ = alsa.close(pcm.pointer)
            continuation.finish()
        }
        thread.name = "Microphone"
        thread.start()
        self.chunks = stream.makeAsyncIterator()
        self.stopped = stopped
    }

    deinit { stopped.stop() }

    func next() async throws -> [Int16]? {
        try await chunks.next()
    }
}

/// Tells the capture thread to stop (it does after its current read).
private final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isStopped: Bool { flag.load(ordering: .acquiring) }
    func stop() { flag.store(true, ordering: .releasing) }
}
