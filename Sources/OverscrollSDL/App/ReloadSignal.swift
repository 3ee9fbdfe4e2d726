import OverscrollKit
import Synchronization
import Workers
#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP, the service manager's "reload" (`ExecReload=kill -HUP $MAINPID`): new settings
/// without closing the window or the report. The signal handler only writes a byte to a
/// pipe (all it may safely do); a SIGHUP before it is installed was kept by
/// `SignalHandling` and makes the first reload. A thread of its own reads the pipe and runs `load` — the config file read and checked off the frame
/// loop — and hands what it built to the loop, which takes it between frames (`take`) and
/// is woken for it.
///
/// Reloads coalesce: each read takes every byte waiting, so any number of signals that
/// arrived before it (or while the last reload ran) make one reload; and a reload starts
/// at least `spacing` after the one before, so a flood of signals (a script looping on
/// `systemctl reload`) makes a reload, and a log line, a second, not one per signal. A
/// lone SIGHUP is read at once. Nothing is kept per reload: one pending settings value,
/// replaced.
final class ReloadSignal: Sendable {
    /// What a reload produced (`load` has written its one log line).
    typealias Load = @Sendable () -> ReloadOutcome

    private let pending = Locked<AppSettings?>(nil)
    /// Whether `pending` holds settings: every frame looks, and a reload is rare, so the
    /// look is one atomic load, not a lock and a copy of the settings.
    private let hasPending = Atomic<Bool>(false)
    private let worker = Locked<Worker?>(nil)

    /// - Parameters:
    ///   - wake: wakes the frame loop for settings to apply.
    ///   - notify: sends a line to the service manager (sd_notify), from the reload thread.
    /// nil when no pipe or thread can be made (then SIGHUP changes nothing).
    init?(load: @escaping Load, wake: @escaping @Sendable () -> Void, notify: @escaping @Sendable (String) -> Void,
          spacing: Double = 1) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        // Not inherited by a refresh command.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: a full pipe already means "reload".
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        reloadPipeWrite.store(fds[1], ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = write(reloadPipeWrite.load(ordering: .relaxed), &byte, 1)
            errno = saved
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
            _ = write(fds[1], &byte, 1)
        }
        let readEnd = fds[0]
        guard let started = Worker(name: "reload", { [self] signal in
            // The pipe holds at most 64 KiB: one read takes every signal waiting.
            var bytes = [UInt8](repeating: 0, count: 65_536)
            var lastStart = -Double.infinity
            // The signals' pipe and the worker's stop, in one wait.
            var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signal.fd, events: Int16(POLLIN), revents: 0)]
            while !signal.isStopping {
                // Signals during this wait stay in the pipe, for the next read to take at once.
                let early = lastStart + spacing - MonotonicClock.now()
                if early > 0 {
                    signal.sleep(early)
                    continue
                }
                for i in fds.indices { fds[i].revents = 0 }
                guard poll(&fds, nfds_t(fds.count), -1) > 0 || errno == EINTR else { return }
                signal.drain()
                if signal.isStopping { return }
                guard fds[0].revents != 0 else { continue }
                let n = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                lastStart = MonotonicClock.now()
                notify("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
                switch load() {
                case .apply(let settings):
                    pending.withLock { $0 = settings }
                    hasPending.store(true, ordering: .releasing)
                    // READY=1 follows from the loop once the settings are applied.
                    wake()
                case .unchanged:
                    notify("READY=1")
                case .refused(let reason):
                    notify("READY=1\nSTATUS=reload refused, the running settings stay: \(reason)")
                }
            }
        }) else { return nil }
        worker.withLock { $0 = started }
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

    /// Stops the thread. The main thread never waits on it for long: a reload can be
    /// inside a file system call (a content file on a hung network mount), so the thread
    /// is joined only once it has ended, looked for over 200 ms; otherwise it is left to
    /// end with the process. The pipe stays open and SIGHUP's handler installed: a late
    /// SIGHUP only adds a byte nobody reads.
    func stop() {
        worker.withLock { w in
            w?.stop()
            w?.join(within: 0.2)
        }
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}

/// The pipe's ends: a signal handler carries no context, so they live outside any object,
/// as atomics (lock-free, safe to read in a handler).
private let reloadPipeWrite = Atomic<Int32>(-1)
