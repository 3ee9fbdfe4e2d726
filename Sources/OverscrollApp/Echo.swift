import OverscrollKit

/// What a message echoes of the user's input: every word cut to 80 characters and control
/// characters written out, so a message is one line whatever it was given.
enum Echo {
    /// Every word longer than 80 characters cut to 80 with an ellipsis: a 1 MB flag value
    /// or option name must not flood the terminal or the journal.
    static func cutTokens(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.count > 80 ? TextLines.cut($0) : String($0) }
            .joined(separator: " ")
    }

    /// Control characters (a newline in a value, an escape sequence) written as `\u{HEX}`,
    /// so the message stays one line and cannot move the terminal's cursor.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
