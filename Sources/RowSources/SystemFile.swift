#if canImport(Glibc)
import Glibc
#endif

/// A small file of /proc or /sys read whole with plain system calls: what the kernel says
/// about this process and its limits, asked at start and before a load.
public enum SystemFile {
    /// The text of `path`, at most `limit` bytes; nil if it cannot be opened.
    public static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
