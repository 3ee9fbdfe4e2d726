/// The one line reader for every text input — content files, refresh output, gesture
/// scripts and config files — so they all agree on what a line is and on its number:
///
/// - a line ends at LF, CRLF or a lone CR (old Mac files, `printf 'a\r'`); a CRLF split
///   across two chunks is still one line end;
/// - a UTF-8 byte order mark at the very start is dropped;
/// - lines are numbered from 1, counting every line end, empty lines included;
/// - bytes are passed on as they are: NUL and invalid UTF-8 are the caller's to judge
///   (`display` shows them as U+FFFD in rows; scripts and configs refuse a NUL).
///
/// Works on bytes, not Characters: in Swift "\r\n" is one Character, so splitting a
/// String on "\n" never splits a CRLF file.
public struct LineSplitter: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var started = false
    /// Bytes of one line held at most; the rest of a longer line is dropped as it comes.
    private let keep: Int
    /// The number the next line will have.
    public private(set) var nextLineNumber = 1

    /// `keepingAtMost`: a reader that shows only a line's start (a list row) holds no
    /// more of it than that, so a 16 MiB file without a line end costs no 16 MiB buffer
    /// (which doubled to a 32 MiB allocation and aborted a reload under `ulimit -v`).
    public init(keepingAtMost keep: Int = .max) {
        self.keep = max(0, keep)
    }

    /// Takes a chunk; calls `emit(bytes, number)` for each line it completes. `emit`
    /// returns false to stop early (the rest of the chunk is dropped).
    @discardableResult
    public mutating func feed(_ chunk: some Collection<UInt8>,
                              _ emit: (ArraySlice<UInt8>, Int) -> Bool) -> Bool {
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            switch byte {
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                guard endLine(emit) else { return false }
            default:
                if line.count < keep { line.append(byte) }
            }
        }
        return true
    }

    /// The last line, if the input did not end with a line end.
    public mutating func finish(_ emit: (ArraySlice<UInt8>, Int) -> Bool) {
        if !line.isEmpty { _ = endLine(emit) }
    }

    /// Bytes held for a line not yet ended.
    public var pendingByteCount: Int { line.count }

    private mutating func endLine(_ emit: (ArraySlice<UInt8>, Int) -> Bool) -> Bool {
        defer {
            line.removeAll(keepingCapacity: true)
            nextLineNumber += 1
        }
        var bytes = line[...]
        if !started {
            started = true
            if bytes.starts(with: TextLines.byteOrderMark) { bytes = bytes.dropFirst(3) }
        }
        return emit(bytes, nextLineNumber)
    }
}

/// Whole-text helpers over `LineSplitter`.
public enum TextLines {
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public struct Line: Sendable, Equatable {
        public var number: Int
        public var bytes: [UInt8]
    }

    /// Every line of `bytes`, numbered (a final line end does not start an empty line).
    public static func lines(of bytes: some Collection<UInt8>) -> [Line] {
        var splitter = LineSplitter()
        var lines: [Line] = []
        let add: (ArraySlice<UInt8>, Int) -> Bool = { lines.append(Line(number: $1, bytes: Array($0))); return true }
        splitter.feed(bytes, add)
        splitter.finish(add)
        return lines
    }

    /// The line as text for display: invalid UTF-8 and NUL (which C strings, and so the
    /// text renderer, would stop at) become U+FFFD.
    public static func display(_ bytes: some Collection<UInt8>) -> String {
        guard bytes.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    }

    /// The text with every line end made LF and a BOM dropped: what a parser that counts
    /// lines on LF (TOML) needs to give the right line numbers.
    public static func normalized(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for line in lines(of: bytes) {
            out.append(contentsOf: line.bytes)
            out.append(0x0A)
        }
        return out
    }

    /// `text` cut to `limit` characters with an ellipsis, for echoing what a user gave
    /// (a 1 MB token or a 10 MB path must not flood the terminal).
    public static func cut(_ text: some StringProtocol, to limit: Int = 80) -> String {
        guard text.count > limit else { return String(text) }
        return String(text.prefix(limit - 1)) + "…"
    }
}
