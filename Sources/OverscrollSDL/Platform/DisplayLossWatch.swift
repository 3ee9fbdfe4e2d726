import OverscrollKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Losing the display — the X server killed, the compositor gone — ends the run the way
/// a service manager can act on: one line on stderr naming what was lost, the report
/// completed, exit status `DisplayLossWatch.exitStatus` within a second.
///
/// Two ways to notice, because neither server lets SDL do it: Xlib calls its I/O error
/// handler (by default it prints and exits 1 at once, losing the report), which is
/// replaced; SDL 2.26's Wayland present loop spins for ever on a dead connection, so a
/// thread watches the connection's socket for the hang-up. Whoever notices first claims
/// the loss; the frame loop finishes the run itself when it can, and if it is stuck inside
/// SDL (`enterSDL`…`leaveSDL`), the watcher finishes it for it.
final class DisplayLossWatch: @unchecked Sendable {
    /// EX_TEMPFAIL: not the program's fault, try again — what `Restart=` is for.
    static let exitStatus: Int32 = 75

    private struct State {
        var lost: String?
        var insideSDL = false
        var claimed = false
        var stopping = false
    }

    private let state = Mutex(State())
    private let native: NativeDisplay
    private let wake: @Sendable () -> Void
    /// Finishes the run (report, metrics, refresh work) and prints the line. Called once,
    /// on the frame loop's thread, or on the watcher's while the loop is stuck in SDL.
    private let finishRun: (String) -> Void
    private var thread: JoinableThread?
    /// A pipe readable once `stop` is called: the watcher sleeps on it and the socket
    /// together, so it wakes for nothing else (a kiosk's idle CPU is its wake-ups). Made
    /// before the frame loop starts any refresh command, so no child inherits it.
    private let stopSignal: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }()

    init(native: NativeDisplay, wake: @escaping @Sendable () -> Void, finishRun: @escaping (String) -> Void) {
        self.native = native
        self.wake = wake
        self.finishRun = finishRun
    }

    deinit {
        if stopSignal.read >= 0 {
            close(stopSignal.read)
            close(stopSignal.write)
        }
    }

    func start() {
        if native.kind == .x11 {
            // A C callback carries no context: the one watch is reached through a global,
            // set once here, before any X call can fail.
            installedWatch = self
            native.onXConnectionLost { _ in
                installedWatch?.lose("connection closed")
                _exit(DisplayLossWatch.exitStatus)
            }
        }
        guard native.socket >= 0 else { return }
        thread = JoinableThread { [self] in watch() }
    }

    /// The reason, once the watcher has seen the server go; the frame loop checks it.
    var lost: String? { state.withLock { $0.lost } }

    /// Around SDL calls that may never return on a dead display (present, waiting).
    func enterSDL() { state.withLock { $0.insideSDL = true } }

    func leaveSDL() {
        let claimedElsewhere = state.withLock { s in
            s.insideSDL = false
            return s.claimed
        }
        // The watcher is finishing the run and will exit the process: stay out of its way.
        if claimedElsewhere { while true { pause() } }
    }

    /// The loop ends normally: stop watching.
    func stop() {
        state.withLock { $0.stopping = true }
        var one: UInt8 = 1
        if stopSignal.write >= 0 { _ = write(stopSignal.write, &one, 1) }
        thread?.join()
        if installedWatch === self { installedWatch = nil }
    }

    /// Finish the run for this loss and exit; only the first caller does, later ones wait
    /// for it to exit the process.
    func lose(_ reason: String) -> Never {
        let first = state.withLock { s in
            defer { s.claimed = true }
            return !s.claimed
        }
        guard first else { while true { pause() } }
        finishRun("lost the \(native.serverName) (\(reason))")
        _exit(Self.exitStatus)
    }

    private func watch() {
        // POLLHUP and POLLERR are reported whatever `events` asks for: asking for nothing
        // sleeps until the server hangs up, never waking for ordinary traffic.
        var fds = [pollfd(fd: native.socket, events: 0, revents: 0),
                   pollfd(fd: stopSignal.read, events: Int16(POLLIN), revents: 0)]
        // Without the stop signal (no descriptor left), look at `stopping` ten times a second.
        let timeout: Int32 = stopSignal.read >= 0 ? -1 : 100
        while !state.withLock({ $0.stopping }) {
            fds[0].revents = 0
            if poll(&fds, nfds_t(fds.count), timeout) > 0, fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { break }
        }
        guard state.withLock({ s in
            if s.stopping { return false }
            s.lost = "connection closed"
            return true
        }) else { return }
        wake()
        // Give the loop a moment to finish the run itself; if it is stuck inside SDL
        // (Wayland's present spins on a dead connection), finish it from here.
        MonotonicClock.sleep(0.2)
        while true {
            let takeOver = state.withLock { s in
                guard !s.claimed, !s.stopping, s.insideSDL else { return false }
                s.claimed = true
                return true
            }
            if takeOver {
                finishRun("lost the \(native.serverName) (connection closed)")
                _exit(Self.exitStatus)
            }
            if state.withLock({ $0.claimed || $0.stopping }) { return }
            MonotonicClock.sleep(0.05)
        }
    }
}

/// The watch Xlib's I/O error handler reports to (see `DisplayLossWatch.start`).
nonisolated(unsafe) private var installedWatch: DisplayLossWatch?
