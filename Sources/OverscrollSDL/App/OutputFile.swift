import FrameReports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The replay's trace file, opened up front so a bad path fails before a run starts, and
/// written with every write checked:
///
/// - a regular file is written under a temporary name next to it and renamed over `path`
///   by `commit`, so a run that fails (a full disk, an I/O error) or never starts leaves no
///   file that looks like a whole trace — the temporary one is removed;
/// - `-` is standard output; a device or a pipe (`/dev/full`, a FIFO) is written in place;
/// - the first failed write stops further writing and is kept in `error`, one line naming
///   the file and the OS's reason, for the run to end on.
public final class OutputFile {
    public let path: String
    private var fd: Int32
    /// Where the bytes go until `commit`; nil when writing in place.
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    /// The first write failure; once set, nothing more is written.
    public private(set) var error: String?
    private static let chunk = 64 << 10

    public init(path: String) throws(SDLError) {
        self.path = path
        buffer.reserveCapacity(Self.chunk + 4096)
        if path == "-" {
            // A closed standard output (`>&-`) is held open read-only from the start
            // (SignalHandling): refused here, before the run, as a trace that cannot be made.
            guard fcntl(STDOUT_FILENO, F_GETFL) & O_ACCMODE != O_RDONLY else {
                throw SDLError(message: "cannot write the trace to standard output: it is closed; pass --trace a file, or leave standard output open")
            }
            fd = STDOUT_FILENO
            temporaryPath = nil
            return
        }
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFDIR {
            throw SDLError(message: "cannot write the trace to '\(Self.shown(path))': it is a directory; pass a file path for --trace")
        }
        let inPlace = exists && info.st_mode & S_IFMT != S_IFREG
        let target = inPlace ? path : path + ".tmp-\(getpid())"
        let flags = O_WRONLY | O_CLOEXEC | (inPlace ? 0 : O_CREAT | O_TRUNC)
        fd = open(target, flags, 0o644)
        guard fd >= 0 else {
            throw SDLError(message: "cannot write the trace to '\(Self.shown(path))': \(String(cString: strerror(errno))); choose a writable path")
        }
        temporaryPath = inPlace ? nil : target
    }

    deinit {
        // Dropped without commit (the run failed to start): take back what was created.
        if !finished { discard() }
    }

    /// Queues bytes; writes once a chunk has gathered. Does nothing after a failure.
    public func write(_ bytes: [UInt8]) {
        guard error == nil, !finished else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunk { drain() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes what is queued now.
    public func flush() { drain() }

    /// Writes the rest and gives the file its name. Returns the first error (then nothing
    /// is left under `path` that was not there before, for a regular file).
    @discardableResult
    public func commit() -> String? {
        guard !finished else { return error }
        drain()
        finished = true
        if fd != STDOUT_FILENO {
            if close(fd) != 0, error == nil { error = failure(errno) }
            fd = -1
        }
        guard let temporaryPath else { return error }
        if error == nil, rename(temporaryPath, path) != 0 { error = failure(errno) }
        if error != nil { unlink(temporaryPath) }
        return error
    }

    /// The run never happened: close and remove the temporary file.
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0, fd != STDOUT_FILENO { close(fd) }
        fd = -1
        if let temporaryPath { unlink(temporaryPath) }
    }

    private func drain() {
        guard error == nil, !buffer.isEmpty, fd >= 0 else { buffer.removeAll(keepingCapacity: true); return }
        let code = buffer.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
        if let code { error = failure(code) }
    }

    private func failure(_ code: Int32) -> String {
        "cannot write the trace '\(Self.shown(path))': \(String(cString: strerror(code)))"
    }

    private static func shown(_ path: String) -> String {
        path.count > 80 ? String(path.prefix(79)) + "…" : path
    }
}

