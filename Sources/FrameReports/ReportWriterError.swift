import OverscrollKit
/// A report that cannot be written; `description` is one line naming the file and the fix.
public struct ReportWriterError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// A path as a message shows it: cut to 80 characters (a 5,000-character `--report`
    /// path once filled the terminal), controls and bidi overrides escaped.
    public static func shown(_ path: String) -> String { OutsideText.escaped(TextLines.cut(path)) }
}
