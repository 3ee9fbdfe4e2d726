/// Breaks a message into lines no wider than a width, at spaces, by a measure of a line's
/// width (the drawing side's rasterizer; a test's arithmetic). Pure, so a banner's lines are
/// worked out the same way for every backend. Runs when a message or width is new, not
/// per frame: the caller keeps what it returns.
public enum LineBreaker {
    /// At most `maxLines` lines; what does not fit in them ends the last line with "…", and
    /// a word wider than the width alone is cut the same way. Lines are balanced: as many
    /// as the width needs, each about as long as the others (the narrowest width that
    /// still gives that many), so a message never ends on a stray word or two.
    public static func lines(of message: String, width: Double, maxLines: Int,
                             measure: (String) -> Double) -> [String] {
        let greedy = filled(message, width: width, maxLines: maxLines, measure: measure)
        guard greedy.lines.count > 1, !greedy.cut else { return greedy.lines }
        // Narrow the width while the lines stay as many and nothing is cut: a handful
        // of fills, run once per message and width.
        var low = 0.0, high = width
        while high - low > 1 {
            let mid = ((low + high) / 2).rounded(.down)
            let trial = filled(message, width: mid, maxLines: maxLines, measure: measure)
            if !trial.cut && trial.lines.count == greedy.lines.count && !trial.overflows { high = mid } else { low = mid }
        }
        return filled(message, width: high, maxLines: maxLines, measure: measure).lines
    }

    /// Fills lines up to `width`, word by word. `cut`: words were left out or a line was
    /// ellipsized; `overflows`: a single word is wider than `width`.
    private static func filled(_ message: String, width: Double, maxLines: Int,
                               measure: (String) -> Double) -> (lines: [String], cut: Bool, overflows: Bool) {
        let words = message.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var lines: [String] = []
        var current = ""
        var index = 0
        while index < words.count {
            let word = words[index]
            let candidate = current.isEmpty ? word : current + " " + word
            if measure(candidate) <= width || current.isEmpty {
                current = candidate
                index += 1
                continue
            }
            lines.append(current)
            current = ""
            if lines.count == maxLines { break }
        }
        if !current.isEmpty && lines.count < maxLines { lines.append(current) }
        guard !lines.isEmpty else { return ([], false, false) }
        let cutShort = index < words.count
        let last = lines.count - 1
        var overflows = false
        if cutShort || measure(lines[last]) > width {
            overflows = overflows || measure(lines[last]) > width
            lines[last] = ellipsized(lines[last], width: width, measure: measure)
        }
        for i in 0..<last where measure(lines[i]) > width {
            overflows = true
            lines[i] = ellipsized(lines[i], width: width, measure: measure)
        }
        return (lines, cutShort || overflows, overflows)
    }

    /// The longest prefix of `line` that fits with "…" after it.
    static func ellipsized(_ line: String, width: Double, measure: (String) -> Double) -> String {
        let characters = Array(line)
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            if measure(String(characters[..<mid]) + "…") <= width { low = mid } else { high = mid - 1 }
        }
        return String(characters[..<low]) + "…"
    }
}
