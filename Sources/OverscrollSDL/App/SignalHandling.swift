import CProcessStart
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What each signal does to the program (docs/reference.md's table), set once, first thing in
/// `main`, before anything could receive one: every signal whose default action would end
/// the process either stops the run the way SIGTERM does or is ignored.
///
/// | signal | outcome |
/// |---|---|
/// | SIGTERM, SIGINT | stop: live, quit at the next frame, report written, exit 0; replay, stop at the next frame, trace and report written, exit 128+signal |
/// | SIGALRM, SIGXCPU, SIGPWR | stop as SIGTERM does, exit 128+signal (live too) |
/// | SIGHUP | live: re-read the config (`ReloadSignal`); one before the window is up is kept for it; replay: stop, exit 129 |
/// | SIGABRT, SIGQUIT | end at once, by that signal (a watchdog restart works); frames.csv keeps what was streamed |
/// | SIGPIPE, SIGXFSZ | ignored: a closed pipe or a file over its size limit is a write error, reported (73/74) |
/// | SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGSTKFLT, SIGIO, SIGRTMIN…SIGRTMAX | ignored |
/// | SIGCHLD, SIGCONT, SIGURG, SIGWINCH | the default, whatever was inherited (an ignored SIGCHLD loses exit statuses) |
/// | SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS | a crash: the process ends by it; frames.csv keeps what was streamed |
///
/// A stop is a flag and a byte on a pipe: the handler may do nothing else. The live
/// loop looks at the flag every frame; `RunWatch` sleeps on the pipe, wakes the loop, and
/// finishes the run itself if the loop has not within a grace period.
public enum SignalHandling {
    /// Signals that stop a run as SIGTERM does.
    static let stopping: [Int32] = [SIGTERM, SIGINT, SIGALRM, SIGXCPU, SIGPWR]
    /// Signals whose default would end the process and that mean nothing to it.
    static var ignored: [Int32] {
        [SIGPIPE, SIGXFSZ, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGSTKFLT, SIGIO] + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
    }
    /// Signals put back to their default (not ending the process) whatever was inherited.
    static let defaulted: [Int32] = [SIGCHLD, SIGCONT, SIGURG, SIGWINCH]

    /// Process-wide set-up; call once, first thing in `main`. Children started later get
    /// the defaults back (the refresh supervisor resets every signal).
    public static func installProcessDefaults() {
        openStandardDescriptors()
        stopPipe = makeStopPipe()
        for sig in defaulted { set(sig, SIG_DFL) }
        for sig in ignored { set(sig, SIG_IGN) }
        for sig in stopping { set(sig, stopHandler) }
        set(SIGHUP, hangupHandler)
        // Swift's runtime installs a backtracer for SIGABRT and SIGQUIT that prints ~70
        // lines and then leaves the process running: a watchdog's SIGABRT must end it.
        for sig in [SIGABRT, SIGQUIT] { set(sig, endNow) }
        // A launcher (a test runner's worker thread, some supervisors) may hand us a mask
        // with signals blocked; a blocked SIGTERM would wait for ever. Threads started
        // later inherit this thread's (empty) mask.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // What came between exec and now (early_signals.c kept it).
        if ovs_early_hangup() != 0 { earlyHangup.store(true, ordering: .relaxed) }
        let early = ovs_early_stop_signal()
        if early != 0 { stopHandler(early) }
    }

    /// Opens the live display (`body`) so that SDL's own SIGINT/SIGTERM handler is there
    /// too, behind ours: SDL waits for input in a loop that retries a poll() a signal
    /// interrupted, and only its handler's "quit pending" ends that wait; a stop that only
    /// set our flag was seen at the wait's timeout, or by RunWatch's grace. SDL installs
    /// its handler only over the default, so the default is put back while it starts,
    /// with SIGINT and SIGTERM blocked (one sent meanwhile waits, then reaches ours).
    static func openingSDL<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var mask = sigset_t()
        sigemptyset(&mask)
        for sig in [SIGINT, SIGTERM] { sigaddset(&mask, sig) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        for sig in [SIGINT, SIGTERM] { set(sig, SIG_DFL) }
        defer {
            var installed = sigaction()
            sigaction(SIGTERM, nil, &installed)
            if let handler = installed.__sigaction_handler.sa_handler,
               unsafeBitCast(handler, to: Int.self) > 1 {   // not SIG_DFL (0) or SIG_IGN (1)
                sdlQuitHandler.store(unsafeBitCast(handler, to: Int.self), ordering: .releasing)
            }
            for sig in stopping { set(sig, stopHandler) }
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        }
        return try body()
    }

    /// A replay: a SIGHUP stops it (it has no config to reload), one that came early too.
    static func installReplayStop() {
        set(SIGHUP, stopHandler)
        if takeEarlyHangup() { stopHandler(SIGHUP) }
    }

    /// A stop taken from the pending signals (`OpeningWatch`'s signalfd): recorded and
    /// passed on as the handler would have.
    static func requestStop(_ sig: Int32) { stopHandler(sig) }

    /// The first signal that asked the run to stop, if one did.
    public static var stopRequested: Int32? {
        let sig = stopSignal.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }

    /// The SIGINT/SIGTERM (or other stopping signal) that asked a replay to stop.
    public static var replayStopRequested: Int32? { stopRequested }

    /// Readable once a stop signal has come (the byte stays unread: `RunWatch` polls it);
    /// -1 when no pipe could be made, then the loop's own look at the flag still stops it.
    static var stopDescriptor: Int32 { stopPipe.read }

    /// Whether a SIGHUP came before the reload handler was in place (then a reload is due).
    static func takeEarlyHangup() -> Bool { earlyHangup.exchange(false, ordering: .relaxed) }

    /// A live run's exit status after `sig` stopped it (nil: nothing did): SIGTERM and
    /// SIGINT are how it is meant to stop (0), any other stopping signal is told apart.
    public static func liveExitStatus(_ sig: Int32?) -> Int32 {
        guard let sig, sig != SIGTERM, sig != SIGINT else { return 0 }
        return 128 + sig
    }

    /// "SIGTERM", for lines and docs/reference.md.
    public static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGALRM: "SIGALRM"
        case SIGXCPU: "SIGXCPU"
        case SIGPWR: "SIGPWR"
        default: "signal \(sig)"
        }
    }

    /// fds 0–2 on /dev/null when a launcher closed them: otherwise the first file the
    /// program opens (frames.csv) would become standard error and take the log's lines.
    /// Standard output and error are opened read-only, so that a write to them still
    /// fails (EBADF) as it did closed: `check-config >&-` is an output lost (74), not a
    /// success, and a log line to a closed stderr is counted as dropped.
    private static func openStandardDescriptors() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDWR : O_RDONLY)
            // open() returns the lowest free descriptor: this one, as the lower are open.
            if opened >= 0, opened != fd { _ = dup2(opened, fd); close(opened) }
        }
    }

    private static func makeStopPipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: one byte is all a stop needs.
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        return (fds[0], fds[1])
    }

    private static func set(_ sig: Int32, _ handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(sig, &action, nil)
    }
}

