import OverscrollKit
import Workers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams frames.csv to disk off the frame loop.
///
/// The loop appends finished rows to `pending` under a mutex held for a memcpy; a worker
/// thread (the flusher) wakes every `interval`, swaps `pending` with an empty spare (both keep their capacity,
/// so after warm-up neither side allocates) and writes the spare with the lock released.
/// The loop therefore never waits on the disk, and a killed process keeps everything up
/// to the last tick: written rows are in the kernel's page cache, and they are synced to
/// the device about once a second against power loss.
final class FrameStreamSink: Sendable {
    private struct Pending: ~Copyable {
        var bytes: [UInt8]
        var droppedRows = 0
    }

    private struct Output: ~Copyable {
        var fd: Int32
        var spare: [UInt8]
        var ticks = 0
        var error: String?
        var closed = false
        /// Bytes in the file that end on a whole row: a failed write is cut back to here.
        var written = 0
    }

    let path: String
    /// A disk that stops accepting writes must not make the loop's buffer grow without
    /// end: past this many bytes waiting, rows are dropped and counted.
    let maxPendingBytes: Int
    private let pending: Locked<Pending>
    private let output: Locked<Output>
    /// The flusher; nil once stopped (and when no thread could be made: then the rows are
    /// written by `flush` and `close` only).
    private let flusher = Locked<Worker?>(nil)
    private let syncEveryTicks: Int

    /// Creates the file (refusing one that exists), writes `header`, and starts flushing
    /// every `interval` seconds.
    init(path: String, header: String, interval: Double = 0.25,
         initialCapacity: Int = 256 << 10, maxPendingBytes: Int = 32 << 20) throws(ReportWriterError) {
        self.path = path
        self.maxPendingBytes = maxPendingBytes
        let fd = try FileDescriptorIO.openForWriting(path, exclusive: true)
        if let code = FileDescriptorIO.writeAll(fd, Array(header.utf8)) {
            _ = FileDescriptorIO.closeDescriptor(fd)
            throw ReportWriterError("cannot write \(ReportWriterError.shown(path)): \(FileErrors.posix(code))")
        }
        var a: [UInt8] = []; a.reserveCapacity(initialCapacity)
        var b: [UInt8] = []; b.reserveCapacity(initialCapacity)
        pending = Locked(Pending(bytes: a))
        output = Locked(Output(fd: fd, spare: b, written: header.utf8.count))
        syncEveryTicks = max(1, Int((1 / max(interval, 0.001)).rounded(.down)))
        let period = max(interval, 0.001)
        // Weak: the sink's owner decides when it goes; its deinit stops the flusher.
        let started = Worker(name: "frames-csv") { [weak self] signal in
            var next = MonotonicClock.now() + period
            while !signal.sleep(next - MonotonicClock.now()) {
                guard MonotonicClock.now() >= next else { continue }
                next = MonotonicClock.now() + period
                guard let self else { return }
                self.flush(forceSync: false)
            }
        }
        flusher.withLock { $0 = started }
    }

    deinit {
        stop()
        _ = close()
    }

    /// Hot path: queues one row, given as a prefix and a suffix so the caller can trim
    /// without copying. Never blocks on I/O.
    func append(_ head: ArraySlice<UInt8>, _ tail: [UInt8]) {
        pending.withLock { p in
            if p.bytes.count + head.count + tail.count > maxPendingBytes {
                p.droppedRows += 1
                return
            }
            p.bytes.append(contentsOf: head)
            p.bytes.append(contentsOf: tail)
        }
    }

    /// Writes what is queued now; `forceSync` also syncs it to the device.
    func flush(forceSync: Bool) {
        output.withLock { out in
            guard !out.closed else { return }
            pending.withLock { p in swap(&p.bytes, &out.spare) }
            if !out.spare.isEmpty {
                if let code = FileDescriptorIO.writeAll(out.fd, out.spare) {
                    // A partial write would leave half a row: cut the file back to the last
                    // whole one, so the next write (the disk may come back) starts a row.
                    _ = ftruncate(out.fd, off_t(out.written))
                    _ = lseek(out.fd, off_t(out.written), SEEK_SET)
                    // Keep going but remember why rows were lost.
                    let lost = out.spare.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                    pending.withLock { $0.droppedRows += lost }
                    if out.error == nil { out.error = "cannot write \(path): \(FileErrors.posix(code))" }
                } else {
                    out.written += out.spare.count
                }
                out.spare.removeAll(keepingCapacity: true)
            }
            out.ticks += 1
            if forceSync || out.ticks % syncEveryTicks == 0 { FileDescriptorIO.sync(out.fd) }
        }
    }

    var droppedRows: Int { pending.withLock { $0.droppedRows } }

    /// Stops the flusher and waits for it; rows appended afterwards wait for `flush` or
    /// `close`. Idempotent. A flush already running finishes first; none starts after.
    func stop() {
        let stopping = flusher.withLock { w in
            defer { w = nil }
            return w
        }
        stopping?.stopAndJoin()
    }

    /// Final flush, sync and close; returns the first write error, if any. Idempotent.
    @discardableResult
    func close() -> ReportWriterError? {
        stop()
        flush(forceSync: true)
        return output.withLock { out in
            if !out.closed {
                out.closed = true
                if FileDescriptorIO.closeDescriptor(out.fd) != 0 && out.error == nil {
                    out.error = "cannot write \(path): \(FileErrors.posix(errno))"
                }
            }
            return out.error.map(ReportWriterError.init)
        }
    }
}
