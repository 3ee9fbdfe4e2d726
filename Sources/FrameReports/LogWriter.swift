import OverscrollKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program's log: one line per call on standard error, every write checked and none
/// able to end the program. Foundation's `FileHandle.write` traps when the write fails
/// (a closed stderr, `2>/dev/full`, a pipe whose reader died) and that was a SIGILL at the
/// next log line, the report lost. Here a line that cannot be written is dropped and
/// counted: the log is for people, and losing it must never change the exit status or
/// the report.
///
/// Each line is one `write` (lines from the reload, refresh and watcher threads never
/// interleave) with control and bidi characters escaped (`OutsideText`), so a line is
/// one line whatever text from outside it quotes.
public final class LogWriter: Sendable {
    private let fd: Int32
    private let prefix: String
    private let droppedLines = Atomic<Int>(0)

    public init(fd: Int32 = STDERR_FILENO, prefix: String = "overscroll: ") {
        self.fd = fd
        self.prefix = prefix
    }

    /// Writes `prefix + line` and a line end; never blocks the caller on an error.
    public func line(_ line: String) {
        var bytes = Array((prefix + OutsideText.escaped(line)).utf8)
        bytes.append(0x0A)
        if bytes.withUnsafeBytes({ FileDescriptorIO.writeAll(fd, $0) }) != nil {
            droppedLines.add(1, ordering: .relaxed)
        }
    }

    /// Writes `text` as it is (text the program made, such as its usage), checked alike.
    public func raw(_ text: String) {
        if Array(text.utf8).withUnsafeBytes({ FileDescriptorIO.writeAll(fd, $0) }) != nil {
            droppedLines.add(1, ordering: .relaxed)
        }
    }

    /// Lines that could not be written (the reader gone, the disk full).
    public var dropped: Int { droppedLines.load(ordering: .relaxed) }
}
