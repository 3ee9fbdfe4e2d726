/// Turns a stream of text bytes into list rows — the one place that decides what a row is,
/// shared by content files and refresh commands:
/// - lines are `LineSplitter`'s: LF, CRLF or a lone CR end one; a leading BOM is dropped;
/// - empty lines are skipped (a list row needs text); whitespace-only lines are kept;
/// - bytes that are not UTF-8, and NUL, show as U+FFFD (decoded per line: the rest of the
///   row is intact); a row holds at most what a row can show (`RowText`);
/// - past `maxRows` rows or `maxBytes` bytes it stops taking input, and the last of the
///   `maxRows` rows says what was cut: the result never has more than `maxRows` rows, so it
///   fits a list capped at the same number. A line the byte limit cut through is kept,
///   truncated.
/// Bytes can arrive in any chunks; a line split across chunks is joined.
public struct RowCollector: Sendable {
    public enum Cut: Equatable, Sendable {
        case rows(Int)
        case bytes(Int)
    }

    /// What the rows come from, for the notice: "… output cut at 5000 rows".
    public let source: String
    public let maxRows: Int
    public let maxBytes: Int
    public private(set) var cut: Cut?
    private var rows: [String] = []
    /// A row shows at most `RowText.maxBytes` of its line (one more tells a cut inside a
    /// character; three more for a BOM the first line may start with).
    private var lines = LineSplitter(keepingAtMost: RowText.maxBytes + 4)
    private var bytesTaken = 0

    public init(source: String, maxRows: Int, maxBytes: Int = .max) {
        self.source = source
        self.maxRows = max(1, maxRows)
        self.maxBytes = max(0, maxBytes)
    }

    /// Whether a limit was reached: more input would be ignored.
    public var isCut: Bool { cut != nil }

    /// Takes a chunk of input. Returns false once a limit is reached and no more is wanted.
    @discardableResult
    public mutating func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard cut == nil else { return false }
        var chunk = chunk[...]
        let room = maxBytes - bytesTaken
        let overflows = chunk.count > room
        if overflows { chunk = chunk.prefix(room) }
        bytesTaken += chunk.count
        withSplitter { splitter, this in splitter.feed(chunk) { bytes, _ in this.endLine(bytes) } }
        if overflows, cut == nil { cut = .bytes(maxBytes) }
        return cut == nil
    }

    /// The rows, the last one a notice if anything was cut.
    public mutating func finish() -> [String] {
        if cut != .rows(maxRows) { withSplitter { splitter, this in splitter.finish { bytes, _ in this.endLine(bytes) } } }
        guard let cut else { return rows }
        return rows.prefix(maxRows - 1) + [Self.notice(for: cut, source: source)]
    }

    public static func notice(for cut: Cut, source: String) -> String {
        switch cut {
        case .rows(let n): "… \(source) cut at \(n) row\(n == 1 ? "" : "s")"
        case .bytes(let n): "… \(source) cut at \(formatBytes(n))"
        }
    }

    /// The splitter is moved out while it calls back into `self` (a mutating call on a
    /// stored property cannot also mutate `self`); swapping moves it without copying.
    private mutating func withSplitter(_ body: (inout LineSplitter, inout RowCollector) -> Void) {
        var splitter = LineSplitter(keepingAtMost: 0)
        swap(&splitter, &lines)
        body(&splitter, &self)
        swap(&splitter, &lines)
    }

    /// Returns false once the row limit is reached.
    private mutating func endLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        // Up to `maxRows` are kept, so exactly `maxRows` is not a cut; one more line proves
        // there is more.
        guard rows.count < maxRows else { cut = .rows(maxRows); return false }
        rows.append(RowText.make(bytes))
        return true
    }

    private static func formatBytes(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10, n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }
}
