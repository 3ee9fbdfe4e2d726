import OverscrollKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `name.tmp` in chunks, then renames it over `name`: a reader (or a crash) sees
/// the old file or the whole new one, never half of it. The chunks keep large files such
/// as trace.json from being built in memory whole.
struct AtomicFile {
    let path: String
    private let temporaryPath: String
    private var fd: Int32
    var buffer = CSVRowBuffer(capacity: 1 << 20)
    private static let chunk = 1 << 20

    init(path: String) throws(ReportWriterError) {
        self.path = path
        temporaryPath = path + ".tmp"
        fd = try FileDescriptorIO.openForWriting(temporaryPath, exclusive: false)
    }

    /// Call now and then while appending to `buffer`: writes it out once it is large.
    mutating func drainIfLarge() throws(ReportWriterError) {
        if buffer.bytes.count >= Self.chunk { try drain() }
    }

    private mutating func drain() throws(ReportWriterError) {
        if let code = FileDescriptorIO.writeAll(fd, buffer.bytes) {
            abandon()
            throw ReportWriterError("cannot write \(ReportWriterError.shown(temporaryPath)): \(FileErrors.posix(code))")
        }
        buffer.clear()
    }

    mutating func commit() throws(ReportWriterError) {
        try drain()
        FileDescriptorIO.sync(fd)
        // Some filesystems (NFS, quotas) report a failed write only at close.
        let closed = close(fd)
        let closeError = errno
        fd = -1
        guard closed == 0 else {
            unlink(temporaryPath)
            throw ReportWriterError("cannot write \(ReportWriterError.shown(temporaryPath)): \(FileErrors.posix(closeError))")
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = FileErrors.posix(errno)
            unlink(temporaryPath)
            throw ReportWriterError("cannot write \(ReportWriterError.shown(path)): \(reason)")
        }
    }

    mutating func abandon() {
        if fd >= 0 { close(fd); fd = -1 }
        unlink(temporaryPath)
    }

    /// The whole file at once, for small ones. `mode`, when given, is set on the file
    /// whatever the process's umask: a file another user's program must read (the
    /// metrics, read by node_exporter's user) cannot depend on the umask a unit sets.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t? = nil) throws(ReportWriterError) {
        var file = try AtomicFile(path: path)
        if let mode, fchmod(file.fd, mode) != 0 {
            let code = errno
            file.abandon()
            throw ReportWriterError("cannot set the mode of \(ReportWriterError.shown(file.temporaryPath)): \(FileErrors.posix(code))")
        }
        if let code = FileDescriptorIO.writeAll(file.fd, bytes) {
            file.abandon()
            throw ReportWriterError("cannot write \(ReportWriterError.shown(file.temporaryPath)): \(FileErrors.posix(code))")
        }
        try file.commit()
    }
}
