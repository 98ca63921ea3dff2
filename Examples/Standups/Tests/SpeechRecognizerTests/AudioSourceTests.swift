// A WAV file given out as if recorded: one 100 ms chunk per 100 ms of the
// clock; a file that cannot be read makes the source unavailable.

import Clocks
import Foundation
import Testing

@testable import SpeechRecognizer

@Suite("Audio sources")
struct AudioSourceTests {
    @Test func aFileGivesOneChunkPerHundredMillisecondsOfTheClock() async throws {
        let clock = ImmediateClock()
        let start = clock.now
        let scratch = try ScratchDirectory()
        let file = try scratch.write(wavData(samples: Array(repeating: 7, count: 4_000)), to: "short.wav")
        let source = AudioSource.wavFile(file, clock: clock)
        #expect(source.availability == .available)
        let reader = try source.open()
        var chunks: [Int] = []
        var times: [Duration] = []
        while let chunk = try await reader.next() {
            chunks.append(chunk.count)
            times.append(start.duration(to: clock.now))
        }
        #expect(chunks == [1_600, 1_600, 800])
        #expect(times == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
    }

    @Test func aMissingOrWrongFileIsUnavailable() throws {
        let scratch = try ScratchDirectory()
        let missing = AudioSource.wavFile(scratch.url.appendingPathComponent("missing.wav"), clock: ImmediateClock())
        guard case .unavailable(let reason) = missing.availability else {
            Issue.record("a missing file is available")
            return
        }
        #expect(reason.contains("missing.wav"))
        let stereo = try scratch.write(wavData(samples: [0, 0], channels: 2), to: "stereo.wav")
        #expect(
            AudioSource.wavFile(stereo, clock: ImmediateClock()).availability
                == .unavailable(
                    reason: WAVError.unsupportedFormat(found: "16000 Hz, 2 channels, 16-bit PCM").description))
    }
}