/// Signal handlers get no context: what they set lives outside any object. Each is set
/// once (the pipe, before any handler is installed) or is an atomic.
private let stopSignal = Atomic<Int32>(0)
/// SDL's SIGTERM handler once the live display has started (`openingSDL`), as a bit
/// pattern (0: none): a stop passes through it, so SDL's wait for input ends.
private let sdlQuitHandler = Atomic<Int>(0)
private let earlyHangup = Atomic<Bool>(false)
/// Written once in `installProcessDefaults`, before the handlers that read it exist;
/// read-only after: no race.
nonisolated(unsafe) private var stopPipe: (read: Int32, write: Int32) = (-1, -1)

/// A stop: the first signal is kept, and the pipe made readable. Async-signal-safe.
private func stopHandler(_ sig: Int32) {
    _ = stopSignal.compareExchange(expected: 0, desired: sig, ordering: .relaxed)
    var byte: UInt8 = 1
    if stopPipe.write >= 0 { _ = write(stopPipe.write, &byte, 1) }
    // SDL's handler only marks a quit pending (async-signal-safe). It is told SIGTERM for
    // every stopping signal (it knows only SIGINT and SIGTERM): our flag keeps which came.
    let sdl = sdlQuitHandler.load(ordering: .acquiring)
    if sdl != 0 { unsafeBitCast(sdl, to: (@convention(c) (Int32) -> Void).self)(SIGTERM) }
}

/// SIGHUP before the live app's reload handler (or a replay's stop) is installed.
private func hangupHandler(_ sig: Int32) {
    earlyHangup.store(true, ordering: .relaxed)
}

/// SIGABRT/SIGQUIT: one line on stderr, then die of the same signal with the default action
/// (core dump if enabled). Only async-signal-safe calls: write, sigaction, raise.
private func endNow(_ sig: Int32) {
    let message: StaticString = sig == SIGQUIT
        ? "overscroll: SIGQUIT: ending now (frames.csv keeps what was streamed)\n"
        : "overscroll: SIGABRT: ending now (frames.csv keeps what was streamed)\n"
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(sig, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, sig)
    raise(sig)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
}
