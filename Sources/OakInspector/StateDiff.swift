// A line diff of two states' text: what an inspector shows of a step.

/// The lines of a state after a step, each marked kept, added, or (in its
/// place) removed.
enum StateDiff {
    /// The largest product of the two texts' line counts diffed line by
    /// line; beyond it, the unchanged head and tail are kept and the rest
    /// is removed, then added.
    static let largest = 4_000_000

    /// Every line of `old` and `new` in order, marked ` ` (in both), `-`
    /// (only in `old`) or `+` (only in `new`): a longest common
    /// subsequence of lines. Empty when they are equal.
    static func lines(from old: String, to new: String) -> [InspectorEntry.DiffLine] {
        guard old != new else { return [] }
        let before = old.split(separator: "\n", omittingEmptySubsequences: false)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false)
        // The common head and tail first: most steps change a few lines.
        var head = 0
        while head < before.count, head < after.count, before[head] == after[head] { head += 1 }
        var tail = 0
        while tail < before.count - head, tail < after.count - head,
            before[before.count - 1 - tail] == after[after.count - 1 - tail]
        {
            tail += 1
        }
        let oldMiddle = Array(before[head..<(before.count - tail)])
        let newMiddle = Array(after[head..<(after.count - tail)])
        var lines = before[..<head].map { InspectorEntry.DiffLine(" ", String($0)) }
        if oldMiddle.count * newMiddle.count <= largest {
            lines += common(oldMiddle, newMiddle)
        } else {
            lines += oldMiddle.map { InspectorEntry.DiffLine("-", String($0)) }
            lines += newMiddle.map { InspectorEntry.DiffLine("+", String($0)) }
        }
        lines += after[(after.count - tail)...].map { InspectorEntry.DiffLine(" ", String($0)) }
        return lines
    }

    /// The two sequences' lines merged along a longest common subsequence.
    private static func common(_ old: [Substring], _ new: [Substring]) -> [InspectorEntry.DiffLine] {
        let (n, m) = (old.count, new.count)
        // lengths[i][j]: the longest common subsequence of old[i...], new[j...].
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [InspectorEntry.DiffLine] = []
        var (i, j) = (0, 0)
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                lines.append(.init(" ", String(old[i])))
                i += 1
                j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                lines.append(.init("-", String(old[i])))
                i += 1
            } else {
                lines.append(.init("+", String(new[j])))
                j += 1
            }
        }
        return lines
    }
}
