// The live speech client over the recogniser: denied when the user opted
// out, restricted when the audio cannot be read, and failures as
// SpeechFailures with a message for the user; on real speech (where the
// tools are there) authorised, with the transcript; a server's limit of
// meetings recorded at once.

import Clocks
import Devices
import Foundation
import LiveProviders
import SpeechRecognizer
import StandupsTestSupport
import Testing

@Suite("The live speech client")
struct LiveSpeechClientTests {
    @Test func deniedWhenOptedOutRestrictedWhenTheAudioIsMissing() async throws {
        let scratch = try ScratchDirectory()
        let missing = scratch.url.appendingPathComponent("missing.wav")
        let optedOut = SpeechClient.live(audio: .wavFile(missing), clock: ImmediateClock(), optedOut: true)
        #expect(await optedOut.authorization() == .denied)
        #expect(await optedOut.requestAuthorization() == .denied)
        let noAudio = SpeechClient.live(audio: .wavFile(missing), clock: ImmediateClock(), optedOut: false)
        #expect(await noAudio.authorization() == .restricted)
    }

    @Test func aDamagedFileFailsWithAMessageForTheUser() async throws {
        let scratch = try ScratchDirectory()
        let garbage = try scratch.write(Data("not audio".utf8), to: "garbage.wav")
        let client = SpeechClient.live(audio: .wavFile(garbage), clock: ImmediateClock(), optedOut: false)
        let failure = await #expect(throws: SpeechFailure.self) {
            for try await _ in client.transcripts() {}
        }
        if PocketsphinxRecognizer().availability == .available {
            #expect(failure == SpeechFailure("no audio to recognise: \(WAVError.notWAV)"))
        }
    }

    @Test(PocketsphinxRecognizerTests.needsTools, .timeLimit(.minutes(2)))
    func authorisedAndTranscribingRealSpeech() async throws {
        guard SpeechTools.check() else { return }
        let scratch = try ScratchDirectory()
        let samples = try await SpeechTools.speak("please review the pull request", in: scratch)
        let file = try scratch.write(wavData(samples: samples), to: "spoken.wav")
        let client = SpeechClient.live(audio: .wavFile(file), clock: ImmediateClock(), optedOut: false)
        #expect(await client.authorization() == .authorized)
        var last = ""
        for try await transcript in client.transcripts() { last = transcript }
        #expect(["review", "pull", "request"].allSatisfy { last.contains($0) }, "heard: \(last)")
    }

    @Test(PocketsphinxRecognizerTests.needsTools, .timeLimit(.minutes(1)))
    func aServerRecordsAtMostItsLimitOfMeetingsAtOnce() async throws {
        guard SpeechTools.check() else { return }
        let microphones = RemoteMicrophones()
        let recordings = RecordingLimit(1)
        let first = SpeechClient.live(microphones: microphones, meeting: UUID(), recordings: recordings)
        let second = SpeechClient.live(microphones: microphones, meeting: UUID(), recordings: recordings)
        #expect(await first.authorization() == .authorized)
        // The first meeting records (nobody speaks yet: it waits).
        var listening: AsyncThrowingStream<String, any Error>.Iterator? = first.transcripts().makeAsyncIterator()
        #expect(recordings.running == 1)
        let refused = await #expect(throws: SpeechFailure.self) {
            for try await _ in second.transcripts() {}
        }
        #expect(
            refused?.description
                == "This server already records as many meetings as it may (1); this one goes on without a transcript.")
        // Once the first stops, the place is free.
        listening = nil
        #expect(listening == nil)
        #expect(recordings.running == 0)
        let again = second.transcripts()
        #expect(recordings.running == 1)
        _ = again
    }
}
