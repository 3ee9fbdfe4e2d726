/// A row's text made from bytes that came from outside, at a cost bounded by what a row
/// can show: a row is one line of a list, ellipsized at the window's width, so no row
/// needs more than `maxBytes` of its line. Before this, a 16 MiB line of NULs became a
/// 48 MB string through a 64 MB array of scalars (17x the file), and one letter with 300k
/// combining marks took tens of milliseconds to shape in every frame that drew it (the
/// figure: docs/performance.md, "Figures behind the code's comments").
///
/// - the line is cut at `maxBytes` (at a character's start, never inside UTF-8);
/// - invalid UTF-8 and NUL (which C strings, and so the text renderer, stop at) show as
///   U+FFFD;
/// - a character keeps at most `maxMarks` combining marks (Vietnamese stacks two;
///   "Zalgo" text has hundreds, which no row can show). Eight stacked acute accents
///   already reach past a row's top, where the text layer cuts them (`LineRasterizer`
///   keeps the baseline where it is); the bound keeps shaping a cluster cheap;
/// - a run of default-ignorable characters (zero-width space, joiners, variation
///   selectors, tags…) keeps at most `maxIgnorables`: emoji sequences use them one at a
///   time, and 1000 zero-width spaces before a word hid the word behind an ellipsis.
public enum RowText {
    public static let maxBytes = 4096
    public static let maxMarks = 8
    public static let maxIgnorables = 2

    public static func make(_ bytes: some Collection<UInt8>) -> String {
        // One byte past the limit shows whether the cut falls inside a character (the byte
        // after it a continuation, 10xxxxxx): then back off to that character's start.
        var taken = Array(bytes.prefix(maxBytes + 1))
        if taken.count > maxBytes {
            var end = maxBytes
            while end > maxBytes - 4, end > 0, taken[end] & 0xC0 == 0x80 { end -= 1 }
            taken.removeSubrange(end...)
        }
        let text = String(decoding: taken, as: UTF8.self)
        guard needsBounding(text) else { return text }
        var out = String.UnicodeScalarView()
        var marks = 0, ignorables = 0
        for scalar in text.unicodeScalars {
            if scalar == "\0" {
                out.append("\u{FFFD}")
                marks = 0; ignorables = 0
            } else if isMark(scalar) {
                marks += 1
                if marks <= maxMarks { out.append(scalar) }
            } else if isIgnorable(scalar) {
                ignorables += 1
                if ignorables <= maxIgnorables { out.append(scalar) }
            } else {
                out.append(scalar)
                marks = 0; ignorables = 0
            }
        }
        return String(out)
    }

    /// Whether anything needs replacing or dropping (most rows: no, and no copy is made).
    private static func needsBounding(_ text: String) -> Bool {
        var marks = 0, ignorables = 0
        for scalar in text.unicodeScalars {
            if scalar == "\0" { return true }
            if scalar.value < 0x300 { marks = 0; ignorables = 0; continue }
            if isMark(scalar) { marks += 1; if marks > maxMarks { return true } } else if isIgnorable(scalar) {
                ignorables += 1
                if ignorables > maxIgnorables { return true }
            } else { marks = 0; ignorables = 0 }
        }
        return false
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.isDefaultIgnorableCodePoint
    }
}
