#if canImport(Glibc)
import Glibc
#endif

/// Text for standard output, written with every byte checked: `overscroll report DIR
/// >/dev/full` or into a closed pipe (SIGPIPE is ignored) must fail with a message, not
/// exit 0 having written nothing. print() buffers and drops such errors.
enum StandardOutput {
    static func write(_ text: String) throws(Failure) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                // EBADF: closed (`>&-`; SignalHandling holds it open read-only).
                let reason = errno == EBADF ? "it is closed" : String(cString: strerror(errno))
                throw Failure("cannot write to standard output: \(reason)", code: ExitStatus.writeFailed.rawValue)
            }
            offset += n
        }
        bytes.removeAll()
    }
}
