import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP, the service manager's "reload" (`ExecReload=kill -HUP $MAINPID`): new settings
/// without closing the window or the report. The signal handler only writes a byte to a
/// pipe (all it may safely do); a thread of its own reads it and runs `load` — the config
/// file read and checked off the frame loop — and hands what it built to the loop, which
/// takes it between frames (`take`) and is woken for it.
final class ReloadSignal: Sendable {
    /// What a reload produced: the settings to apply, or nothing (refused; `load` has said why).
    typealias Load = @Sendable () -> AppSettings?

    private let pending = Mutex<AppSettings?>(nil)
    /// Whether `pending` holds settings: every frame looks, and a reload is rare, so the
    /// look is one atomic load, not a lock and a copy of the settings.
    private let hasPending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let pipe: (read: Int32, write: Int32)
    private let thread = Mutex<JoinableThread?>(nil)

    /// nil when no pipe can be made (then SIGHUP keeps its default).
    init?(load: @escaping Load, wake: @escaping @Sendable () -> Void) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        pipe = (fds[0], fds[1])
        // Not inherited by a refresh command.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: a full pipe already means "reload".
        _ = fcntl(pipe.write, F_SETFL, fcntl(pipe.write, F_GETFL) | O_NONBLOCK)
        reloadPipe = pipe.write
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(reloadPipe, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGHUP, &action, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // A SIGHUP that came while the window was opening (SignalHandling kept it): reload.
        if SignalHandling.takeEarlyHangup() {
            var byte: UInt8 = 1
            _ = write(pipe.write, &byte, 1)
        }
        let readEnd = pipe.read
        let started = JoinableThread { [self] in
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 || stopping.load(ordering: .relaxed) { return }
                if let settings = load() {
                    pending.withLock { $0 = settings }
                    hasPending.store(true, ordering: .releasing)
                    wake()
                }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Whether a reload has settings waiting: one atomic load. The loop asks this every
    /// frame before `take`, which hands back a large optional whose every destruction,
    /// even of nil, went through the settings' generic value witness.
    var isPending: Bool { hasPending.load(ordering: .acquiring) }

    /// Settings a reload built since the last look, once.
    func take() -> AppSettings? {
        guard hasPending.exchange(false, ordering: .acquiring) else { return nil }
        return pending.withLock { p in
            guard let settings = p else { return nil }
            p = nil
            return settings
        }
    }

    /// Back to SIGHUP's default and the thread joined.
    func stop() {
        signal(SIGHUP, SIG_IGN)
        stopping.store(true, ordering: .relaxed)
        var byte: UInt8 = 0
        _ = write(pipe.write, &byte, 1)
        thread.withLock { $0?.join() }
        close(pipe.read)
        close(pipe.write)
    }
}

/// Where the SIGHUP handler writes: a signal handler carries no context.
nonisolated(unsafe) private var reloadPipe: Int32 = -1
