#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on CLOCK_MONOTONIC: never jumps with wall-clock changes (NTP, the user), and on
/// Linux it is read through the vDSO, so a call costs tens of nanoseconds, not a syscall.
public enum MonotonicClock {
    @inlinable
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        // A Double holds ns precision for ~100 days of uptime, and µs for centuries.
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Sleeps `seconds` (nothing when it is not positive): the one place seconds become a
    /// `timespec` for the pacers and the subprocess watcher.
    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        nanosleep(&ts, nil)
    }
}

/// CPU seconds the whole process has used, every thread together (user + system): what a
/// frame costs, wherever the work ran. A syscall per read (about a microsecond).
public enum ProcessCPUClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
