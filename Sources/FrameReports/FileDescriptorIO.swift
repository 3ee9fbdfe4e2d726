import OverscrollKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX file calls with the retry loops they need, so callers see one error string.
public enum FileDescriptorIO {
    /// Opens for writing; `exclusive` fails if the file exists (a second run must not
    /// append to the first one's file, even if it appeared after our check).
    static func openForWriting(_ path: String, exclusive: Bool) throws(ReportWriterError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw ReportWriterError("cannot write \(ReportWriterError.shown(path)): \(FileErrors.posix(errno))") }
        return fd
    }

    /// Writes every byte, retrying short writes and EINTR; returns errno on failure.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var base = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let n = write(fd, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            left -= n
            base += n
        }
        return nil
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Data to the device, not just the page cache: a kiosk can lose power.
    static func sync(_ fd: Int32) {
        #if canImport(Glibc)
        _ = fdatasync(fd)
        #else
        _ = fsync(fd)
        #endif
    }

    static func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

    /// `mkdir -p`, returning errno on failure: Foundation's errors on Linux say "error 512"
    /// where the user needs "Not a directory" or "Permission denied".
    static func makeDirectories(_ path: String) -> Int32? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let code = errno
                var info = stat()
                guard code == EEXIST, stat(prefix, &info) == 0 else { return code }
                guard (info.st_mode & S_IFMT) == S_IFDIR else { return ENOTDIR }
            }
            prefix += "/"
        }
        return nil
    }
}
