import FrameReports
import OverscrollKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--metrics FILE`: the fleet's figures (see `FleetMetrics`), rewritten every `interval`
/// seconds by a thread of its own and once more at exit. The frame loop only hands each
/// frame over (`record`: a lock held for one profiler recording, no allocation, no I/O);
/// quantiles, formatting and the file all happen on the writer's thread.
final class MetricsWriter: Sendable {
    private struct Feed {
        var profiler: FrameProfiler
        var metrics = FleetMetrics()
        var stopping = false
    }

    let path: String
    private let feed: Mutex<Feed>
    private let interval: Double
    private let warn: @Sendable (String) -> Void
    private let thread = Mutex<JoinableThread?>(nil)
    /// One warning per run of failures, not one every few seconds.
    private let failing = Atomic<Bool>(false)

    init(path: String, refreshPeriod: Double, interval: Double = 5, warn: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.interval = interval
        self.warn = warn
        var feed = Feed(profiler: FrameProfiler(refreshPeriod: refreshPeriod))
        feed.metrics.startTime = Self.wallClock()
        self.feed = Mutex(feed)
    }

    /// Writes the file once (so a bad path shows at start) and starts the writer.
    func start() {
        write()
        let started = JoinableThread { [self] in
            var next = MonotonicClock.now() + interval
            while true {
                if feed.withLock({ $0.stopping }) { return }
                if MonotonicClock.now() >= next {
                    write()
                    next = MonotonicClock.now() + interval
                }
                MonotonicClock.sleep(0.1)
            }
        }
        thread.withLock { $0 = started }
    }

    /// One frame, from the frame loop, with the model as that frame left it.
    func record(_ timing: FrameTiming, model: OverscrollModel) {
        let events = model.events
        let ended = events.contains(.refreshEnd), failed = events.contains(.refreshError)
        // Only a frame that ended a refresh looks at the clock.
        let now = ended ? Self.wallClock() : 0
        var timedOut = false
        if failed, case .timedOut = model.lastRefresh?.ending { timedOut = true }
        feed.withLock { f in
            f.profiler.record(timing)
            f.metrics.rows = model.rows.count
            if ended {
                f.metrics.refreshesOK += 1
                f.metrics.lastRefreshSuccess = now
            }
            if failed {
                if timedOut { f.metrics.refreshesTimedOut += 1 } else { f.metrics.refreshesFailed += 1 }
            }
        }
    }

    /// The last write, at exit; stops and joins the writer first.
    func finish() {
        feed.withLock { $0.stopping = true }
        thread.withLock { $0?.join() }
        write()
    }

    private func write() {
        let metrics = feed.withLock { f in
            var m = f.metrics
            m.update(from: f.profiler)
            return m
        }
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
