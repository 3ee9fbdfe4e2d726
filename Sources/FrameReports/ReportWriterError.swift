import OverscrollKit
/// A report that cannot be written; `description` is one line naming the file and the fix.
public struct ReportWriterError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
