import OverscrollKit
import RowSources
#if canImport(Glibc)
import Glibc
#endif

/// Reads a small input file (a gesture script, a config) whole, opened without blocking
/// (`InputOpening`), refusing in words what is not one: a directory, a FIFO or a device
/// (`/dev/zero` would never end), or a file past `limit`. Pipes given as `/dev/fd/N` (`<(…)`) are read to their end. Errors are
/// `Failure`s with exit status 66 naming the path (cut to 80 characters) and the fix.
enum InputFile {
    ///
    /// Read off the caller's thread with a deadline (`ReadDeadline`): a file on a stalled
    /// network mount is refused after `deadline` seconds, not waited on.
    /// `bytes`: the path to open as bytes, when it is not UTF-8 (`path` then shows it).
    static func read(_ path: String, bytes pathBytes: [UInt8]? = nil, what: String, fix: String, limit: Int = 16 << 20,
                     deadline: Double = ReadDeadline.seconds) throws(Failure) -> [UInt8] {
        let result = ReadDeadline.run("input-read", within: deadline) {
            Result { () throws(Failure) in try readNow(path, pathBytes, what: what, fix: fix, limit: limit) }
        }
        guard let result else {
            throw Failure("\(what) '\(TextLines.cut(path))' was not read: no answer within \(Int(deadline)) s (a stalled network mount?); \(fix)",
                          code: 66)
        }
        return try result.get()
    }

    private static func readNow(_ path: String, _ pathBytes: [UInt8]?, what: String, fix: String, limit: Int) throws(Failure) -> [UInt8] {
        let shown = "'\(TextLines.cut(path))'"
        let fd: Int32
        do { fd = try InputOpening.open(path, bytes: pathBytes, what: what, fix: fix, inheritedPipes: true) } catch {
            throw Failure(error.message, code: 66)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure("\(what) \(shown) cannot be read: \(reason(errno)); \(fix)", code: 66)
            }
            bytes.append(contentsOf: buffer[..<n])
            if bytes.count > limit {
                throw Failure("\(what) \(shown) is larger than \(limit >> 20) MiB; \(fix)", code: 66)
            }
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
