// The transcript as it grows: finished utterances joined with spaces, then
// the current partial hypothesis; reported only when it changed.

import Testing

@testable import SpeechRecognizer

@Suite("The transcript so far")
struct TranscriptTests {
    @Test func joinsUtterancesAndThePartialAndReportsOnlyChanges() {
        var transcript = Transcript()
        #expect(transcript.changedText() == nil)
        transcript.update(partial: "the")
        #expect(transcript.changedText() == "the")
        #expect(transcript.changedText() == nil)
        transcript.update(partial: "the meeting")
        #expect(transcript.changedText() == "the meeting")
        transcript.finishUtterance(with: "the meeting starts")
        #expect(transcript.changedText() == "the meeting starts")
        transcript.update(partial: "")
        #expect(transcript.changedText() == nil)
        transcript.finishUtterance(with: "")
        transcript.update(partial: "we")
        #expect(transcript.changedText() == "the meeting starts we")
        transcript.finishUtterance(with: "we shipped")
        #expect(transcript.text == "the meeting starts we shipped")
    }
}
