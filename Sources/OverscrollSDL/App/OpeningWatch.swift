import FrameReports
import OverscrollKit
import Workers
#if canImport(Glibc)
import Glibc
#endif

/// Bounds the window's opening: a stop (SIGTERM from `systemctl stop`) while SDL opens the
/// display ends the process within a second, its report written, whatever the display
/// server does. A server that accepts the connection and never answers leaves SDL in
/// Xlib's or libwayland's read for ever, with SIGINT and SIGTERM blocked on the main
/// thread (`SignalHandling.openingSDL`): the stop stayed pending and the process lived on.
///
/// This thread takes a stop from the moment the report exists until `RunWatch` takes over
/// at the frame loop's start: SIGINT/SIGTERM pending while the opening blocks them (read
/// from a signalfd, then passed on as the stop they are), and any stop after (the stop
/// pipe). It gives the main thread `grace` to come out of the display, then claims the
/// report, writes it (no frames: the window never showed one), says so in one line, and
/// exits with the stop's status. Idle, it sleeps in one poll: no wake-ups.
final class OpeningWatch: Sendable {
    /// How long the opening gets after a stop before this thread ends the process.
    static let grace = 0.5

    private enum Phase { case opening, claimed, handedOver }

    /// Unchecked: the report is reached only under this lock, by the main thread (to
    /// describe the display in it) or by the watcher (to finish it), never both.
    private struct State: @unchecked Sendable {
        let report: ReportWriter?
        var phase = Phase.opening
    }

    private let state: Locked<State>
    private let log: @Sendable (String) -> Void
    private let worker = Locked<Worker?>(nil)

    init(report: ReportWriter?, log: @escaping @Sendable (String) -> Void) {
        state = Locked(State(report: report))
        self.log = log
        let started = Worker(name: "opening-watch") { [self] signal in watch(signal) }
        worker.withLock { $0 = started }
    }

    /// `body` with the report, on the main thread, unless the watcher has claimed it
    /// (then the process is about to exit: this thread waits for that).
    func withReport(_ body: (ReportWriter?) -> Void) {
        let claimed = state.withLock { s -> Bool in
            guard s.phase != .claimed else { return true }
            body(s.report)
            return false
        }
        if claimed { Self.waitForExit() }
    }

    /// The frame loop's own watch has started: this one stops acting on stops. Its
    /// thread stays, parked in one poll, until `end`: a thread that ended here left its
    /// stack and arena to the next one made, and a reload's read thread made under an
    /// address-space limit then started where it could not before, and crashed
    /// (InputLimitsTests, 3 runs in 8).
    func handOver() {
        let claimed = state.withLock { s -> Bool in
            if s.phase == .claimed { return true }
            s.phase = .handedOver
            return false
        }
        if claimed { Self.waitForExit() }
        worker.withLock { $0 }?.wake()
    }

    /// The run is over, or never started: the thread ends.
    func end() {
        handOver()
        worker.withLock { $0 }?.stopAndJoin()
    }

    private static func waitForExit() -> Never {
        while true { pause() }
    }

    private func watch(_ signal: Worker.Signal) {
        let signals = Self.stopSignalDescriptor()
        defer { if signals >= 0 { close(signals) } }
        var deadline: Double?
        var fds = [pollfd(fd: signal.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: SignalHandling.stopDescriptor, events: Int16(POLLIN), revents: 0)]
        while !signal.isStopping {
            if state.withLock({ $0.phase == .handedOver }) {
                signal.sleep(3600)
                continue
            }
            let timeout = deadline.map { Int32(max(0, ($0 - Self.now()) * 1000).rounded(.up)) } ?? -1
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if signal.isStopping { return }
            signal.drain()
            if fds[1].revents & Int16(POLLIN) != 0, let sig = Self.readSignal(signals) {
                // Taken from the pending set: passed on as the stop it is, so the loop
                // (and RunWatch after it) sees it if the opening ends in time.
                SignalHandling.requestStop(sig)
            }
            if fds[2].revents & Int16(POLLIN) != 0 {
                // The byte stays for RunWatch; this poll stops watching the pipe.
                fds[2].fd = -1
            }
            if deadline == nil, SignalHandling.stopRequested != nil { deadline = Self.now() + Self.grace }
            if let deadline, Self.now() >= deadline { finish() }
        }
    }

    /// The grace is over and the main thread is still in the display.
    private func finish() {
        let claimed = state.withLock { s -> ReportWriter?? in
            guard s.phase == .opening else { return nil }
            s.phase = .claimed
            return .some(s.report)
        }
        guard let report = claimed else { return }
        let sig = SignalHandling.stopRequested
        let status = SignalHandling.liveExitStatus(sig)
        var line = "\(sig.map(SignalHandling.name) ?? "a stop") while the window was opening: the display did not answer within \(Int(Self.grace * 1000)) ms"
        if let report {
            // No frame was shown: the report says so (0 frames) at a nominal budget.
            if report.metadata.refreshPeriodMs <= 0 { report.metadata.refreshPeriodMs = 1000.0 / 60 }
            do {
                try report.finish(profiler: FrameProfiler(refreshPeriod: report.metadata.refreshPeriodMs / 1000))
                line += "; report written to \(ReportWriterError.shown(report.directory))"
            } catch {
                line += "; \(error)"
            }
        }
        log(line + "; exiting \(status)")
        _exit(status)
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// A signalfd for SIGINT and SIGTERM (blocked in every thread while SDL opens), or -1.
    /// Glibc's module does not declare signalfd(2); it is looked up in the C library.
    private static func stopSignalDescriptor() -> Int32 {
        typealias SignalFD = @convention(c) (Int32, UnsafePointer<sigset_t>?, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "signalfd") else { return -1 }
        var mask = sigset_t()
        sigemptyset(&mask)
        for sig in [SIGINT, SIGTERM] { sigaddset(&mask, sig) }
        return unsafeBitCast(symbol, to: SignalFD.self)(-1, &mask, O_CLOEXEC | O_NONBLOCK)
    }

    /// The signal a signalfd read gives (struct signalfd_siginfo: 128 bytes, ssi_signo first).
    private static func readSignal(_ fd: Int32) -> Int32? {
        var info = [UInt32](repeating: 0, count: 32)
        let n = info.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n == 128 ? Int32(bitPattern: info[0]) : nil
    }
}
