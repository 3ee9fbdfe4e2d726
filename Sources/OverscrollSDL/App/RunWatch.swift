import FrameReports
import OverscrollKit
import Workers
#if canImport(Glibc)
import Glibc
#endif

/// The thread that ends a live run when the frame loop cannot: the display gone, or a
/// stop signal (SIGTERM from `systemctl stop`) that the loop has not acted on within a
/// grace period because it is stuck — in Xlib's poll on a frozen X server, in a device,
/// in a join. Either way the report and the metrics are completed, one line says what
/// happened, and the process exits within a second, before a service manager's stop
/// timeout would SIGKILL it and lose the report.
///
/// It touches only what it owns: the run's `RunRecord` (profiler and report, behind their
/// lock) and the metrics writer, both `Sendable`; never the session, the model or SDL.
///
/// Losing the display is noticed two ways, because neither server lets SDL do it: Xlib
/// calls its I/O error handler (by default it prints and exits 1 at once, losing the
/// report), which is replaced; SDL 2.26's Wayland present loop spins for ever on a dead
/// connection, so this thread watches the connection's socket for the hang-up.
final class RunWatch: Sendable {
    /// EX_TEMPFAIL: not the program's fault, try again — what `Restart=` is for.
    static let displayLostStatus: Int32 = 75
    /// EX_UNAVAILABLE: the screen cannot show a frame, and would not after a restart; the
    /// kiosk's unit does not restart it at once (RestartPreventExitStatus=; its retry
    /// timer tries every 30 s).
    static let cannotShowStatus: Int32 = 69
    /// How long the loop gets to act on a stop or a loss itself.
    static let grace = 0.4
    /// How long the loop, once it is writing the report, gets to finish it after a stop:
    /// a slow machine (a kiosk on llvmpipe at 5 fps, seen in a VM) takes over a second to
    /// write trace.json and frames.svg. Within the units' TimeoutStopSec=5, so the watcher,
    /// not systemd's SIGKILL, has the last word, and says what was lost.
    static let reportBudget = 3.5

    private enum Phase: Equatable {
        case running
        /// The loop is writing the report itself.
        case loopFinishing
        /// The loop has written it; the process exits with this status.
        case loopFinished(Int32)
        /// This thread (or the loop, for a loss) claimed the finish.
        case claimed
    }

    private struct State {
        var lost: String?
        var phase = Phase.running
    }

