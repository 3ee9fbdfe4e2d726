import OverscrollKit
import Workers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A refresh that runs a command and shows its output lines as the new rows.
///
/// `arguments` is an argv, looked up on PATH — no shell, unless the user writes
/// `sh -c '…'` themselves. Exit status 0 is success: each non-empty line of stdout is a row
/// (see `RowCollector` for the exact rules and limits). Anything else is a failure with a
/// one-line message naming the command, for the error banner.
///
/// `start` returns at once; the command runs on its own thread (a `Worker`: not a Dispatch
/// worker, as it sits in poll() for up to the timeout), which completes the job
/// exactly once, after the command and everything it started in its process group are gone.
/// The timeout runs on the real clock from `start`; when it passes, the group gets SIGTERM,
/// then SIGKILL 0.2 s later. The model's own watchdog, at its `refreshTimeout`, ends the
/// refresh on screen either way.
public struct CommandRefreshSource: RefreshSource, CustomStringConvertible {
    public let arguments: [String]
    /// Seconds, on the real clock, from `start` until the command is killed.
    public let timeout: Double
    public let maxOutputBytes: Int
    public let maxRows: Int
    /// The commands still running, so quitting can end them instead of orphaning them.
    let running = RunningGroups()

    public init(arguments: [String], timeout: Double, maxOutputBytes: Int = 1 << 20, maxRows: Int = 5000) {
        self.arguments = arguments
        self.timeout = timeout
        self.maxOutputBytes = maxOutputBytes
        self.maxRows = maxRows
    }

    /// The command as a user would type it, for logs: `printf 'a\nb'`.
    public var description: String {
        arguments.map { arg in
            let plain = !arg.isEmpty && arg.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return plain ? arg : "'" + arg.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    public func start(_ job: RefreshJob) {
        // The deadline starts now, not when the thread gets going.
        let deadline = MonotonicClock.now() + timeout
        let source = self
        let started = Worker(name: "refresh") { _ in
            job.complete(source.run(until: deadline))
        }
        guard let started else { return job.complete(.failure("'\(name)' could not be started: no thread for it")) }
        running.adopt(started)
    }

    /// Ends every command still running (their whole process groups): the app is quitting.
    public func cancelAll() { running.killAll() }

    /// Runs the command to its end, blocking. `deadline` is on `MonotonicClock.now()`.
    func run(until deadline: Double) -> RefreshResult {
        guard !arguments.isEmpty else { return .failure("no refresh command given (the argument list is empty)") }
        var rows = RowCollector(source: "output", maxRows: maxRows, maxBytes: maxOutputBytes)
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(arguments, deadline: deadline, running: running) { rows.append($0) }
        } catch {
            return .failure(spawnMessage(error.code))
        }
        switch outcome.ending {
        case .exited(status: 0), .outputStopped:
            // The output replaces the list: nothing is not a list, keep the old rows.
            let lines = rows.finish()
            return lines.isEmpty ? .failure("'\(name)' printed no rows") : .success(lines)
        case .exited(let status):
            return .failure("'\(name)' exited \(status)" + detail(outcome.stderrHead))
        case .signaled(let signal):
            let what = String(cString: strsignal(signal))
            return .failure("'\(name)' was killed by signal \(signal) (\(what))" + detail(outcome.stderrHead))
        case .timedOut:
            return .failure("'\(name)' timed out after \(DurationFormat.describe(timeout))")
        }
    }

    /// argv[0] as the user wrote it (controls and bidi overrides escaped): what messages name.
    private var name: String { OutsideText.escaped(arguments.first ?? "") }

    private func spawnMessage(_ code: Int32) -> String {
        switch code {
        case ENOENT: "'\(name)' not found"
        case EACCES: "'\(name)' is not executable (\(String(cString: strerror(code))))"
        default: "'\(name)' could not be started: \(String(cString: strerror(code)))"
        }
    }

    /// ": <first non-blank stderr line>", or nothing if stderr had none.
    private func detail(_ stderrHead: [UInt8]) -> String {
        var lines = RowCollector(source: "stderr", maxRows: .max)
        stderrHead.withUnsafeBytes { _ = lines.append($0) }
        return lines.finish().lazy.map(Self.plain).first { !$0.isEmpty }.map { ": " + $0 } ?? ""
    }

    /// The line with tabs as spaces, outer whitespace trimmed, and every other control
    /// and bidi character escaped as all outside text is (`OutsideText`: ESC is `\u{1B}`):
    /// the banner and the log get one line that shows what the command wrote, which a
    /// U+202E from it cannot turn around.
    private static func plain(_ line: String) -> String {
        let scalars = line.unicodeScalars.map { $0 == "\t" ? " " : $0 }
        let text = String(String.UnicodeScalarView(scalars))
        return OutsideText.escaped(String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
    }
}
