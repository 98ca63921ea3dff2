// The WAV reader on small generated files: 16 kHz mono 16-bit PCM is read,
// anything else is refused with a message saying how to convert it, and
// damaged files are refused without crashing.

import Foundation
import SpeechRecognizer
import Testing

@Suite("Reading WAV files")
struct WAVAudioTests {
    let samples: [Int16] = [0, 1, -1, 12_345, .max, .min]

    @Test func readsSixteenKilohertzMonoPCM() throws {
        #expect(try WAVAudio(wav: wavData(samples: samples)).samples == samples)
        let scratch = try ScratchDirectory()
        let file = try scratch.write(wavData(samples: samples), to: "good.wav")
        let audio = try WAVAudio(contentsOf: file)
        #expect(audio.samples == samples)
        #expect(try WAVAudio(wav: wavData(samples: Array(repeating: 0, count: 24_000))).duration == .seconds(1.5))
    }

    @Test func skipsOtherChunksAndTheirPadding() throws {
        let data = wavData(samples: samples, extraChunks: [("LIST", [1, 2, 3]), ("junk", [])])
        #expect(try WAVAudio(wav: data).samples == samples)
    }

    @Test func refusesAnotherRateSayingHowToConvert() {
        #expect(throws: WAVError.unsupportedFormat(found: "44100 Hz, 1 channel, 16-bit PCM")) {
            try WAVAudio(wav: wavData(samples: samples, sampleRate: 44_100))
        }
        let error = WAVError.unsupportedFormat(found: "44100 Hz, 1 channel, 16-bit PCM")
        #expect(
            error.description
                == "the recogniser needs 16000 Hz, 1 channel, 16-bit PCM audio, this is 44100 Hz, 1 channel, "
                + "16-bit PCM: convert it with `sox in.wav -r 16000 -c 1 -b 16 out.wav`")
    }

    @Test func refusesStereoEightBitAndFloat() {
        #expect(throws: WAVError.unsupportedFormat(found: "16000 Hz, 2 channels, 16-bit PCM")) {
            try WAVAudio(wav: wavData(samples: samples, channels: 2))
        }
        #expect(throws: WAVError.unsupportedFormat(found: "16000 Hz, 1 channel, 8-bit PCM")) {
            try WAVAudio(wav: wavData(samples: samples, bitsPerSample: 8))
        }
        #expect(throws: WAVError.unsupportedFormat(found: "16000 Hz, 1 channel, 32-bit encoding 3, not integer PCM")) {
            try WAVAudio(wav: wavData(samples: samples, bitsPerSample: 32, encoding: 3))
        }
    }

    @Test func refusesTruncatedFiles() {
        let whole = wavData(samples: samples)
        let error = #expect(throws: WAVError.self) { try WAVAudio(wav: whole.prefix(whole.count - 3)) }
        #expect(error == .damaged("the \"data\" chunk says 12 bytes, the file holds 9"))
        #expect(error?.description.contains("sox in.wav -r 16000 -c 1 -b 16 out.wav") == true)
        // Cut inside the format chunk, and right after the header.
        #expect(throws: WAVError.self) { try WAVAudio(wav: whole.prefix(30)) }
        #expect(throws: WAVError.damaged("no format chunk")) { try WAVAudio(wav: whole.prefix(12)) }
    }

    @Test func refusesGarbageAndMissingFiles() throws {
        #expect(throws: WAVError.notWAV) { try WAVAudio(wav: Data()) }
        #expect(throws: WAVError.notWAV) { try WAVAudio(wav: Data("hello, this is not audio at all".utf8)) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            // Random bytes after a valid header: refused or read, never a crash.
            let noise = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            _ = try? WAVAudio(wav: Data(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8) + noise))
        }
        let scratch = try ScratchDirectory()
        let missing = scratch.url.appendingPathComponent("missing.wav")
        let error = #expect(throws: WAVError.self) { try WAVAudio(contentsOf: missing) }
        guard case .unreadable(let path, _) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == missing.path)
    }

    @Test func refusesAudioBeforeItsFormat() {
        var bytes = [UInt8](wavData(samples: samples))
        // Swap the chunk order: data (header + 12 bytes) first, then fmt (24 bytes).
        let format = bytes[12..<36]
        let audio = bytes[36...]
        bytes = Array(bytes[0..<12]) + audio + format
        #expect(throws: WAVError.damaged("the audio comes before its format")) { try WAVAudio(wav: Data(bytes)) }
    }
}