    private let state = Locked(State())
    private let record: RunRecord
    private let metrics: MetricsWriter?
    private let log: @Sendable (String) -> Void
    private let wake: @Sendable () -> Void
    private let socket: Int32
    private let serverName: String
    private let thread = Locked<Worker?>(nil)
    /// Main thread to watcher: a byte when the loop has finished (it may be joined).
    private let control: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }()

    init(record: RunRecord, metrics: MetricsWriter?, native: NativeDisplay,
         log: @escaping @Sendable (String) -> Void, wake: @escaping @Sendable () -> Void) {
        self.record = record
        self.metrics = metrics
        self.log = log
        self.wake = wake
        socket = native.socket
        serverName = native.serverName
    }

    deinit {
        if control.read >= 0 {
            close(control.read)
            close(control.write)
        }
    }

    /// Starts watching; where the platform's loss is the server's I/O error (`Platform.Loss`),
    /// Xlib's handler for it is replaced first.
    func start(_ native: NativeDisplay, loss: Platform.Loss) {
        if loss == .serverIOError {
            // A C callback carries no context: the one watch is reached through a global,
            // set once here, before any X call can fail.
            installedWatch.withLock { $0 = self }
            native.onXConnectionLost { _ in
                installedWatch.withLock { $0 }?.lose("connection closed")
                _exit(RunWatch.displayLostStatus)
            }
        }
        let started = Worker(name: "run-watch") { [self] _ in watch() }
        thread.withLock { $0 = started }
    }

    /// The reason, once this thread has seen the server go; the frame loop checks it.
    var lost: String? { state.withLock { $0.lost } }

    /// Finish the run for this loss and exit; only the first caller does, later ones wait
    /// for it to exit the process.
    func lose(_ reason: String) -> Never {
        guard claim() else { while true { pause() } }
        finishRun(lostLine("lost the \(serverName) (\(reason))"), status: Self.displayLostStatus)
    }

    /// The screen cannot show a frame at all (`Presenter.cannotShow`): finish the run with
    /// `why` and exit, not to be restarted; as `lose` for who does it.
    func cannotShow(_ why: String) -> Never {
        guard claim() else { while true { pause() } }
        finishRun(lostLine("cannot show a frame (\(why))"), status: Self.cannotShowStatus,
                  then: "(not restarted in 2 s: the same driver would refuse again)")
    }

    /// The loop ended and is about to write the report itself. If this thread has claimed
    /// the finish already, the loop waits here for it to exit the process.
    func loopFinishing() {
        let claimedElsewhere = state.withLock { s in
            if s.phase == .running { s.phase = .loopFinishing }
            return s.phase == .claimed
        }
        if claimedElsewhere { while true { pause() } }
    }

    /// The loop wrote the report and will exit with `status`. Without a stop signal the
    /// thread is joined; after one it stays, to end the process if what follows (joining
    /// other threads) hangs past the grace period.
    func loopFinished(status: Int32) {
        state.withLock { $0.phase = .loopFinished(status) }
        var byte: UInt8 = 1
        _ = write(control.write, &byte, 1)
        if SignalHandling.stopRequested == nil {
            thread.withLock { $0?.join() }
            if installedWatch.withLock({ $0 === self }) { installedWatch.withLock { $0 = nil } }
        }
    }

    private func claim() -> Bool {
        state.withLock { s in
            guard s.phase == .running else { return false }
            s.phase = .claimed
            return true
        }
    }

    private func watch() {
        // POLLHUP and POLLERR are reported whatever `events` asks for: asking for nothing
        // on the display's socket sleeps until the server hangs up, never waking for
        // ordinary traffic; the other two wake only for a stop and for the loop's end.
        var fds = [pollfd(fd: socket, events: 0, revents: 0),
                   pollfd(fd: SignalHandling.stopDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: control.read, events: Int16(POLLIN), revents: 0)]
        var deadline: Double?
        var lostSeen = false, stopSeen = false
        var stopAt: Double?
        while true {
            for i in fds.indices { fds[i].revents = 0 }
            let timeout = deadline.map { Int32(max(0, ($0 - MonotonicClock.now()) * 1000).rounded(.up)) } ?? -1
            _ = poll(&fds, nfds_t(fds.count), timeout)
            let now = MonotonicClock.now()
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                fds[0].fd = -1
                lostSeen = true
                state.withLock { $0.lost = "connection closed" }
                wake()
                deadline = min(deadline ?? .infinity, now + Self.grace)
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                // The byte stays: the signal's number is in SignalHandling's flag. Stop
                // polling it, or every poll would return at once.
                fds[1].fd = -1
                stopSeen = true
                stopAt = stopAt ?? now
                wake()
                deadline = min(deadline ?? .infinity, now + Self.grace)
            }
            if fds[2].revents & Int16(POLLIN | POLLHUP) != 0 {
                fds[2].fd = -1
                // The loop finished normally: done, unless a stop wants the exit guaranteed.
                guard stopSeen || SignalHandling.stopRequested != nil else { return }
                stopSeen = true
                stopAt = stopAt ?? now
                deadline = min(deadline ?? .infinity, now + Self.grace)
            }
            guard let due = deadline, now >= due else { continue }
            act(lost: lostSeen, stoppedFor: stopAt.map { now - $0 } ?? 0)
            deadline = now + 0.3   // the loop was finishing: give it a little longer
        }
    }

    /// The grace period is over and the process still runs.
    private func act(lost: Bool, stoppedFor: Double) {
        let phase = state.withLock { s -> Phase in
            let phase = s.phase
            if phase == .running { s.phase = .claimed }
            return phase
        }
        let sig = SignalHandling.stopRequested
        switch phase {
        case .running where lost:
            finishRun(lostLine("lost the \(serverName) (connection closed)"), status: Self.displayLostStatus)
        case .running:
            let name = sig.map(SignalHandling.name) ?? "a stop"
            var line = "\(name): the frame loop did not stop within \(Int(Self.grace * 1000)) ms (stuck in the display, a device or a join)"
            let status = SignalHandling.liveExitStatus(sig)
            do {
                try record.finish()
                if let directory = record.reportDirectory { line += "; report written to \(ReportWriterError.shown(directory))" }
            } catch {
                line += "; \(error)"
            }
            metrics?.finish()
            log(line + "; exiting \(status)")
            _exit(status)
        case .loopFinished(let status):
            _exit(status)
        case .loopFinishing:
            // The loop is writing the report: a slow machine's takes a while, and it is let
            // finish (summary.json last). Only past the budget (a stalled disk) does this
            // thread end the process, saying the report is not whole: exit 74, never a
            // quiet 0 over a report without its summary.
            guard sig != nil, stoppedFor >= Self.reportBudget else { return }
            let name = sig.map(SignalHandling.name) ?? "a stop"
            log("\(name): the report was not finished within \(Self.reportBudget) s (a slow or stalled disk); "
                + "frames.csv keeps what was streamed; exiting 74")
            _exit(74)
        case .claimed:
            return
        }
    }

    /// The loss's line with what happened to the report.
    private func lostLine(_ lost: String) -> String {
        var line = lost
        do {
            try record.finish()
            if let directory = record.reportDirectory { line += "; report written to \(ReportWriterError.shown(directory))" }
        } catch {
            line += "; \(error)"
        }
        return line
    }

    private func finishRun(_ line: String, status: Int32, then: String = "so the service manager can restart it") -> Never {
        metrics?.finish()
        log("\(line); exiting \(status) \(then)")
        _exit(status)
    }
}

/// The watch Xlib's I/O error handler reports to (see `RunWatch.start`): a C callback
/// carries no context.
private let installedWatch = Locked<RunWatch?>(nil)
