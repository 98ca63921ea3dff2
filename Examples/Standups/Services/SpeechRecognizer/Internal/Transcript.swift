// The whole transcript so far: the finished utterances and the current one's
// partial hypothesis, joined with spaces.

/// The transcript as it grows, telling when its text changed.
struct Transcript: Equatable {
    private var finished: [String] = []
    private var partial = ""
    private var lastReported = ""

    /// The current utterance's hypothesis changed (partial result).
    mutating func update(partial hypothesis: String) {
        partial = hypothesis
    }

    /// The current utterance ended with `hypothesis`; the next one starts
    /// empty.
    mutating func finishUtterance(with hypothesis: String) {
        if !hypothesis.isEmpty { finished.append(hypothesis) }
        partial = ""
    }

    /// The whole transcript.
    var text: String { (finished + [partial]).filter { !$0.isEmpty }.joined(separator: " ") }

    /// The text, when it differs from what this returned last (or, the
    /// first time, from the empty transcript); else `nil`.
    mutating func changedText() -> String? {
        let text = text
        guard text != lastReported else { return nil }
        lastReported = text
        return text
    }
}
