import OverscrollKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a file the program reads — content, font, config, gesture script — without
/// ever waiting: `open` on a FIFO blocks until a writer comes, and a thread waiting there
/// cannot be stopped (a reload pointed at a FIFO once wedged the app, SIGTERM and all).
/// The file is opened with O_NONBLOCK (symlinks followed), then `fstat` on the descriptor
/// (no race with the path) refuses in words what is not a regular file: a FIFO, a socket,
/// a device, a directory. Exit status 66 for all of them.
public enum InputOpening {
    /// Why a path was not opened: one line naming it (cut to 80) and the fix.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public var message: String
        /// The OS's reason when there is one (ENOENT, EACCES; EISDIR for a directory);
        /// nil for a FIFO, socket or device, refused for what it is.
        public var code: Int32?
        public var description: String { message }
    }

    /// A descriptor for reading `path`, a regular file, positioned at its start; the caller
    /// closes it. `what` names the input ("content file"), `fix` says what to pass instead.
    /// With `inheritedPipes`, `/dev/fd/N` and `/proc/self/fd/N` may be a pipe the shell
    /// made (`<(…)`), read to its end: it has a writer already.
    /// `bytes`, when given, is the path opened, as bytes (a name that is not UTF-8, read
    /// from a directory); `path` is then only how messages show it.
    public static func open(_ path: String, bytes: [UInt8]? = nil, what: String, fix: String,
                            inheritedPipes: Bool = false) throws(Refusal) -> Int32 {
        let shown = "'\(OutsideText.escaped(TextLines.cut(path)))'"
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        // The type said: Swift 6.0 (the arm64 build's) cannot infer it through map and ??.
        let fd: Int32 = bytes.map { b in (b + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, flags) } } }
            ?? Glibc.open(path, flags)
        guard fd >= 0 else {
            let code = errno
            throw Refusal(message: "\(what) \(shown) cannot be read: \(reason(code)); \(fix)", code: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Refusal(message: "\(what) \(shown) cannot be read: \(reason(code)); \(fix)", code: code)
        }
        let mode = info.st_mode & S_IFMT
        let isInheritedPipe = inheritedPipes && mode == S_IFIFO
            && (path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/"))
        if let kind = kind(mode), !isInheritedPipe {
            close(fd)
            throw Refusal(message: "\(what) \(shown) is \(kind), not a regular file; \(fix)",
                          code: mode == S_IFDIR ? EISDIR : nil)
        }
        // Back to blocking reads: a regular file never waits, and a pipe the shell made
        // is read to its end.
        _ = fcntl(fd, F_SETFL, 0)
        return fd
    }

    /// The words for a file type that is refused (nil: a regular file).
    static func kind(_ mode: mode_t) -> String? {
        switch mode {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
