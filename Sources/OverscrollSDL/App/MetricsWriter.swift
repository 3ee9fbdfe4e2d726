import FrameReports
import OverscrollKit
import Synchronization
import Workers
#if canImport(Glibc)
import Glibc
#endif

/// `--metrics FILE`: the fleet's figures (see `FleetMetrics`), rewritten every `interval`
/// seconds by a thread of its own and once more at exit. The frame loop publishes each
/// frame's figures (`record`: a lock held while a few counters and two histogram buckets
/// move, no allocation, no I/O); the writer copies them into a snapshot of its own under
/// that lock, element by element (`FleetMetrics.assign`: no buffer shared with the loop,
/// which would have to copy it), and formats and writes the file with the lock released.
final class MetricsWriter: Sendable {
    private struct Feed {
        /// The frame loop's figures, as of its last frame.
        var metrics: FleetMetrics
        /// Where the figures go; a reload may move them (`retarget`).
        var path: String
        /// The file a reload moved the figures away from: removed by the writer, so that
        /// node_exporter does not go on serving a file nobody updates.
        var retired: String?
    }

    var path: String { feed.withLock { $0.path } }
    private let feed: Locked<Feed>
    private let interval: Double
    private let warn: @Sendable (String) -> Void
    /// The writer; it sleeps until its period, and a reload's retarget or the run's end
    /// wakes it at once (`Worker.wake`, `Worker.stop`).
    private let worker = Locked<Worker?>(nil)
    /// The log's count of lines it could not write, read at each write of the file.
    private let logLinesDropped: @Sendable () -> Int
    /// One warning per run of failures, not one every few seconds.
    private let failing = Atomic<Bool>(false)

    /// The wall clock, and the monotonic time the run started: the start time published is
    /// told on the clock as it is at each write (a step since, NTP setting a board that
    /// booted in 1970, is followed).
    private let wall: WallTime
    private let monotonicStart = MonotonicClock.now()

    init(path: String, refreshPeriod: Double, version: String = "unknown", interval: Double = 5,
         logLinesDropped: @escaping @Sendable () -> Int = { 0 }, wall: WallTime = .system,
         warn: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.wall = wall
        self.logLinesDropped = logLinesDropped
        self.warn = warn
        var metrics = FleetMetrics(refreshPeriod: refreshPeriod)
        metrics.startTime = wall.now()
        metrics.version = version
        feed = Locked(Feed(metrics: metrics, path: path))
    }

    /// A reload named another file: the writer writes there from its next turn (at once,
    /// not after the period) and removes the old one. No I/O on the caller's thread.
    func retarget(to newPath: String) {
        feed.withLock { f in
            guard f.path != newPath else { return }
            if f.retired == nil { f.retired = f.path }
            f.path = newPath
        }
        worker.withLock { $0?.wake() }
    }

    /// Writes the file once (so a bad path shows at start) and starts the writer.
    func start() {
        var snapshot = emptySnapshot()
        write(into: &snapshot)
        let started = Worker(name: "metrics") { [self] signal in
            var snapshot = emptySnapshot()
            var next = MonotonicClock.now() + interval
            while !signal.isStopping {
                if feed.withLock({ $0.retired != nil }) || MonotonicClock.now() >= next {
                    write(into: &snapshot)
                    next = MonotonicClock.now() + interval
                }
                signal.sleep(next - MonotonicClock.now())
            }
        }
        worker.withLock { $0 = started }
    }

    /// One frame, from the frame loop, with the model as that frame left it.
    func record(_ timing: FrameTiming, model: OverscrollModel) {
        // Only a frame that ended a refresh looks at the clock.
        let now = FleetMetrics.endsRefresh(model) ? wall.now() : 0
        feed.withLock { $0.metrics.record(timing, model: model, now: now) }
    }

    /// A frame's touch-to-scanout, heard after it (`RunRecord.presented`).
    func recordTouchToScanout(_ seconds: Double) {
        feed.withLock { $0.metrics.recordTouchToScanout(seconds) }
    }

    /// The last write, at exit; stops and joins the writer first.
    func finish() {
        worker.withLock { $0?.stopAndJoin() }
        var snapshot = emptySnapshot()
        write(into: &snapshot)
    }

    /// A value with buckets of its own, for `write` to copy the loop's figures into.
    private func emptySnapshot() -> FleetMetrics {
        FleetMetrics(refreshPeriod: feed.withLock { $0.metrics.refreshPeriod })
    }

    /// Takes the loop's figures into `snapshot` (under the lock: a copy of a few dozen
    /// numbers), then formats and writes them (the lock released: the loop never waits on
    /// the text or the disk).
    private func write(into snapshot: inout FleetMetrics) {
        let (path, retired) = feed.withLock { f in
            defer { f.retired = nil }
            snapshot.assign(f.metrics)
            return (f.path, f.retired)
        }
        snapshot.logLinesDropped = logLinesDropped()
        snapshot.startTime = wall.start(monotonicStart: monotonicStart)
        if let retired { unlink(retired) }
        do {
            try snapshot.write(to: path)
            failing.store(false, ordering: .relaxed)
        } catch {
            if !failing.exchange(true, ordering: .relaxed) { warn("warning: cannot write the metrics: \(error.description)") }
        }
    }
}
