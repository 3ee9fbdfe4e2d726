/// Text that came from outside the program — a refresh command's output, a path, a TOML
/// token — shown where a person reads it (the log, the banner). Shown as it is, such text
/// could rewrite the terminal (an ESC sequence), move the rest of the line (CR, a line
/// feed that forges a second log line) or reverse it (U+202E). `escaped` writes those
/// characters as `\u{…}` and keeps everything else, so the line says what was received.
public enum OutsideText {
    /// `text` with C0 and C1 controls, DEL, line and paragraph separators and the bidi
    /// controls (embeddings, overrides, isolates, marks) written as `\u{HEX}`.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `scalar` is one `escaped` rewrites.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                  // C0, DEL, C1 (ESC, CSI, CR, LF…)
        case 0x061C, 0x200E, 0x200F: true                     // Arabic letter mark, LRM, RLM
        case 0x2028, 0x2029: true                             // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: true           // embeddings, overrides, isolates
        default: false
        }
    }
}
