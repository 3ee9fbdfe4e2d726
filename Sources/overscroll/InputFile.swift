import OverscrollKit
#if canImport(Glibc)
import Glibc
#endif

/// Reads a small input file (a gesture script, a config) whole, refusing in words what is
/// not one: a directory, a named pipe or a device (`/dev/zero` would never end), or a file
/// past `limit`. Pipes given as `/dev/fd/N` (`<(…)`) are read to their end. Errors are
/// `Failure`s with exit status 66 naming the path (cut to 80 characters) and the fix.
enum InputFile {
    static func read(_ path: String, what: String, fix: String, limit: Int = 16 << 20) throws(Failure) -> [UInt8] {
        let shown = "'\(TextLines.cut(path))'"
        var info = stat()
        // lstat: a named pipe is refused, a /dev/fd/N symlink to a pipe is followed below.
        if lstat(path, &info) == 0, let kind = refusedKind(info.st_mode) {
            throw Failure("\(what) \(shown) is \(kind), not a file; \(fix)", code: 66)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure("\(what) \(shown) cannot be read: \(reason(errno)); \(fix)", code: 66) }
        defer { close(fd) }
        if fstat(fd, &info) == 0 {
            if let kind = refusedKind(info.st_mode), info.st_mode & S_IFMT != S_IFIFO {
                throw Failure("\(what) \(shown) is \(kind), not a file; \(fix)", code: 66)
            }
            // Back to blocking for a pipe: O_NONBLOCK only kept open() from waiting.
            _ = fcntl(fd, F_SETFL, 0)
        }
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

    private static func refusedKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: nil
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
