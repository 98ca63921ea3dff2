// A line diff of two states' text: what an inspector shows of a step.

/// The changed lines between two texts of a state.
enum StateDiff {
    /// The lines of `new` that differ from `old`: the common head and tail
    /// are left out except `context` lines around the change; the middle is
    /// removed lines, then added lines. Empty when they are equal.
    static func lines(from old: String, to new: String, context: Int = 1) -> [InspectorEntry.DiffLine] {
        guard old != new else { return [] }
        let before = old.split(separator: "\n", omittingEmptySubsequences: false)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false)
        var head = 0
        while head < before.count, head < after.count, before[head] == after[head] { head += 1 }
        var tail = 0
        while tail < before.count - head, tail < after.count - head,
            before[before.count - 1 - tail] == after[after.count - 1 - tail]
        {
            tail += 1
        }
        var lines: [InspectorEntry.DiffLine] = []
        for line in before[max(0, head - context)..<head] { lines.append(.init(" ", String(line))) }
        for line in before[head..<(before.count - tail)] { lines.append(.init("-", String(line))) }
        for line in after[head..<(after.count - tail)] { lines.append(.init("+", String(line))) }
        let end = after.count - tail
        for line in after[end..<min(after.count, end + context)] { lines.append(.init(" ", String(line))) }
        return lines
    }
}
