import CSupervisor
import OverscrollKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One command run to its end under a deadline: spawned in its own process group with
/// stdin on /dev/null, stdout streamed to a callback, the head of stderr kept for an error
/// message. Blocking: call it on a background thread.
///
/// The command runs under a supervisor process (see CSupervisor): it dies with the thread
/// that runs this (so with the app, even on SIGKILL), it is a child subreaper (so a
/// descendant that detaches with setsid or a double fork is reparented to it, not to init),
/// and when the command ends it kills whatever the command left behind. The pid this type
/// watches, signals and reaps is the supervisor's; its exit status mirrors the command's.
struct Subprocess {
    /// How the run ended.
    enum Ending: Equatable {
        case exited(status: Int32)
        case signaled(Int32)
        /// The deadline passed; the group was killed.
        case timedOut
        /// The output callback wanted no more; the group was killed.
        case outputStopped
    }

    struct Outcome {
        var ending: Ending
        /// The first `stderrLimit` bytes the command wrote to stderr.
        var stderrHead: [UInt8]
    }

    /// Why the command could not be started; `code` is an errno (ENOENT: not found).
    struct SpawnError: Error, Equatable {
        var code: Int32
    }

    /// After SIGTERM, how long the group gets before SIGKILL.
    static let terminationGrace = 0.2
    /// After the command exits, how long something it left running may keep its output
    /// open before the group is killed (`sh -c 'daemon & echo done'` would otherwise hold
    /// the refresh until the timeout).
    static let strayGrace = 0.25
    /// The longest poll() while the command runs, so its exit is seen even when a process
    /// it started keeps the pipes open.
    private static let pollSlice = 0.05

    /// Runs `arguments` (argv; PATH lookup for argv[0], no shell) until it ends or
    /// `deadline` (seconds on `MonotonicClock.now()`) passes. `output` gets stdout as it arrives
    /// and returns false to stop reading, which kills the group. The child is always reaped
    /// and every pipe closed before it returns.
    static func run(_ arguments: [String], deadline: Double, stderrLimit: Int = 200,
                    running: RunningGroups? = nil,
                    output: (UnsafeRawBufferPointer) -> Bool) throws(SpawnError) -> Outcome {
        precondition(!arguments.isEmpty, "an empty argv is the caller's to report")
        let stdoutPipe = try Pipe()
        let stderrPipe: Pipe
        do { stderrPipe = try Pipe() } catch { stdoutPipe.closeBoth(); throw error }

        let pid: pid_t
        do {
            pid = try spawnSupervised(arguments, stdout: stdoutPipe.write, stderr: stderrPipe.write)
        } catch {
            stdoutPipe.closeBoth()
            stderrPipe.closeBoth()
            throw error
        }
        running?.insert(pid)
        defer { running?.remove(pid) }
        // The child has its copies; ours must go, or EOF never comes.
        close(stdoutPipe.write)
        close(stderrPipe.write)

        var streams = Streams(stdout: stdoutPipe.read, stderr: stderrPipe.read)
        defer { streams.closeAll() }
        var stderrHead: [UInt8] = []
        var stop: Ending?
        var exitSeen: Double?
        var buffer = [UInt8](repeating: 0, count: 64 << 10)

        loop: while true {
            let now = MonotonicClock.now()
            if exitSeen == nil, hasExited(pid) { exitSeen = now }
            if !streams.anyOpen, exitSeen != nil { break }
            // Only a command still running can time out. One that finished while this
            // process was stopped or suspended (the clock jumped past the deadline) has its
            // whole output waiting in the pipes: read it, don't discard it.
            if now >= deadline, exitSeen == nil { stop = .timedOut; break }
            if let exitSeen, now - exitSeen >= strayGrace { break }

            let untilDeadline = exitSeen == nil ? deadline - now : pollSlice
            let wait = max(0, min(untilDeadline, exitSeen.map { $0 + strayGrace - now } ?? pollSlice))
            guard streams.anyOpen else {
                // It closed its output but runs on: watch for its exit.
                MonotonicClock.sleep(min(wait, 0.01))
                continue
            }
            for ready in streams.ready(within: wait) {
                let n = buffer.withUnsafeMutableBytes { read(ready, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                if n <= 0 { streams.closeStream(ready); continue }
                if ready == streams.stdout {
                    let wantsMore = buffer.withUnsafeBytes { output(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                    if !wantsMore { stop = .outputStopped; break loop }
                } else if stderrHead.count < stderrLimit {
                    // The rest of stderr is read and dropped, so a chatty command never
                    // blocks on a full pipe.
                    stderrHead.append(contentsOf: buffer[..<min(n, stderrLimit - stderrHead.count)])
                }
            }
        }

        let needsKill = stop != nil || streams.anyOpen
        // Closing our ends first lets a writer die of SIGPIPE instead of blocking.
        streams.closeAll()
        if needsKill { terminateGroup(pid) }
        let status = reap(pid)
        return Outcome(ending: stop ?? status, stderrHead: stderrHead)
    }

    // MARK: Spawning

    private static func spawnSupervised(_ arguments: [String], stdout: Int32, stderr: Int32) throws(SpawnError) -> pid_t {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for arg in argv { free(arg) } }
        let pid = ovs_supervised_spawn(arguments[0], argv, stdout, stderr, strayGrace, terminationGrace)
        guard pid > 0 else { throw SpawnError(code: -pid) }
        return pid
    }

    // MARK: Ending

    /// Whether the child has exited, without reaping it: while it is an unreaped zombie its
    /// pid (= the group id) cannot be reused, so signalling the group stays safe.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        // ECHILD: already reaped by someone else (SIGCHLD set to SIG_IGN does that).
        return result == 0 ? info.si_signo == SIGCHLD : errno == ECHILD
    }

    /// SIGTERM to the supervisor, which sends SIGTERM to the command's group, gives it
    /// `terminationGrace`, then SIGKILLs every descendant. Should the supervisor itself not
    /// be gone well after that, it is SIGKILLed (the command then dies of its
    /// PR_SET_PDEATHSIG).
    private static func terminateGroup(_ pid: pid_t) {
        kill(pid, SIGTERM)
        let graceEnd = MonotonicClock.now() + terminationGrace + 2
        while !hasExited(pid), MonotonicClock.now() < graceEnd { MonotonicClock.sleep(0.005) }
        if !hasExited(pid) { kill(pid, SIGKILL) }
    }

    /// Waits for the child (it has exited or been killed) and decodes its status.
    private static func reap(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            // ECHILD: someone else reaped it (a SIGCHLD set to SIG_IGN does that); the
            // status is lost, and the command's output is all there is to go on.
            guard errno == EINTR else { return .exited(status: 0) }
        }
        // WIFEXITED / WTERMSIG are C macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? .exited(status: (status >> 8) & 0xFF) : .signaled(signal)
    }
}

/// A pipe whose ends close on exec, so a command spawned concurrently from another thread
/// does not inherit them (it would hold this command's output open).
private struct Pipe {
    var read: Int32
    var write: Int32

