#if canImport(Glibc)
import Glibc
#endif

/// The wall clock (CLOCK_REALTIME), seconds since 1970 UTC: the one place "now" on the
/// calendar is read, for everything the program publishes (the status line, summary.json,
/// the metrics, a report's run name). Injected, so a test can step it as NTP steps a board
/// that booted in 1970.
public struct WallTime: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    public func now() -> Double { read() }

    /// When the run started on the clock as it is now: `now` less the run's monotonic
    /// age. A fact told this way follows a step of the clock (a start read once at boot
    /// would stay in 1970 for the whole run).
    public func start(monotonicStart: Double) -> Double {
        now() - (MonotonicClock.now() - monotonicStart)
    }

    public static let system = WallTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
