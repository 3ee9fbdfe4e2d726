import CWorker
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every thread the program starts besides the main one: the refresh commands, the
/// reload reader, the metrics writer, the run watch, the report's frames.csv flusher.
///
/// - **Named** (`top -H`, /proc/PID/task/*/comm show what each thread is for).
/// - **Joinable by its owner**, who joins it before the program exits: nothing the program
///   starts outlives it. `join(within:)` is for an owner that must not hang on a body stuck
///   in the kernel (a file on a dead network mount); such a thread is left to end with the
///   process.
/// - **A documented stop**: `stop()` sets a flag the body reads (`Signal.isStopping`) and
///   ends any `Signal.sleep` at once; a body that waits in its own `poll` adds `Signal.fd`.
///   `wake()` ends the sleep without stopping (new work). Bodies are loops that look at
///   the flag after every wait; a body doing one blocking job (a refresh command) is
///   stopped by ending that job (killing the command) instead.
///
/// Not Dispatch: these threads sit in `poll` for seconds, and a blocked pool worker is
/// one fewer for everyone else; and an idle one is a thread that wakes for nothing.
public final class Worker: Sendable {
    /// The body's side of the stop: what it reads and where it sleeps.
    public final class Signal: Sendable {
        private let stopping = Atomic<Bool>(false)
        /// A pipe rather than a condition variable, so a body can wait on it together with
        /// its own descriptors in one poll. Both ends non-blocking, close-on-exec (no refresh
        /// command inherits them).
        private let pipe: (read: Int32, write: Int32)

        init() {
            var fds: [Int32] = [-1, -1]
            if Glibc.pipe(&fds) != 0 { fds = [-1, -1] }
            for fd in fds where fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            pipe = (fds[0], fds[1])
        }

        deinit {
            if pipe.read >= 0 { close(pipe.read) }
            if pipe.write >= 0 { close(pipe.write) }
        }

        /// Readable after a `wake` or a `stop` (-1 if no pipe could be made: then `sleep`
        /// naps in slices of 0.1 s and looks at the flag).
        public var fd: Int32 { pipe.read }

        public var isStopping: Bool { stopping.load(ordering: .acquiring) }

        /// Sleeps `seconds` at most, less when woken or stopped; true when stopping.
        @discardableResult
        public func sleep(_ seconds: Double) -> Bool {
            if isStopping { return true }
            if seconds > 0 {
                if pipe.read >= 0 {
                    var entry = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
                    _ = poll(&entry, 1, Int32(min(seconds * 1000, 3_600_000).rounded(.up)))
                } else {
                    var ts = timespec(tv_sec: 0, tv_nsec: Int(min(seconds, 0.1) * 1e9))
                    nanosleep(&ts, nil)
                }
            }
            drain()
            return isStopping
        }

        /// Empties the pipe after the body's own poll saw `fd` readable.
        public func drain() {
            guard pipe.read >= 0 else { return }
            var bytes = (UInt64(0), UInt64(0))
            while withUnsafeMutableBytes(of: &bytes, { read(pipe.read, $0.baseAddress, $0.count) }) > 0 {}
        }

        func wake() {
            var byte: UInt8 = 1
            // A full pipe is already a wake-up; the error is nothing to act on.
            if pipe.write >= 0 { _ = write(pipe.write, &byte, 1) }
        }

        func stop() {
            stopping.store(true, ordering: .releasing)
            wake()
        }
    }

    private enum Handle {
        case running(pthread_t)
        case joined
    }

    /// Set by the thread as the body returns.
    private final class Finished: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// What the new thread takes, and drops as the body returns: the body (and whatever it
    /// captured, often the owner) is not kept alive by the worker after it has run.
    private final class Start {
        let name: String
        let body: @Sendable (Signal) -> Void
        let signal: Signal
        let finished: Finished
        init(_ name: String, _ body: @escaping @Sendable (Signal) -> Void, _ signal: Signal, _ finished: Finished) {
            self.name = name
            self.body = body
            self.signal = signal
            self.finished = finished
        }
    }

    public let name: String
    private let signal: Signal
    private let finished: Finished
    private let handle: Locked<Handle>

    /// Starts `body` on a thread of its own named `name` (15 bytes are shown); nil when the
    /// system cannot start a thread (the body then never runs).
    public init?(name: String, _ body: @escaping @Sendable (Signal) -> Void) {
        self.name = name
        signal = Signal()
        finished = Finished()
        let context = Unmanaged.passRetained(Start(name, body, signal, finished)).toOpaque()
        var thread = pthread_t()
        // The signals the program handles are the main thread's: a worker is started with
        // them blocked (a new thread takes its creator's mask). A signal sent to the process
        // goes to any thread that does not block it, and while SDL starts, SIGTERM's action
        // is the default and only the main thread blocks it (`SignalHandling.openingSDL`):
        // the report's writer thread took one there and the process died by it.
        var handled = sigset_t(), previous = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGHUP, SIGINT, SIGTERM, SIGALRM, SIGXCPU, SIGPWR] { sigaddset(&handled, sig) }
        pthread_sigmask(SIG_BLOCK, &handled, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        guard pthread_create(&thread, nil, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            // Named by itself, before its body runs: a thread starts with its creator's
            // name, and naming it from the creator after pthread_create races the body.
            _ = ovs_thread_name(pthread_self(), start.name)
            start.body(start.signal)
            start.finished.flag.store(true, ordering: .releasing)
            return nil
        }, context) == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            return nil
        }
        handle = Locked(.running(thread))
    }

    deinit {
        // An owner that gave up waiting (`join(within:)`): the thread ends with the process,
        // and its resources go with it then, not leaked before.
        if case .running(let thread) = handle.withLock({ $0 }) { pthread_detach(thread) }
    }

    /// Whether the body has returned.
    public var isFinished: Bool { finished.flag.load(ordering: .acquiring) }

    /// Ends the body's current sleep (or its poll on `Signal.fd`) without stopping it.
    public func wake() { signal.wake() }

    /// Asks the body to stop; returns at once.
    public func stop() { signal.stop() }

    /// Waits for the body to end. Idempotent; callable from any thread but the worker's own
    /// (from there it returns at once: the thread cannot wait for itself).
    public func join() {
        handle.withLock { h in
            guard case .running(let thread) = h, pthread_equal(thread, pthread_self()) == 0 else { return }
            pthread_join(thread, nil)
            h = .joined
        }
    }

    /// Waits up to `seconds` for the body to end; false when it still runs.
    @discardableResult
    public func join(within seconds: Double) -> Bool {
        handle.withLock { h in
            guard case .running(let thread) = h else { return true }
            guard pthread_equal(thread, pthread_self()) == 0 else { return false }
            guard ovs_thread_join_within(thread, seconds) == 0 else { return false }
            h = .joined
            return true
        }
    }

    /// `stop` then `join`.
    public func stopAndJoin() {
        stop()
        join()
    }
}
