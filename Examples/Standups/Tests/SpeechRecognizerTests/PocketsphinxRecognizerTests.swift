// The recogniser on real speech: two sentences spoken by Festival's
// cmu_us_slt_arctic_hts voice are transcribed, the transcript growing with
// partial results; the stream stops, and frees its decoder, when the consumer
// stops; samples sent from elsewhere (a browser) are heard, and no decoder is
// made before the first; a missing model makes recognition unavailable. Where Festival, SoX
// or pocketsphinx are missing these tests are skipped, except on CI
// (CI=true), where they fail saying which Debian package to install.

import Clocks
import Foundation
import StandupsTestSupport
import Synchronization
import Testing

@testable import SpeechRecognizer

@Suite("Recognising speech with pocketsphinx")
struct PocketsphinxRecognizerTests {
    static let needsTools = ConditionTrait.enabled(
        if: SpeechTools.shouldRun,
        "needs Debian's festival, festvox-us-slt-hts, sox, pocketsphinx and pocketsphinx-en-us packages")

    /// Two sentences with a second of silence between them, in a WAV file.
    static func twoSentences(in scratch: ScratchDirectory) async throws -> URL {
        let first = try await SpeechTools.speak("the meeting starts now", in: scratch)
        let second = try await SpeechTools.speak("we fixed the bug in the timer", in: scratch)
        let silence = [Int16](repeating: 0, count: WAVAudio.sampleRate)
        return try scratch.write(wavData(samples: first + silence + second), to: "two-sentences.wav")
    }

    @Test(needsTools, .timeLimit(.minutes(2)))
    func transcribesTwoSpokenSentencesAsTheyGrow() async throws {
        guard SpeechTools.check() else { return }
        let scratch = try ScratchDirectory()
        let file = try await Self.twoSentences(in: scratch)
        let freed = Mutex(0)
        let freedOnItsThread = Mutex<[Bool]>([])
        let recognizer = PocketsphinxRecognizer(model: .debianEnglish) {
            freed.withLock { $0 += 1 }
            freedOnItsThread.withLock { $0.append(DecodingExecutor.isCurrent) }
        }
        var transcripts: [String] = []
        for try await transcript in recognizer.transcripts(from: .wavFile(file, clock: ImmediateClock())) {
            transcripts.append(transcript)
        }
        let words = Set((transcripts.last ?? "").split(separator: " ").map(String.init))
        #expect(words.isSuperset(of: ["meeting", "starts", "fixed", "bug", "timer"]), "heard: \(transcripts)")
        #expect(transcripts.count > 2, "the transcript grew in one step: \(transcripts)")
        #expect(transcripts.first.map { !$0.contains("timer") } == true, "no partial result: \(transcripts)")
        // The stream ends after the decoder is freed.
        #expect(freed.withLock { $0 } == 1)
        // Made, fed and freed on a thread of its own, not on the
        // concurrency pool the process's other tasks share.
        #expect(freedOnItsThread.withLock { $0 } == [true])
    }

    @Test(needsTools, .timeLimit(.minutes(2)))
    func stopsAndFreesItsDecoderWhenTheConsumerStops() async throws {
        guard SpeechTools.check() else { return }
        let scratch = try ScratchDirectory()
        let file = try await Self.twoSentences(in: scratch)
        let (freed, didFree) = AsyncStream.makeStream(of: Void.self)
        let count = Mutex(0)
        let recognizer = PocketsphinxRecognizer(model: .debianEnglish) {
            count.withLock { $0 += 1 }
            didFree.yield()
        }
        var heard: [String] = []
        for try await transcript in recognizer.transcripts(from: .wavFile(file, clock: ImmediateClock())) {
            heard.append(transcript)
            break
        }
        #expect(heard.count == 1)
        for await _ in freed { break }
        #expect(count.withLock { $0 } == 1)
    }

    @Test(needsTools, .timeLimit(.minutes(2)))
    func samplesSentFromElsewhereAreHeardAndNoDecoderIsMadeBeforeThey() async throws {
        guard SpeechTools.check() else { return }
        let scratch = try ScratchDirectory()
        let spoken = try await SpeechTools.speak("the meeting starts now", in: scratch)
        let decoders = Mutex(0)  // each decoder made is freed once
        let recognizer = PocketsphinxRecognizer(model: .debianEnglish) { decoders.withLock { $0 += 1 } }
        // Nobody spoke: no decoder was made.
        for try await _ in recognizer.transcripts(from: .samples { AsyncStream { $0.finish() } }) {}
        #expect(decoders.withLock { $0 } == 0)
        // Sent as a browser sends it: 100 ms chunks, a second of silence
        // when the speaker gives up the floor.
        let (chunks, sender) = AsyncStream<[Int16]>.makeStream()
        for start in stride(from: 0, to: spoken.count, by: 1_600) {
            sender.yield(Array(spoken[start..<min(start + 1_600, spoken.count)]))
        }
        sender.yield([Int16](repeating: 0, count: 16_000))
        sender.finish()
        var heard = ""
        for try await transcript in recognizer.transcripts(from: .samples { chunks }) { heard = transcript }
        #expect(heard == "the meeting starts now")
        #expect(decoders.withLock { $0 } == 1)
    }

    @Test func aMissingModelIsUnavailable() async throws {
        let scratch = try ScratchDirectory()
        let model = PocketsphinxRecognizer.Model(directory: scratch.url.appendingPathComponent("no-model"))
        let recognizer = PocketsphinxRecognizer(model: model)
        let reason = "no acoustic model in \(model.acousticModel.path): install Debian's pocketsphinx-en-us package"
        #expect(recognizer.availability == .unavailable(reason: reason))
        let file = try scratch.write(wavData(samples: [0]), to: "silence.wav")
        await #expect(throws: RecognitionError.unavailable(reason: reason)) {
            for try await _ in recognizer.transcripts(from: .wavFile(file, clock: ImmediateClock())) {}
        }
    }
}
