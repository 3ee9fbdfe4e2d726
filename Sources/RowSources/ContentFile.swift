import OverscrollKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The list's rows read from a text file (`--content`): one row per non-empty line.
public enum ContentFile {
    /// Reads `path` as UTF-8 text. Invalid bytes show as U+FFFD rather than refusing the
    /// file (a kiosk should show something readable); CRLF and a leading BOM are handled;
    /// empty lines are skipped. More than `maxRows` rows, or more than `maxBytes` bytes,
    /// are cut, and a final row says so — a huge file must not exhaust the kiosk's memory.
    ///
    /// The file is read off the caller's thread with a deadline (`ReadDeadline`): a file
    /// on a stalled network mount is refused after `deadline` seconds, not waited on.
    public static func rows(fromFile path: String, maxRows: Int = 5000, maxBytes: Int = 16 << 20,
                            deadline: Double = ReadDeadline.seconds) throws(ContentFileError) -> [String] {
        let result = ReadDeadline.run("content-read", within: deadline) {
            Result { () throws(ContentFileError) in try readRows(path, maxRows: maxRows, maxBytes: maxBytes) }
        }
        guard let result else { throw ContentFileError(path: path, reason: .stalled(seconds: deadline)) }
        return try result.get()
    }

    private static func readRows(_ path: String, maxRows: Int, maxBytes: Int) throws(ContentFileError) -> [String] {
        // Without blocking: a FIFO would hold the start (or a reload) until a writer came.
        let fd: Int32
        do {
            fd = try InputOpening.open(path, what: "content file", fix: "pass --content with a readable UTF-8 text file")
        } catch {
            throw ContentFileError(path: path, reason: error.code.map { .unreadable(errno: $0) } ?? .refused(error.message))
        }
        defer { close(fd) }
        // What the rows can cost, asked before reading: a row keeps at most
        // `RowText.maxBytes` of its line, and a NUL or an invalid byte (one byte in the
        // file) becomes U+FFFD (three), so the file's first `maxBytes` bytes three times
        // over, plus the read buffer, bounds it. Refused in words, not an abort.
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : maxBytes
        let need = 3 * min(max(size, 0), maxBytes) + (1 << 20)
        if let shortfall = AddressSpace.shortfall(for: need) {
            throw ContentFileError(path: path, reason: .noMemory(need: need, shortfall: shortfall))
        }

        var collector = RowCollector(source: "file", maxRows: maxRows, maxBytes: maxBytes)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !collector.isCut {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                // A directory opens fine and fails here (EISDIR): same message as a missing file.
                throw ContentFileError(path: path, reason: .unreadable(errno: errno))
            }
            buffer.withUnsafeBytes { _ = collector.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        let rows = collector.finish()
        guard !rows.isEmpty else { throw ContentFileError(path: path, reason: .empty) }
        return rows
    }
}

/// Why a content file gave no rows. The description is one line naming the file and what
/// to do about it, ready for the command line to print.
public struct ContentFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// open() or read() failed with this errno.
        case unreadable(errno: Int32)
        /// The file holds no non-empty line.
        case empty
        /// Not a regular file (a FIFO, a device…): the whole line, in `InputOpening`'s words.
        case refused(String)
        /// Loading it could need `need` bytes, which the process cannot get (`shortfall`
        /// says which limit leaves how much).
        case noMemory(need: Int, shortfall: String)
        /// Reading it did not end within this many seconds (a stalled network mount).
        case stalled(seconds: Double)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .unreadable(let code):
            "content file '\(TextLines.cut(path))' cannot be read: \(String(cString: strerror(code))); "
                + "pass --content with a readable UTF-8 text file"
        case .refused(let line):
            line
        case .noMemory(let need, let shortfall):
            "content file '\(TextLines.cut(path))' was not loaded: not enough memory (it may need \((need + (1 << 20) - 1) >> 20) MiB; "
                + "\(shortfall)); raise the limit or pass a smaller content file"
        case .stalled(let seconds):
            "content file '\(TextLines.cut(path))' was not read: no answer within \(Int(seconds)) s (a stalled network mount?); "
                + "pass --content a file on a disk that answers"
        case .empty:
            "content file '\(TextLines.cut(path))' has no rows; pass --content with a UTF-8 text file "
                + "that has at least one non-empty line"
        }
    }
}