    init() throws(Subprocess.SpawnError) {
        var fds: [Int32] = [-1, -1]
        guard Self.pipe2(&fds, O_CLOEXEC) == 0 else { throw Subprocess.SpawnError(code: errno) }
        read = fds[0]
        write = fds[1]
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    /// glibc's pipe2 sets O_CLOEXEC atomically, but Swift's Glibc module does not import it
    /// (a _GNU_SOURCE extension), so it is looked up by name. pipe() then fcntl() would
    /// leave a window in which a fork on another thread inherits the ends.
    private static let pipe2: Pipe2 = {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") {  // RTLD_DEFAULT
            return unsafeBitCast(symbol, to: Pipe2.self)
        }
        return { fds, flags in
            guard let fds, pipe(fds) == 0 else { return -1 }
            for fd in [fds[0], fds[1]] where flags & O_CLOEXEC != 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return 0
        }
    }()

    func closeBoth() {
        close(read)
        close(write)
    }
}

/// The read ends of stdout and stderr, polled together until both reach EOF.
private struct Streams {
    private(set) var stdout: Int32
    private(set) var stderr: Int32

    init(stdout: Int32, stderr: Int32) {
        self.stdout = stdout
        self.stderr = stderr
    }

    var anyOpen: Bool { stdout >= 0 || stderr >= 0 }

    /// The open descriptors that have input or hit EOF within `timeout` seconds.
    func ready(within timeout: Double) -> [Int32] {
        var fds = [stdout, stderr].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ms = Int32(min(max(0, timeout * 1000).rounded(.up), Double(Int32.max)))
        guard poll(&fds, nfds_t(fds.count), ms) > 0 else { return [] }  // EINTR: try again
        return fds.filter { $0.revents != 0 }.map(\.fd)
    }

    mutating func closeStream(_ fd: Int32) {
        close(fd)
        if fd == stdout { stdout = -1 }
        if fd == stderr { stderr = -1 }
    }

    mutating func closeAll() {
        for fd in [stdout, stderr] where fd >= 0 { closeStream(fd) }
    }
}
