import OverscrollKit

/// What a message echoes of the user's input: every word cut to 80 characters (control
/// characters are written out by `OutsideText`, as in every outside text), so a message
/// is one line whatever it was given.
enum Echo {
    /// Every word longer than 80 characters cut to 80 with an ellipsis: a 1 MB flag value
    /// or option name must not flood the terminal or the journal.
    static func cutTokens(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.count > 80 ? TextLines.cut($0) : String($0) }
            .joined(separator: " ")
    }
}
