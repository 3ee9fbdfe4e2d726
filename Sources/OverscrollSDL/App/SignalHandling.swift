import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What each signal does to the program (the README's table):
///
/// | signal | outcome |
/// |---|---|
/// | SIGTERM, SIGINT | live: quit at the next event, report written (SDL turns them into SDL_QUIT); replay: stop at the next frame, trace and report written, exit 128+signal |
/// | SIGHUP | live: re-read the config file (`ReloadSignal`, installed by the live app); replay: the default (the process ends) |
/// | SIGABRT, SIGQUIT | end at once, by that signal (a watchdog restart works); frames.csv keeps what was streamed |
/// | SIGUSR1 | ignored |
/// | SIGPIPE | ignored: a closed pipe is a write error, reported, not a silent death |
///
/// Signal handlers can only talk to the program through state outside any object (a
/// handler gets no context): `stopSignal` below is that one piece, an atomic.
public enum SignalHandling {
    /// Process-wide dispositions; call once, first thing in `main`. Children started later
    /// get the defaults back (the refresh supervisor resets every signal).
    public static func installProcessDefaults() {
        // A launcher (a test runner's worker thread, some supervisors) may hand us a mask
        // with these blocked; a blocked SIGABRT would wait for ever. Threads started later
        // inherit this thread's mask.
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGABRT, SIGQUIT, SIGINT, SIGTERM] { sigaddset(&handled, sig) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGUSR1, SIG_IGN)
        // Swift's runtime installs a backtracer for SIGABRT and SIGQUIT that prints ~70
        // lines and then leaves the process running: a watchdog's SIGABRT must end it.
        for sig in [SIGABRT, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = endNow
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
        }
    }

    /// Replay: SIGINT and SIGTERM set a flag the replay loop checks every frame, instead of
    /// SDL's SDL_QUIT (which a headless replay would take for an ordinary end). Call after
    /// SDL has started its event subsystem (it installs its own handlers then).
    public static func installReplayStop() {
        stopSignal.store(0, ordering: .relaxed)
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in stopSignal.store(sig, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
    }

    /// The SIGINT or SIGTERM that asked a replay to stop, if one did.
    public static var replayStopRequested: Int32? {
        let sig = stopSignal.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }
}

private let stopSignal = Atomic<Int32>(0)

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
