import FrameReports
import OverscrollKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--metrics FILE`: the fleet's figures (see `FleetMetrics`), rewritten every `interval`
/// seconds by a thread of its own and once more at exit. The frame loop only hands each
/// frame over (`record`: a lock held while a few counters and two histogram buckets
/// move, no allocation, no I/O); formatting and the file happen on the writer's thread.
final class MetricsWriter: Sendable {
    private struct Feed {
        var metrics: FleetMetrics
        var stopping = false
        /// Where the figures go; a reload may move them (`retarget`).
        var path: String
        /// The file a reload moved the figures away from: removed by the writer, so that
        /// node_exporter does not go on serving a file nobody updates.
        var retired: String?
    }

    var path: String { feed.withLock { $0.path } }
    private let feed: Mutex<Feed>
    private let interval: Double
    private let warn: @Sendable (String) -> Void
    private let thread = Mutex<JoinableThread?>(nil)
    /// One warning per run of failures, not one every few seconds.
    private let failing = Atomic<Bool>(false)
    /// Wakes the writer before its period is up (a reload moved the file, the run ends):
    /// it sleeps in `poll` on the read end until then, not in short naps.
    private let wake: (read: Int32, write: Int32)

    init(path: String, refreshPeriod: Double, version: String = "unknown", interval: Double = 5,
         warn: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.warn = warn
        var metrics = FleetMetrics(refreshPeriod: refreshPeriod)
        metrics.startTime = Self.wallClock()
        metrics.version = version
        feed = Mutex(Feed(metrics: metrics, path: path))
        // Made before any refresh command is spawned (the writer starts first), and closed
        // on exec all the same; both ends non-blocking (a full pipe is already a wake-up).
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        if wake.read >= 0 { close(wake.read) }
        if wake.write >= 0 { close(wake.write) }
    }

    /// Ends the writer's sleep now.
    private func rouse() {
        var byte: UInt8 = 1
        if wake.write >= 0 { _ = Glibc.write(wake.write, &byte, 1) }
    }

    /// Sleeps until `deadline` (monotonic seconds) or until roused, whichever is first.
    private func sleep(until deadline: Double) {
        let left = deadline - MonotonicClock.now()
        guard left > 0 else { return }
        guard wake.read >= 0 else { return MonotonicClock.sleep(min(left, 0.1)) }
        var fd = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, Int32(min(left * 1000, 3_600_000).rounded(.up)))
        var drain = [UInt8](repeating: 0, count: 16)
        while Glibc.read(wake.read, &drain, drain.count) > 0 {}
    }

    /// A reload named another file: the writer writes there from its next turn (at once,
    /// not after the period) and removes the old one. No I/O on the caller's thread.
    func retarget(to newPath: String) {
        feed.withLock { f in
            guard f.path != newPath else { return }
            if f.retired == nil { f.retired = f.path }
            f.path = newPath
        }
        rouse()
    }

    /// Writes the file once (so a bad path shows at start) and starts the writer.
    func start() {
        write()
        let started = JoinableThread { [self] in
            var next = MonotonicClock.now() + interval
            while true {
                let (stopping, moved) = feed.withLock { ($0.stopping, $0.retired != nil) }
                if stopping { return }
                if moved || MonotonicClock.now() >= next {
                    write()
                    next = MonotonicClock.now() + interval
                }
                sleep(until: next)
            }
        }
        thread.withLock { $0 = started }
    }

    /// One frame, from the frame loop, with the model as that frame left it.
    func record(_ timing: FrameTiming, model: OverscrollModel) {
        // Only a frame that ended a refresh looks at the clock.
        let now = FleetMetrics.endsRefresh(model) ? Self.wallClock() : 0
        feed.withLock { $0.metrics.record(timing, model: model, now: now) }
    }

    /// The last write, at exit; stops and joins the writer first.
    func finish() {
        feed.withLock { $0.stopping = true }
        rouse()
        thread.withLock { $0?.join() }
        write()
    }

    private func write() {
        let (metrics, path, retired) = feed.withLock { f in
            defer { f.retired = nil }
            return (f.metrics, f.path, f.retired)
        }
        if let retired { unlink(retired) }
        do {
            try metrics.write(to: path)
            failing.store(false, ordering: .relaxed)
        } catch {
            if !failing.exchange(true, ordering: .relaxed) { warn("warning: cannot write the metrics: \(error.description)") }
        }
    }

    static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
